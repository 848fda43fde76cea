import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine } from '../../src/access/caller.js';
import { hashPassword } from '../../src/access/passwords.js';
import { SharpImageDecoder } from '../../src/evidence/sharp-image-decoder.js';
import { servicesOf } from '../../src/services/index.js';
import { ingest } from '../../src/services/ingest/ingest.js';
import { probeTesseract } from '../../src/services/ocr/tesseract.js';
import { UserRepository } from '../../src/store/repositories/users.js';
import { multiPageTiff } from '../ocr/documents.js';
import { pageSample } from '../ocr/synthetic.js';
import { axeViolations } from './axe.js';
import { contextIn, launchBrowser, screenshot, signIn } from './browser.js';
import { syntheticPassword } from './seed.js';
import { type RunningServer, startServer } from './server.js';

/**
 * Scanned registries (issue 23) in a real Chromium: a SYNTHETIC typed list read on request from the rows screen,
 * its rows beside the page, decided from the keyboard (accept, correct, reject) in English and Arabic; accepted and
 * corrected rows become records of the scan's source, a rejected one does not.
 */
describe.runIf(probeTesseract().ok)('the scanned rows screen in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let dir: string;
  const documenter = { username: 'synthetic-scan-documenter', password: syntheticPassword };
  const items = new Map<string, string>();
  const db = () => server.ctx.store.db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-e2e-scans-'));
    server = await startServer();
    await new UserRepository(db()).create({
      username: documenter.username,
      displayName: 'Synthetic documenter',
      passwordHash: await hashPassword(syntheticPassword),
      role: 'documenter',
    });
    fs.writeFileSync(path.join(dir, 'list-en.png'), (await pageSample(203, { handwritten: false })).image);
    fs.writeFileSync(path.join(dir, 'list-ar.png'), (await pageSample(204, { handwritten: false })).image);
    // A two-page register (TIFF): the page shown follows the focused row across pages.
    fs.writeFileSync(
      path.join(dir, 'register.tiff'),
      await multiPageTiff([
        (await pageSample(205, { handwritten: false, names: 'common' })).image,
        (await pageSample(206, { handwritten: false, names: 'common' })).image,
      ]),
    );
    await ingest(server.ctx, { paths: [dir], actor: 'synthetic', decoder: new SharpImageDecoder() });
    for (const r of await db().selectFrom('evidence_items').select(['id', 'original_name']).execute())
      items.set(r.original_name!, r.id);
    // The Arabic page is read beforehand, as `athar ocr --pages` would.
    await servicesOf(server.ctx).scans.read(
      [items.get('list-ar.png')!, items.get('register.tiff')!],
      commandLine,
    );
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const pageAs = async (lang: 'ar' | 'en'): Promise<{ ctx: BrowserContext; page: Page }> => {
    const ctx = await contextIn(browser, lang, { width: 1280, height: 900 });
    ctx.setDefaultTimeout(15_000);
    const page = await ctx.newPage();
    await signIn(page, server.url, documenter);
    return { ctx, page };
  };
  const rowsOf = (item: string) =>
    db().selectFrom('ocr_rows').selectAll().where('evidence_id', '=', item).orderBy('row_index').execute();

  it('reads a page on request and accepts its first row from the keyboard (English)', async () => {
    const item = items.get('list-en.png')!;
    const { ctx, page } = await pageAs('en');
    await page.goto(`${server.url}/evidence/${item}`);
    await page.click(`a[href="/evidence/${item}/rows"]`);
    await page.waitForSelector('button:text-is("Read as a scanned page")');
    expect(await axeViolations(page)).toEqual([]);
    await page.click('button:text-is("Read as a scanned page")');
    await page.waitForSelector('.scan-row-list li[data-index="0"]', { timeout: 60_000 });
    // The page beside the rows, the focused row outlined on it.
    await page.waitForSelector('.scan-page img');
    // Polled from here: the page's CSP refuses the string evaluation waitForFunction would make.
    await expect
      .poll(() => page.evaluate("document.querySelector('.scan-page img').naturalWidth"), { timeout: 15_000 })
      .toBeGreaterThan(1000);
    expect(await page.$$('.scan-box')).toHaveLength(1);
    expect(await page.inputValue('input[name="sourceName"]')).toBe('Scan list-en.png');
    await screenshot(page, 'scan-rows-en');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('a');
    await page.waitForSelector('.scan-row-list li[data-index="0"][data-status="accepted"]');
    const [first] = await rowsOf(item);
    expect(first).toMatchObject({ status: 'accepted', decided_by: expect.any(String) });
    const record = await db()
      .selectFrom('records')
      .innerJoin('sources', 'sources.id', 'records.source_id')
      .select(['records.full_name', 'records.kind', 'records.external_id', 'sources.name'])
      .where('records.id', '=', first!.record_id!)
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({
      kind: 'registry_line',
      name: 'Scan list-en.png',
      external_id: `${item}/p1/r1`,
      full_name: JSON.parse(first!.fields).fullName,
    });
    await ctx.close();
  }, 120_000);

  it('corrects one row and rejects the next, right to left, with no axe violations (Arabic)', async () => {
    const item = items.get('list-ar.png')!;
    const { ctx, page } = await pageAs('ar');
    await page.goto(`${server.url}/evidence/${item}/rows`);
    await page.waitForSelector('.scan-row-list li[data-index="0"]');
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.textContent('h1')).toContain('الأسطر المقروءة من');
    await page.fill('input[name="sourceName"]', 'قائمة اصطناعية');
    await page.click('h1');
    // j moves to the second row; e opens its fields; Enter saves it as corrected.
    await page.keyboard.press('j');
    await page.waitForSelector('.scan-row-list li[data-index="1"][aria-current="true"]');
    await page.keyboard.press('e');
    await page.waitForSelector('.scan-edit input[name="familyName"]');
    await screenshot(page, 'scan-rows-edit-ar');
    expect(await axeViolations(page)).toEqual([]);
    await page.fill('.scan-edit input[name="familyName"]', 'المصحح');
    await page.press('.scan-edit input[name="familyName"]', 'Enter');
    await page.waitForSelector('.scan-row-list li[data-index="1"][data-status="corrected"]');
    // The focus moved on to the third row: r rejects it.
    await page.waitForSelector('.scan-row-list li[data-index="2"][aria-current="true"]');
    await page.keyboard.press('r');
    await page.waitForSelector('.scan-row-list li[data-index="2"][data-status="rejected"]');
    const rows = await rowsOf(item);
    expect(rows.slice(0, 3).map((r) => r.status)).toEqual(['proposed', 'corrected', 'rejected']);
    expect(rows[2]!.record_id).toBeNull();
    const record = await db()
      .selectFrom('records')
      .innerJoin('sources', 'sources.id', 'records.source_id')
      .select(['records.family_name', 'sources.name'])
      .where('records.id', '=', rows[1]!.record_id!)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ family_name: 'المصحح', name: 'قائمة اصطناعية' });
    expect(await axeViolations(page)).toEqual([]);
    await ctx.close();
  }, 120_000);

  for (const lang of ['en', 'ar'] as const) {
    it(`shows the page of the focused row of a two-page register, j moving onto page 2 (${lang})`, async () => {
      const item = items.get('register.tiff')!;
      const onPage1 = (await rowsOf(item)).filter((r) => r.page === 1).length;
      expect(onPage1).toBeGreaterThan(5);
      const { ctx, page } = await pageAs(lang);
      await page.goto(`${server.url}/evidence/${item}/rows`);
      await page.waitForSelector('.scan-row-list li[data-index="0"]');
      const src = () => page.getAttribute('.scan-page img', 'src');
      const indicator = () => page.textContent('.scan-page-number');
      expect(await src()).toMatch(/\/page\?page=1$/);
      expect(await indicator()).toBe(lang === 'en' ? 'Page 1 of 2' : 'الصفحة 1 من 2');
      await page.click('h1');
      // j through the first page's rows: the next is the second page's first row, and its page is shown.
      for (let i = 0; i < onPage1; i++) await page.keyboard.press('j');
      await page.waitForSelector(`.scan-row-list li[data-index="${onPage1}"][aria-current="true"]`);
      await expect.poll(src).toMatch(/\/page\?page=2$/);
      expect(await indicator()).toBe(lang === 'en' ? 'Page 2 of 2' : 'الصفحة 2 من 2');
      await expect
        .poll(() => page.evaluate("document.querySelector('.scan-page img').naturalWidth"), {
          timeout: 15_000,
        })
        .toBeGreaterThan(1000);
      expect(await page.$$('.scan-box')).toHaveLength(1);
      if (lang === 'ar') await screenshot(page, 'scan-rows-page-2-ar');
      expect(await axeViolations(page)).toEqual([]);
      // k goes back onto the first page.
      await page.keyboard.press('k');
      await expect.poll(src).toMatch(/\/page\?page=1$/);
      await ctx.close();
    }, 120_000);
  }
});
