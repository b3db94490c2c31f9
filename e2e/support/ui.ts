import type { Page } from 'playwright-core';

/** Waits for the toast with this title (and description, when given) to be on screen. */
export async function expectToast(page: Page, title: string, description?: string) {
  let toast = page.locator('.mantine-Notification-root').filter({
    has: page.locator('.mantine-Notification-title', { hasText: title }),
  });
  if (description) toast = toast.filter({ hasText: description });
  await toast.first().waitFor({ state: 'visible' });
}

/** Waits until the address bar shows this path. */
export async function expectPath(page: Page, pathname: string, timeout = 15_000) {
  await page.waitForURL((url) => url.pathname === pathname, { timeout });
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
