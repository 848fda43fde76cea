import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/access/passwords.js';
import { UserRepository } from '../../src/store/repositories/users.js';
import { axeViolations } from './axe.js';
import { contextIn, launchBrowser, screenshot, signIn } from './browser.js';
import { syntheticPassword } from './seed.js';
import { type RunningServer, startServer } from './server.js';

/**
 * What documentation teams bring in and what admins keep (issue 22) in a real Chromium: a Windows-1256 list with
 * Arabic headers read on the imports screen before anything runs, its map corrected and kept by name, the next file
 * imported with that map; the backups screen makes a backup, checks it and says how to restore it. SYNTHETIC data.
 */
describe('imports and backups in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let dir: string;
  const admin = { username: 'synthetic-exchange-admin', password: syntheticPassword };
  const documenter = { username: 'synthetic-exchange-documenter', password: syntheticPassword };
  const db = () => server.ctx.store.db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-e2e-exchange-'));
    server = await startServer({ ATHAR_BACKUPS: path.join(dir, 'backups') });
    for (const [user, role] of [
      [admin, 'admin'],
      [documenter, 'documenter'],
    ] as const) {
      await new UserRepository(server.ctx.store.db).create({
        username: user.username,
        displayName: `Synthetic ${role}`,
        passwordHash: await hashPassword(syntheticPassword),
        role,
      });
    }
    // A list as a Syrian documentation group's spreadsheet saves it: Arabic headers, Windows-1256.
    fs.writeFileSync(
      path.join(dir, 'synthetic-list-1256.csv'),
      iconv.encode(
        [
          'الرقم,الاسم الثلاثي,اسم الأم,المحافظة,ملاحظة',
          'x1,وائل سمير الشامي,هدى,حمص,SYNTHETIC',
          'x2,باسل نزار القاسم,,حماة,SYNTHETIC',
        ].join('\r\n'),
        'win1256',
      ),
    );
    fs.writeFileSync(
      path.join(dir, 'synthetic-list-next.csv'),
      'الرقم,الاسم الثلاثي,اسم الأم,المحافظة,ملاحظة\nx3,مازن عادل الحسن,,إدلب,SYNTHETIC\n',
    );
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const pageAs = async (
    user: { username: string; password: string },
    lang: 'ar' | 'en',
  ): Promise<{ ctx: BrowserContext; page: Page }> => {
    const ctx = await contextIn(browser, lang, { width: 1280, height: 900 });
    ctx.setDefaultTimeout(15_000);
    const page = await ctx.newPage();
    await signIn(page, server.url, user);
    return { ctx, page };
  };

  const names = async () =>
    (
      await db()
        .selectFrom('records')
        .select(['external_id', 'full_name', 'notes'])
        .orderBy('external_id')
        .execute()
    ).map((r) => [r.external_id, r.full_name, r.notes]);

  it('reads a Windows-1256 file at once, shows each column with its first values, and imports with the corrected map kept by name (Arabic)', async () => {
    const { ctx, page } = await pageAs(documenter, 'ar');
    await page.goto(`${server.url}/imports`);
    await page.setInputFiles('input[name="file"]', path.join(dir, 'synthetic-list-1256.csv'));
    await page.waitForSelector('[data-preview="guessed"]');
    const preview = (await page.textContent('[data-preview]')) ?? '';
    expect(preview).toContain('windows-1256');
    expect(preview).toContain('وائل سمير الشامي');
    // athar's guesses, each correctable: the name column is the full name, the mother's name is hers.
    expect(await page.getAttribute('tr[data-header="الاسم الثلاثي"]', 'data-column')).toBe('full_name');
    expect(await page.getAttribute('tr[data-header="اسم الأم"]', 'data-column')).toBe('mother_name');
    // The user reads "ملاحظة" as the notes, and keeps the map for the next file.
    await page.selectOption('tr[data-header="ملاحظة"] select', 'notes');
    // Two columns read as one field are refused here, before anything runs.
    await page.selectOption('tr[data-header="المحافظة"] select', 'notes');
    await page.waitForSelector('.field-error');
    expect(await page.isDisabled('form button[type="submit"]')).toBe(true);
    await page.selectOption('tr[data-header="المحافظة"] select', 'governorate');
    await page.fill('input[name="saveMapping"]', 'قائمة المجموعة الاصطناعية');
    await screenshot(page, 'imports-preview-ar');
    expect(await axeViolations(page)).toEqual([]);
    await page.uncheck('input[name="dryRun"]');
    await page.fill('input[name="source"]', 'Synthetic group list');
    await page.click('form button[type="submit"]');
    await page.waitForURL(/\/imports\/[^/]+$/);
    await page.waitForSelector('[data-status="finished"]');
    expect(await names()).toEqual([
      ['x1', 'وائل سمير الشامي', 'SYNTHETIC'],
      ['x2', 'باسل نزار القاسم', 'SYNTHETIC'],
    ]);

    // The next file of the same group: the saved map is chosen by name, and the import runs with it.
    await page.goto(`${server.url}/imports`);
    await page.setInputFiles('input[name="file"]', path.join(dir, 'synthetic-list-next.csv'));
    await page.waitForSelector('select[name="mapping"]');
    await page.selectOption('select[name="mapping"]', 'قائمة المجموعة الاصطناعية');
    expect(await page.getAttribute('tr[data-header="ملاحظة"]', 'data-column')).toBe('notes');
    await page.uncheck('input[name="dryRun"]');
    await page.click('form button[type="submit"]');
    await page.waitForURL(/\/imports\/[^/]+$/);
    await page.waitForSelector('[data-status="finished"]');
    expect((await names()).at(-1)).toEqual(['x3', 'مازن عادل الحسن', 'SYNTHETIC']);
    // The imports started are listed on the imports screen, newest first.
    await page.goto(`${server.url}/imports`);
    await page.waitForSelector('.recent-imports li');
    expect(await page.$$('.recent-imports li')).toHaveLength(2);
    await ctx.close();
  }, 120_000);

  it('names the file and the byte of a file it cannot read (English)', async () => {
    const { ctx, page } = await pageAs(documenter, 'en');
    await page.goto(`${server.url}/imports`);
    await page.setInputFiles('input[name="file"]', {
      name: 'synthetic-noise.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919 + 13) % 256)),
    });
    await page.waitForSelector('.error-note');
    expect(await page.textContent('form')).toContain('synthetic-noise.csv');
    expect(await page.isDisabled('form button[type="submit"]')).toBe(true);
    await ctx.close();
  });

  it('makes a backup, checks it and says how to restore it (English), and is the admin’s alone', async () => {
    const { ctx, page } = await pageAs(admin, 'en');
    await page.click('.staff-nav a[href="/backups"]');
    await page.waitForSelector('h1:text-is("Backups")');
    // The heading shows at once, the folder once the page has loaded (slower on a busy machine).
    await page.waitForSelector(`section :text("${path.join(dir, 'backups')}")`);
    expect(await page.textContent('section')).toContain(path.join(dir, 'backups'));
    // The keys only when asked, with the warning first.
    await page.check('input[name="keys"]');
    await page.waitForSelector('[role="note"]');
    await page.uncheck('input[name="keys"]');
    await page.click('form button[type="submit"]');
    await page.waitForSelector('[data-job="finished"]', { timeout: 60_000 });
    await page.waitForSelector('tr[data-complete="true"]');
    expect(await page.textContent('tr[data-complete="true"]')).toContain('left out');
    await page.click('tr[data-complete="true"] button');
    await page.waitForSelector('[data-check="ok"]', { timeout: 60_000 });
    const snapshot = await page.getAttribute('tr[data-complete="true"]', 'data-snapshot');
    expect(await page.textContent('pre[data-restore]')).toContain(`--snapshot ${snapshot}`);
    expect(fs.existsSync(path.join(dir, 'backups', 'snapshots', snapshot as string, 'snapshot.json'))).toBe(
      true,
    );
    await screenshot(page, 'backups-en');
    expect(await axeViolations(page)).toEqual([]);
    await ctx.close();

    const other = await pageAs(documenter, 'en');
    expect(await other.page.$$('.staff-nav a[href="/backups"]')).toHaveLength(0);
    await other.page.goto(`${server.url}/backups`);
    await other.page.waitForSelector('main [role="alert"]');
    expect(await other.page.textContent('main [role="alert"]')).toContain('Your role does not allow this.');
    expect(await other.page.$$('button:text-is("Back up now")')).toHaveLength(0);
    await other.ctx.close();
  }, 120_000);

  it('reads in Arabic, right to left, with no axe violations', async () => {
    const { ctx, page } = await pageAs(admin, 'ar');
    await page.goto(`${server.url}/backups`);
    await page.waitForSelector('tr[data-complete="true"]');
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.textContent('h1')).toBe('النسخ الاحتياطية');
    await screenshot(page, 'backups-ar');
    expect(await axeViolations(page)).toEqual([]);
    await ctx.close();
  }, 60_000);
});
