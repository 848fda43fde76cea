import fs from 'node:fs';
import path from 'node:path';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';

/** Debian's chromium; CI installs it (.ci/run). */
export const chromiumPath = process.env.ATHAR_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Headless Chromium as the machine allows it: no sandbox (root in CI), no GPU, and no background networking,
 * which this closed network would refuse. Playwright gives each launch a new, empty profile.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is required for the browser tests and is not at ${chromiumPath} (apt-get install chromium)`,
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export const screenshotDir = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

/** Saves a full-page screenshot as a test artifact (test-results/screenshots/<name>.png). */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * A browser context starting in a language (`null`: the browser's own, Arabic here, as for a visitor from Syria).
 * Only the starting language: a later switch on the page must survive navigation.
 */
export async function contextIn(
  browser: Browser,
  lang: 'ar' | 'en' | null,
  viewport: { width: number; height: number },
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const ctx = await browser.newContext({ ...options, viewport, locale: lang === 'en' ? 'en-GB' : 'ar-SY' });
  if (lang)
    await ctx.addInitScript(
      `if (!localStorage.getItem('athar.lang')) localStorage.setItem('athar.lang', '${lang}')`,
    );
  return ctx;
}

/** Signs a user in through the sign-in page and waits for the staff menu. */
export async function signIn(
  page: Page,
  serverUrl: string,
  user: { username: string; password: string },
): Promise<void> {
  await page.goto(`${serverUrl}/sign-in`);
  await page.fill('input[name="username"]', user.username);
  await page.fill('input[name="password"]', user.password);
  await page.press('input[name="password"]', 'Enter');
  await page.waitForSelector('.staff-nav');
}
