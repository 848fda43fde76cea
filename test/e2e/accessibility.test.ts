import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations as violations } from './axe.js';
import { contextIn, launchBrowser, signIn } from './browser.js';
import { type SeededArchive, seedArchive } from './seed.js';
import { type RunningServer, startServer } from './server.js';

/**
 * WCAG 2.1 AA as axe-core checks it (contrast, labels, names, landmarks, lang): the public family pages and the
 * main staff screens, in Arabic and in English. The page's CSP is bypassed only to load axe itself.
 */
describe('accessibility (axe-core, WCAG 2.1 A and AA)', () => {
  let server: RunningServer;
  let seeded: SeededArchive;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    seeded = await seedArchive(server);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function open(lang: 'ar' | 'en', signedIn: boolean): Promise<Page> {
    // axe is injected as a script: the page's Content-Security-Policy would refuse it.
    const ctx = await contextIn(browser, lang, { width: 1280, height: 900 }, { bypassCSP: true });
    const page = await ctx.newPage();
    if (signedIn) await signIn(page, server.url, seeded.users.reviewer);
    return page;
  }

  for (const lang of ['ar', 'en'] as const) {
    it(`has no violations on the public pages (${lang})`, async () => {
      const page = await open(lang, false);
      const problems: string[] = [];
      for (const [url, ready] of [
        ['/', 'main'],
        ['/report', 'form'],
        ['/status', 'form'],
        ['/sign-in', 'form'],
      ] as const) {
        await page.goto(`${server.url}${url}`);
        await page.waitForSelector(ready);
        for (const v of await violations(page)) problems.push(`${url}: ${v}`);
      }
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it(`has no violations on the staff screens (${lang})`, async () => {
      const page = await open(lang, true);
      const problems: string[] = [];
      for (const [url, ready] of [
        ['/dashboard', 'main h1'],
        ['/search', 'form'],
        [`/persons/${seeded.personId}`, 'main h1'],
        [`/evidence/${seeded.evidenceId}`, 'main h1'],
        ['/review', 'main h1'],
        ['/identifications', 'main h1'],
      ] as const) {
        await page.goto(`${server.url}${url}`);
        await page.waitForSelector(ready);
        await page.waitForLoadState('networkidle');
        for (const v of await violations(page)) problems.push(`${url}: ${v}`);
      }
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
