import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Serious or critical accessibility problems axe finds on the page, one line each, prefixed
 * with `where` (e.g. the path); an empty list when there are none.
 */
export async function seriousAxeProblems(page: Page, where = page.url()): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes
          .map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`.trim())
          .join(', ')}`,
    );
}

export type PointerContrast = {
  /** The computed background before and under the pointer (`rgb(…)`). */
  resting: string;
  hovered: string;
  /** The computed text colour under the pointer. */
  color: string;
  /** WCAG contrast ratio of `color` on `hovered`. */
  ratio: number;
};

/**
 * Moves the pointer onto `target` (a button) and measures its text on its hover background,
 * both read from the computed style once the background's transition has ended. `resting` is
 * the background before, so a caller can check the hover did show.
 */
export async function contrastUnderPointer(target: Locator): Promise<PointerContrast> {
  const page = target.page();
  await page.mouse.move(0, 0);
  const background = () => target.evaluate((el) => getComputedStyle(el).backgroundColor);
  const resting = await background();
  await target.hover();
  // Mantine fades a button's background in ~150 ms: wait until it has settled.
  let hovered = await background();
  await expect
    .poll(async () => {
      const previous = hovered;
      hovered = await background();
      return hovered !== resting && hovered === previous;
    })
    .toBe(true);
  const color = await target.evaluate((el) => getComputedStyle(el).color);
  return { resting, hovered, color, ratio: contrastOf(color, hovered) };
}

/** WCAG contrast ratio of two opaque computed colours (`rgb(r, g, b)`). */
function contrastOf(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r = 0, g = 0, bl = 0] = (css.match(/[\d.]+/g) ?? []).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
