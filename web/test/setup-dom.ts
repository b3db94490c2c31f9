// What jsdom lacks and Mantine uses: media queries, element resizing, scrolling.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

/** The viewport width media queries are answered for (a test may set a phone's). */
export const viewport = { width: 1280 };

function matches(query: string): boolean {
  const max = /max-width:\s*([\d.]+)(em|px)/.exec(query);
  const min = /min-width:\s*([\d.]+)(em|px)/.exec(query);
  const px = (m: RegExpExecArray) => Number(m[1]) * (m[2] === 'em' ? 16 : 1);
  if (max && viewport.width > px(max)) return false;
  if (min && viewport.width < px(min)) return false;
  return true;
}

window.matchMedia = (query: string) =>
  ({
    media: query,
    matches: matches(query),
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

globalThis.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
Element.prototype.scrollIntoView = () => {};
Element.prototype.scrollTo = () => {};
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  viewport.width = 1280;
});

// Autosizing text areas listen for web fonts.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}
