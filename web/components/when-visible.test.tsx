import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WhenVisible } from './when-visible.tsx';

/** The browser's IntersectionObserver, driven by the test: `enter()` scrolls the place near. */
function stubObserver() {
  const observers: { callback: IntersectionObserverCallback; margin?: string; on: boolean }[] = [];
  class Observer {
    record: (typeof observers)[number];
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.record = { callback, margin: options?.rootMargin, on: false };
      observers.push(this.record);
    }
    observe() {
      this.record.on = true;
    }
    disconnect() {
      this.record.on = false;
    }
  }
  vi.stubGlobal('IntersectionObserver', Observer);
  return {
    observers,
    enter: (isIntersecting: boolean) =>
      act(() => {
        for (const o of observers.filter((x) => x.on)) {
          o.callback([{ isIntersecting } as IntersectionObserverEntry], {} as IntersectionObserver);
        }
      }),
  };
}

describe('WhenVisible (a dashboard chart drawn as it nears the screen)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the placeholder until its place nears the screen, then the content for good', () => {
    const io = stubObserver();
    render(
      <WhenVisible placeholder={<p>chart loading</p>}>
        <p>the chart</p>
      </WhenVisible>,
    );
    expect(screen.getByText('chart loading')).toBeTruthy();
    expect(screen.queryByText('the chart')).toBeNull();
    // It starts before the place is on screen: 300 px ahead by default.
    expect(io.observers[0]!.margin).toBe('300px');
    io.enter(false);
    expect(screen.queryByText('the chart')).toBeNull();
    io.enter(true);
    expect(screen.getByText('the chart')).toBeTruthy();
    expect(screen.queryByText('chart loading')).toBeNull();
    // Drawn once: the observer is let go, scrolling away does not hide it.
    expect(io.observers.every((o) => !o.on)).toBe(true);
  });

  it('renders at once where the browser has no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(
      <WhenVisible placeholder={<p>chart loading</p>}>
        <p>the chart</p>
      </WhenVisible>,
    );
    expect(screen.getByText('the chart')).toBeTruthy();
  });
});
