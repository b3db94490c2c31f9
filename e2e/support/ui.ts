import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Waits for the toast with this title (and description, when given) to be on screen. */
export async function expectToast(page: Page, title: string, description?: string) {
  let toast = page.locator('.mantine-Notification-root').filter({
    has: page.locator('.mantine-Notification-title', { hasText: title }),
  });
  if (description) toast = toast.filter({ hasText: description });
  await toast.first().waitFor({ state: 'visible' });
}

/** Closes every toast on screen and waits until none is left (so a screenshot shows the page). */
export async function closeToasts(page: Page) {
  for (const close of await page.getByRole('button', { name: 'Close notification' }).all()) {
    await close.click().catch(() => {});
  }
  await page.waitForFunction(() => !document.querySelector('.mantine-Notification-root'));
}

/** Expects `target` wholly inside the viewport's width (`sidewaysOutside` at most 0). */
export async function expectInsideWidth(target: Locator) {
  expect(await sidewaysOutside(target)).toBeLessThanOrEqual(0);
}

/** Waits until the address bar shows this path. */
export async function expectPath(page: Page, pathname: string, timeout = 15_000) {
  await page.waitForURL((url) => url.pathname === pathname, { timeout });
}

/** The toast of each sign-up form once the account is made: its title and text. */
const accountCreated = {
  publisher: [
    'Account Created Successfully!',
    'Your account is now pending approval. Please check back later.',
  ],
  buyer: [
    'Signup Successful',
    'Please check your email to confirm your account. You can then log in.',
  ],
} as const;

/** Sends the publisher's or the buyer's sign-up form: waits for its toast, then for /login. */
export async function createAccount(page: Page, form: keyof typeof accountCreated) {
  await page.getByRole('button', { name: 'Create account' }).click();
  const [title, text] = accountCreated[form];
  await expectToast(page, title, text);
  await expectPath(page, '/login');
}

/** Fills the login form and submits it. */
export async function signInViaUi(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

let counter = 0;
/** A unique e-mail address per call, so journeys never collide. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@e2e.test`;
}

/** The document itself never scrolls sideways (wide tables scroll inside their own box). */
export async function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/**
 * How far `target` reaches past the left or right edge of the viewport, in px (0 or less when it
 * is wholly inside). Read from its layout box: a button at the end of a table that scrolls
 * sideways counts as outside even though its scroll box clips it.
 */
export async function sidewaysOutside(target: Locator): Promise<number> {
  await target.waitFor();
  return target.evaluate((el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0) return Number.POSITIVE_INFINITY;
    return Math.max(-box.left, box.right - document.documentElement.clientWidth);
  });
}

/** The enrolment screen a password sign-in takes an admin without an authenticator app to. */
export const twoFactorSetupPath = '/account/two-factor/setup';

/**
 * Signs an admin in through /login. An admin without an authenticator app is taken to the
 * two-factor enrolment first (issue 17): this checks that, puts it off with "Set up later" and
 * waits for /admin.
 */
export async function signInAsAdminViaUi(page: Page, email: string, password: string) {
  await signInViaUi(page, email, password);
  await expectPath(page, twoFactorSetupPath);
  await page.getByRole('button', { name: 'Set up later' }).click();
  await expectPath(page, '/admin');
}

/**
 * After the sign-in form: waits for the screen the sign-in leads to. When that is the two-factor
 * enrolment (an admin without an app), puts it off with "Set up later" and waits for the area.
 */
export async function finishSignIn(page: Page) {
  const settled = (u: URL) => !u.pathname.startsWith('/login') && u.pathname !== '/';
  await page.waitForURL(settled);
  if (new URL(page.url()).pathname !== twoFactorSetupPath) return;
  await page.getByRole('button', { name: 'Set up later' }).click();
  await page.waitForURL((u) => settled(u) && u.pathname !== twoFactorSetupPath);
}

/** A row of a list: in its table on wider screens, or its card on a phone (named like the table). */
export function rowWith(page: Page, tableName: string, text: string): Locator {
  const rows = page.getByRole('region', { name: tableName }).getByRole('table').locator('tbody tr');
  const cards = page.getByRole('list', { name: tableName }).getByRole('listitem');
  return rows.or(cards).filter({ hasText: text });
}

/**
 * The texts of a table row's cells under these column headers (matched by how the header
 * starts), so a test keeps reading the right cells when columns are added or moved.
 */
export async function cellsUnder(
  table: Locator,
  row: Locator,
  headers: string[],
): Promise<string[]> {
  const titles = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim());
  const cells = await row.getByRole('cell').allInnerTexts();
  return headers.map((header) => {
    const column = titles.findIndex((t) => t.startsWith(header));
    if (column < 0) throw new Error(`no column "${header}" in [${titles.join(', ')}]`);
    return cells[column]?.trim() ?? '';
  });
}

/** The figure of the stat card with this exact title (its `stat-value`). */
export const statValue = (page: Page, label: string) =>
  page.getByRole('region', { name: label, exact: true }).getByTestId('stat-value').textContent();

/** Waits until every open dialog has finished its opening transition (for screenshots). */
export async function settled(page: Page) {
  await page.waitForFunction(() =>
    [
      ...document.querySelectorAll<HTMLElement>('.mantine-Modal-content, .mantine-Modal-overlay'),
    ].every((el) => {
      const style = getComputedStyle(el);
      return (
        style.opacity === '1' && ['none', '', 'matrix(1, 0, 0, 1, 0, 0)'].includes(style.transform)
      );
    }),
  );
}

/**
 * What scrolls sideways in the page's main area: each box whose content is wider than it and
 * that scrolls (overflow-x auto or scroll), as "tag.class scrollWidth>clientWidth"; [] when
 * the screen fits its width. Read with the document's own overflow (`pageOverflow`).
 */
export async function sidewaysScrollers(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main *')]
      .filter((el) => {
        const o = getComputedStyle(el).overflowX;
        return (o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      })
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} ${el.scrollWidth}>${el.clientWidth}`,
      ),
  );
}

/**
 * Picks an option of a Mantine Select in `scope` by the select's label: types `typed` (by
 * default the option, when it is text) to narrow a searchable one, then clicks the first match.
 */
export async function pickOption(
  scope: Page | Locator,
  label: string,
  option: string | RegExp,
  typed = typeof option === 'string' ? option : undefined,
) {
  const input = scope.getByRole('combobox', { name: label });
  await input.click();
  if (typed !== undefined) await input.fill(typed);
  await input.page().getByRole('option', { name: option }).first().click();
}

/**
 * Admin → Integrations → New Integration for a tracker that sends our own parameter names,
 * named `name` (the Integrations screen open); answers the dialog that shows its key once.
 */
export async function createIntegrationViaUi(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name: 'New Integration' }).click();
  const form = page.getByRole('dialog', { name: 'New Integration' });
  // The tracker first (issue 26): its preset fills the mapping.
  await form.getByRole('combobox', { name: /^Tracker/ }).click();
  await page.getByRole('option', { name: 'Other tracker (our parameter names)' }).click();
  await form.getByRole('textbox', { name: /^Name/ }).fill(name);
  await form.getByRole('button', { name: 'Create Integration' }).click();
  return page.getByRole('dialog', { name: `Key for ${name}` });
}

/**
 * In the dialog `createIntegrationViaUi` answers: copies the key with its button (clipboard
 * access granted to the page first), checks it is an integration key and closes the dialog with
 * "I have copied the key"; answers the key read back from the clipboard.
 */
export async function copyIntegrationKey(keyDialog: Locator): Promise<string> {
  const page = keyDialog.page();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(page.url()).origin,
  });
  const copy = keyDialog.getByRole('button', { name: 'Copy secret key' });
  await copy.click();
  await copy.getByText('Copied').waitFor();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toMatch(/^ik_/);
  await keyDialog.getByRole('button', { name: 'I have copied the key' }).click();
  return key;
}

/**
 * Admin → Payouts → Balances: selects these publishers (by name), opens "Run payouts for
 * selected" and asks for its preview; answers the dialog.
 */
export async function previewPayoutRun(page: Page, publishers: string[]): Promise<Locator> {
  for (const name of publishers) {
    await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  }
  await page.getByRole('button', { name: 'Run payouts for selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'New payout run' });
  await dialog.getByRole('button', { name: 'Preview' }).click();
  return dialog;
}
