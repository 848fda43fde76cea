import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './browser.js';
import { type RunningServer, startServer } from './server.js';

describe('the web shell in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens in Arabic, right to left, and switches to English, left to right', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await page.goto(server.url);
    await page.waitForSelector('.brand');
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.textContent('.brand')).toBe('أثر');
    await page.waitForSelector('.health[data-state="ok"]');
    await screenshot(page, 'shell-ar');

    await page.selectOption('.language-switch select', 'en');
    await page.waitForSelector('html[dir="ltr"]', { state: 'attached' });
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.textContent('.free-notice')).toMatch(/This service is free/);
    await screenshot(page, 'shell-en');

    // The choice survives a reload.
    await page.reload();
    await page.waitForSelector('.brand');
    expect(await page.getAttribute('html', 'dir')).toBe('ltr');
    await page.close();
  });
});
