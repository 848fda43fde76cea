import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/access/passwords.js';
import { identifierKey } from '../../src/evidence/identifiers.js';
import { SharpImageDecoder } from '../../src/evidence/sharp-image-decoder.js';
import { servicesOf } from '../../src/services/index.js';
import { ingest } from '../../src/services/ingest/ingest.js';
import { UserRepository } from '../../src/store/repositories/users.js';
import { cardSample } from '../ocr/synthetic.js';
import { axeViolations } from './axe.js';
import { contextIn, launchBrowser, screenshot, signIn } from './browser.js';
import { syntheticPassword } from './seed.js';
import { type RunningServer, startServer } from './server.js';

/**
 * A reviewer's decisions on the numbers the card reader proposed (issue 23), by keyboard, in a real Chromium: two
 * SYNTHETIC card photos read by athar's card reader; on one, the first number is taken as read, the second corrected,
 * the third rejected, and the decisions recorded with Ctrl+Enter; the confirmed and corrected numbers become the
 * body's labels. The photo stays blurred throughout.
 */
describe('reviewing OCR card proposals in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let dir: string;
  const documenter = { username: 'synthetic-ocr-documenter', password: syntheticPassword };
  const items: { id: string; truth: { branch: string; detaineeNumber: string } }[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-e2e-ocr-'));
    server = await startServer({ ATHAR_TESSERACT: 'off' });
    await new UserRepository(server.ctx.store.db).create({
      username: documenter.username,
      displayName: 'Synthetic documenter',
      passwordHash: await hashPassword(syntheticPassword),
      role: 'documenter',
    });
    const folder = path.join(dir, 'in');
    fs.mkdirSync(folder);
    const truths = new Map<string, { branch: string; detaineeNumber: string }>();
    for (const seed of [1000, 1004]) {
      const s = await cardSample(seed, { hard: false });
      fs.writeFileSync(path.join(folder, `${s.name}.jpg`), s.image);
      truths.set(`${s.name}.jpg`, s.truth as { branch: string; detaineeNumber: string });
    }
    const run = await ingest(server.ctx, {
      paths: [folder],
      actor: 'synthetic-ocr',
      decoder: new SharpImageDecoder(),
    });
    const ocr = servicesOf(server.ctx).ocr;
    await ocr.read(await ocr.itemsOfRun(run.runId));
    for (const [name, truth] of truths) {
      const row = await server.ctx.store.db
        .selectFrom('evidence_items')
        .select('id')
        .where('original_name', '=', name)
        .executeTakeFirstOrThrow();
      items.push({ id: row.id, truth });
    }
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const pageIn = async (lang: 'ar' | 'en'): Promise<{ ctx: BrowserContext; page: Page }> => {
    const ctx = await contextIn(browser, lang, { width: 1280, height: 900 });
    ctx.setDefaultTimeout(15_000);
    const page = await ctx.newPage();
    await signIn(page, server.url, documenter);
    return { ctx, page };
  };

  it('takes one number as read, corrects one and rejects one, by keyboard; the body gets the two (English)', async () => {
    const { ctx, page } = await pageIn('en');
    const item = items[0] as (typeof items)[number];
    await page.goto(`${server.url}/evidence/${item.id}`);
    await page.waitForSelector('.card-proposals li[data-proposal]');
    expect(await page.$$('.card-proposals li[data-proposal]')).toHaveLength(3);
    // The photo is the blurred thumbnail, with the box of the number in focus over it.
    expect(await page.$$('.card-proposals .boxed-photo img')).toHaveLength(1);
    await page.fill('input[name="ocr-collection"]', 'Synthetic collection A');
    await page.focus('.card-proposals li[data-proposal]');
    await page.waitForSelector('.ocr-box');
    await page.keyboard.press('Enter'); // the branch, as read; focus moves on
    await page.keyboard.press('e'); // the detainee number, corrected
    const correction = page.locator('.card-proposals input[name^="correct-"]');
    await correction.waitFor();
    await correction.fill('77777');
    await page.keyboard.press('Enter'); // back to the list, on the examination number
    await page.keyboard.press('r');
    expect(
      await page.$$eval('.card-proposals li[data-proposal]', (lis) =>
        lis.map((li) => li.getAttribute('data-choice')),
      ),
    ).toEqual(['confirm', 'correct', 'reject']);
    await screenshot(page, 'ocr-review-en');
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('.card-proposals [role="status"]');
    await page.waitForSelector('li[data-decided="rejected"]');
    const statuses = await server.ctx.store.db
      .selectFrom('ocr_proposals')
      .select(['part', 'status', 'corrected_value'])
      .where('evidence_id', '=', item.id)
      .orderBy('part')
      .execute();
    expect(statuses).toEqual([
      { part: 'branch', status: 'confirmed', corrected_value: null },
      { part: 'detainee_number', status: 'corrected', corrected_value: '77777' },
      { part: 'examination_number', status: 'rejected', corrected_value: null },
    ]);
    // The body's labels: the branch as read and the corrected detainee number, shown in the table above.
    const table = (await page.textContent('table')) ?? '';
    expect(table).toContain('77777');
    expect(table).toContain(item.truth.branch);
    const body = await server.ctx.store.db
      .selectFrom('bodies')
      .selectAll()
      .where('collection', '=', 'Synthetic collection A')
      .executeTakeFirstOrThrow();
    expect(body.branch_key).toBe(identifierKey(item.truth.branch));
    expect(body.detainee_key).toBe(identifierKey('77777'));
    expect(body.examination_key).toBe('');
    await ctx.close();
  }, 60_000);

  it('reads right to left in Arabic, with no axe violations', async () => {
    const { ctx, page } = await pageIn('ar');
    await page.goto(`${server.url}/evidence/${(items[1] as (typeof items)[number]).id}`);
    await page.waitForSelector('.card-proposals li[data-proposal]');
    expect(await page.textContent('#card-proposals-title')).toBe('أرقام قُرئت من البطاقة');
    await screenshot(page, 'ocr-review-ar');
    expect(await axeViolations(page)).toEqual([]);
    await ctx.close();
  }, 60_000);
});
