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

const authHeaders = {
  'content-type': 'application/json',
  apikey: 'public-anon-key',
  'x-supabase-api-version': '2024-01-01',
};

/** Signs a publisher up through /auth/v1 directly (publishers need no e-mail confirmation). */
export async function signUpPublisherViaApi(baseUrl: string, email: string, password: string) {
  const res = await fetch(`${baseUrl}/auth/v1/signup`, {
    method: 'POST',
    headers: authHeaders,
    body: JSON.stringify({
      email,
      password,
      data: {
        full_legal_name: 'Api Publisher',
        business_legal_name: 'Api Publishing LLC',
        address: '1 Test Street',
        phone_number: '+1 555 0100',
        whatsapp_number: '+1 555 0101',
        ms_teams_id: 'api.publisher',
      },
    }),
  });
  if (!res.ok) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
}
