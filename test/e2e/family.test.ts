import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextIn, launchBrowser, screenshot } from './browser.js';
import { type RunningServer, startServer } from './server.js';

/** The public family pages in a real Chromium: no account, Arabic first, usable on a 360 px phone. */
describe('the family pages in a real browser', () => {
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

  const phone = { width: 360, height: 740 };

  const context = (lang: 'ar' | 'en' | null, viewport = phone): Promise<BrowserContext> =>
    contextIn(browser, lang, viewport);

  it('files a family report on a phone, in Arabic by default, and looks up its status', async () => {
    const ctx = await context(null, phone);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/report`);
    await page.waitForSelector('form');
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.textContent('.free-notice')).toContain('مجانية');
    await screenshot(page, 'report-ar');
    // Nothing wider than the phone: no sideways scrolling at 360 px.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);

    await page.fill('input[name="person.fullName"]', 'سامر يوسف الخطيب');
    await page.fill('input[name="person.birthDate"]', '١٩٨٨');
    await page.fill('input[name="arrest.date"]', '2014-02');
    await page.click('.looks summary');
    await page.fill('input[name="anteMortem.heightCm"]', '١٧٥');
    await page.fill('textarea[name="anteMortem.distinctiveFeatures"]', 'ندبة فوق الحاجب الأيسر');
    await page.check('input[name="consent.internalUse"]');
    await page.check('input[name="consent.contactWithResults"]');
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-testid="reference"]');
    const reference = (await page.textContent('[data-testid="reference"]'))?.trim() ?? '';
    const secret = (await page.textContent('[data-testid="secret"]'))?.trim() ?? '';
    expect(reference).not.toBe('');
    expect(secret).not.toBe('');
    await screenshot(page, 'report-receipt-ar');
    // What the family described arrived, with Arabic digits read as a number.
    const profile = await server.ctx.store.db
      .selectFrom('antemortem_profiles')
      .innerJoin('family_reports', 'family_reports.id', 'antemortem_profiles.report_id')
      .select('antemortem_profiles.profile')
      .where('family_reports.reference', '=', reference)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(profile.profile)).toMatchObject({
      heightCm: 175,
      distinctiveFeatures: 'ندبة فوق الحاجب الأيسر',
    });

    await page.goto(`${server.url}/status`);
    await page.fill('input[name="reference"]', reference);
    await page.fill('input[name="secret"]', 'not-the-secret');
    await page.click('button[type="submit"]');
    await page.waitForSelector('.error-note');
    await page.fill('input[name="secret"]', secret);
    await page.click('button[type="submit"]');
    await page.waitForSelector('.status-answer[data-status="received"]');
    await screenshot(page, 'status-ar');
    await ctx.close();
  });

  it('can be used by keyboard alone, with a visible focus ring', async () => {
    const ctx = await context('en');
    const page = await ctx.newPage();
    await page.goto(`${server.url}/`);
    await page.waitForSelector('.lead');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.className')).toBe('skip-link');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    // Every form control on the public pages has a label.
    for (const path of ['/report', '/status', '/sign-in']) {
      await page.goto(`${server.url}${path}`);
      await page.waitForSelector('form');
      const unlabelled = await page.$$eval('input, select, textarea', (els) =>
        els
          .filter(
            (el) =>
              !(el as unknown as { labels: unknown[] | null }).labels?.length &&
              !el.getAttribute('aria-label'),
          )
          .map((el) => el.getAttribute('name')),
      );
      expect(unlabelled).toEqual([]);
    }
    await ctx.close();
  });
});
