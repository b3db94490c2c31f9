import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

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
