import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '../..');
export const screenshotDir = path.join(root, '.tmp/screenshots');

/** Debian's Chromium, headless, without the background traffic a test has no use for. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** A fresh context (own storage, so own session) on the server's origin. */
export async function newContext(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = viewports.desktop,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  return context;
}

/** Collects the page's console errors and uncaught exceptions, for failure messages. */
export function trackPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  return errors;
}

function safeName(name: string): string {
  return name
    .replace(/[^a-z0-9-]+/gi, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
}

/**
 * Saves a PNG under .tmp/screenshots/ and returns its path: the full page, or with
 * `fullPage: false` only the viewport. A full-page shot resizes Chromium's view for a moment;
 * on a loaded machine the area shell's phone media query can flip during it, which remounts the
 * header and sidebar (an open bell list closes). Shots of something open there take the viewport.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${safeName(name)}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/**
 * Runs a browser step; when it fails, saves a screenshot named after the test (and the page's
 * errors are added to the message) before rethrowing.
 */
export async function withScreenshotOnFailure<T>(
  page: Page,
  name: string,
  step: () => Promise<T>,
  errors: string[] = [],
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    let shot = '';
    try {
      shot = await saveScreenshot(page, `FAILED-${name}`);
    } catch {
      /* the page may be gone */
    }
    if (err instanceof Error) {
      err.message += `\n  url: ${page.url()}${shot ? `\n  screenshot: ${shot}` : ''}${
        errors.length ? `\n  page errors:\n    ${errors.join('\n    ')}` : ''
      }`;
    }
    throw err;
  }
}

/**
 * Runs steps in a fresh context (own storage, so own session) on `baseURL`; a failure leaves a
 * screenshot named `name` and the page's errors in the message. The context is closed after.
 */
export async function inFreshContext(
  browser: Browser,
  baseURL: string,
  name: string,
  steps: (page: Page, errors: string[]) => Promise<void>,
  viewport: { width: number; height: number } = viewports.desktop,
): Promise<void> {
  const context = await newContext(browser, baseURL, viewport);
  const page = await context.newPage();
  const errors = trackPageErrors(page);
  try {
    await withScreenshotOnFailure(page, name, () => steps(page, errors), errors);
  } finally {
    await context.close();
  }
}
