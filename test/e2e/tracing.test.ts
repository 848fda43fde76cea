import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/access/passwords.js';
import type { Role } from '../../src/access/roles.js';
import { generate } from '../../src/linkage/synth/generator.js';
import { UserRepository } from '../../src/store/repositories/users.js';
import { axeViolations } from './axe.js';
import { contextIn, launchBrowser, screenshot, signIn as signInAs } from './browser.js';
import { syntheticPassword } from './seed.js';
import { type RunningServer, startServer } from './server.js';

/**
 * The tracing loop end to end in a real Chromium (issue 18), and what leaves athar (issue 22) and how many are
 * missing (issue 24) on its screens: a SYNTHETIC list with duplicates imported through the imports screen, its pairs
 * decided in the review queue, the merged person's page; a family report filed on the public page whose candidate a
 * liaison sees; a court bundle asked for by one person and approved by another; the estimate on the dashboard.
 */
describe('the tracing loop and its screens in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let dir: string;
  let csvFile: string;
  const users = {} as Record<Role, { username: string; password: string }>;
  const db = () => server.ctx.store.db;

  // The family's missing relative, on the list in Arabic: the public report below names him again.
  const missing = {
    record_id: 'synthetic-tracing-target',
    full_name: 'سامر يوسف أحمد الخطيب',
    first_name: 'سامر',
    father_name: 'يوسف',
    grandfather_name: 'أحمد',
    family_name: 'الخطيب',
    sex: 'm',
    birth_date: '1988',
    arrest_date: '2014-02-11',
    governorate: 'حمص',
    notes: 'SYNTHETIC',
  };

  beforeAll(async () => {
    server = await startServer({}, { tracing: true });
    for (const role of ['documenter', 'reviewer', 'liaison', 'investigator', 'admin'] as Role[]) {
      const username = `synthetic-tracing-${role}`;
      await new UserRepository(server.ctx.store.db).create({
        username,
        displayName: `Synthetic ${role}`,
        passwordHash: await hashPassword(syntheticPassword),
        role,
      });
      users[role] = { username, password: syntheticPassword };
    }
    // A list of 120 invented people with the duplicates athar synth makes (spelling, script, missing fields).
    const synth = generate({ people: 120, seed: 18 });
    const columns = Object.keys(missing);
    const rows = [
      ...synth.records.map((r) => {
        const row: Record<string, unknown> = { ...r.fields };
        delete row.source;
        return row;
      }),
      missing,
    ];
    const header = [...new Set([...columns, ...rows.flatMap((r) => Object.keys(r))])];
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-e2e-tracing-'));
    csvFile = path.join(dir, 'synthetic-branch-list.csv');
    fs.writeFileSync(csvFile, stringify(rows, { header: true, columns: header }));
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const context = async (lang: 'ar' | 'en'): Promise<BrowserContext> => {
    const ctx = await contextIn(browser, lang, { width: 1280, height: 900 });
    ctx.setDefaultTimeout(15_000);
    return ctx;
  };
  // Each user signs in through the page once (the sign-in limits); later contexts carry the session's cookie.
  const cookies = new Map<string, Awaited<ReturnType<BrowserContext['cookies']>>>();
  const signIn = async (page: Page, role: Role) => {
    const user = users[role];
    const known = cookies.get(user.username);
    if (known) {
      await page.context().addCookies(known);
      await page.goto(`${server.url}/account`);
      await page.waitForSelector('.staff-nav');
      return;
    }
    await signInAs(page, server.url, user);
    cookies.set(user.username, await page.context().cookies());
  };
  const until = async <T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 30_000) => {
    const end = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  let importId = '';
  let personId = '';

  it('imports a list with duplicates on the imports screen and shows its linking until every record has a person', async () => {
    const ctx = await context('en');
    const page = await ctx.newPage();
    await signIn(page, 'documenter');
    // A trial run first (the screen's default): it checks every row and writes nothing.
    await page.goto(`${server.url}/imports`);
    await page.setInputFiles('input[name="file"]', csvFile);
    await page.click('form button[type="submit"]');
    await page.waitForURL(/\/imports\/[^/]+$/);
    await page.waitForSelector('[data-status="finished"]');
    expect(await page.$$('[data-linking]')).toHaveLength(0);
    expect(await db().selectFrom('records').select('id').execute()).toEqual([]);
    // Then the import itself.
    await page.goto(`${server.url}/imports`);
    await page.setInputFiles('input[name="file"]', csvFile);
    await page.uncheck('input[name="dryRun"]');
    await page.click('form button[type="submit"]');
    await page.waitForURL((url) => /\/imports\/[^/]+$/.test(url.pathname));
    importId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() as string);
    await page.waitForSelector('[data-status="finished"] [data-linking="done"]', { timeout: 60_000 });
    const text = await page.textContent('[data-linking]');
    expect(text).toContain('every record of this import belongs to a person');
    await screenshot(page, 'tracing-import-en');
    // Every record belongs to exactly one person, and the model linked some of the list's duplicates.
    const records = await db().selectFrom('records').select('id').execute();
    const open = await db()
      .selectFrom('record_links')
      .select(['record_id', 'person_id'])
      .where('unlinked_at', 'is', null)
      .execute();
    expect(new Set(open.map((l) => l.record_id)).size).toBe(records.length);
    expect(open).toHaveLength(records.length);
    expect(new Set(open.map((l) => l.person_id)).size).toBeLessThan(records.length);
    await ctx.close();
  }, 120_000);

  it('serves the pairs the model was unsure of in the review queue; a decision merges the persons', async () => {
    const open = await until('a pair in the review queue', () =>
      db().selectFrom('candidate_pairs').selectAll().where('status', '=', 'open').executeTakeFirst(),
    );
    expect(open).toBeTruthy();
    const ctx = await context('ar');
    const page = await ctx.newPage();
    await signIn(page, 'reviewer');
    await page.click('.staff-nav a[href="/review"]');
    const shown = await page.getAttribute('[data-pair]', 'data-pair');
    const pair = await db()
      .selectFrom('candidate_pairs')
      .selectAll()
      .where('id', '=', shown as string)
      .executeTakeFirstOrThrow();
    const personOf = async (recordId: string) =>
      (
        await db()
          .selectFrom('record_links')
          .select('person_id')
          .where('record_id', '=', recordId)
          .where('unlinked_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).person_id;
    const before = [await personOf(pair.record_a), await personOf(pair.record_b)];
    expect(before[0]).not.toBe(before[1]);
    await screenshot(page, 'tracing-review-ar');
    await page.keyboard.press('m');
    personId = await until('the two records in one person', async () => {
      const [a, b] = [await personOf(pair.record_a), await personOf(pair.record_b)];
      return a === b ? a : undefined;
    });
    // The person merged away keeps answering, with the id it went to.
    const gone = before.find((p) => p !== personId) as string;
    await page.goto(`${server.url}/persons/${gone}`);
    await page.waitForSelector(`[data-merged-from="${gone}"]`);
    expect(await page.$$('[data-link-basis="review_decision"]')).not.toHaveLength(0);
    await screenshot(page, 'tracing-merged-person-ar');
    await ctx.close();
  }, 120_000);

  let reportId = '';

  it("compares a family's report filed on the public page with the archive; the liaison sees the candidate", async () => {
    const ctx = await contextIn(browser, 'ar', { width: 360, height: 740 });
    const page = await ctx.newPage();
    await page.goto(`${server.url}/report`);
    await page.fill('input[name="person.fullName"]', 'سامر يوسف الخطيب');
    await page.fill('input[name="person.birthDate"]', '١٩٨٨');
    await page.fill('input[name="arrest.date"]', '2014-02');
    await page.check('input[name="consent.internalUse"]');
    await page.check('input[name="consent.contactWithResults"]');
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-testid="reference"]');
    const reference = (await page.textContent('[data-testid="reference"]'))?.trim() as string;
    await ctx.close();
    const report = await db()
      .selectFrom('family_reports')
      .select('id')
      .where('reference', '=', reference)
      .executeTakeFirstOrThrow();
    reportId = report.id;
    const target = await db()
      .selectFrom('records')
      .select('id')
      .where('external_id', '=', missing.record_id)
      .executeTakeFirstOrThrow();
    await until('the report matched against the registry', () =>
      db()
        .selectFrom('report_candidates')
        .select('id')
        .where('report_id', '=', reportId)
        .where('record_id', '=', target.id)
        .executeTakeFirst(),
    );

    const staff = await context('en');
    const liaison = await staff.newPage();
    await signIn(liaison, 'liaison');
    await liaison.goto(`${server.url}/reports/${reportId}`);
    await liaison.waitForSelector('[data-candidates="listed"]');
    expect(await liaison.$$(`[data-candidates="listed"] a[href="/records/${target.id}"]`)).toHaveLength(1);
    await screenshot(liaison, 'tracing-report-candidates-en');
    await staff.close();
    // Reading the candidates is audited.
    const audited = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'read_candidates')
      .where('subject_id', '=', reportId)
      .execute();
    expect(audited.length).toBeGreaterThan(0);
  }, 120_000);

  it('lets an investigator ask for a court bundle of the person, an admin approve it, and the investigator fetch it', async () => {
    const asking = await context('en');
    const investigator = await asking.newPage();
    await signIn(investigator, 'investigator');
    await investigator.goto(`${server.url}/persons/${personId}`);
    await investigator.click('a:text-is("Ask for a court bundle")');
    await investigator.waitForURL(/\/exports\?person=/);
    expect(await investigator.inputValue('input[name="personId"]')).toBe(personId);
    await investigator.fill('textarea[name="reason"]', 'SYNTHETIC: for the prosecutor of a test case');
    await investigator.click('form button[type="submit"]');
    await investigator.waitForSelector('.ok-note');
    const request = await db()
      .selectFrom('export_requests')
      .select(['id', 'status'])
      .executeTakeFirstOrThrow();
    expect(request.status).toBe('requested');
    // The one who asked cannot approve.
    expect(await investigator.$$(`[data-id="${request.id}"] button:text-is("Approve")`)).toHaveLength(0);

    const approving = await context('ar');
    const admin = await approving.newPage();
    await signIn(admin, 'admin');
    await admin.click('.staff-nav a[href="/exports"]');
    await admin.waitForSelector(`[data-id="${request.id}"][data-status="requested"]`);
    await screenshot(admin, 'exports-approve-ar');
    await admin.click(`[data-id="${request.id}"] button:text-is("وافق")`);
    await approving.close();

    await until(
      'the bundle built',
      async () =>
        (
          await db()
            .selectFrom('export_requests')
            .select('status')
            .where('id', '=', request.id)
            .executeTakeFirst()
        )?.status === 'ready',
      60_000,
    );
    await investigator.reload();
    await investigator.waitForSelector(`[data-id="${request.id}"][data-status="ready"] .file-ready`);
    const href = await investigator.getAttribute(`[data-id="${request.id}"] a[href$="/file"]`, 'href');
    const fetched = await investigator.evaluate(async (url) => {
      const res = await fetch(url as string);
      return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
    }, href);
    expect(fetched.status).toBe(200);
    expect(fetched.bytes).toBeGreaterThan(100);
    await screenshot(investigator, 'exports-ready-en');
    await asking.close();
  }, 180_000);

  it('shows how many are missing on the dashboard and explains the methods in both languages', async () => {
    for (const lang of ['ar', 'en'] as const) {
      const ctx = await context(lang);
      const page = await ctx.newPage();
      await signIn(page, 'admin');
      await page.goto(`${server.url}/dashboard`);
      await page.waitForSelector('.estimate-panel');
      // One list only: no estimate is possible, and the panel says so rather than guessing.
      await page.waitForSelector('.estimate-panel [data-refusal="too-few-lists"]');
      await page.goto(`${server.url}/estimate/methods`);
      await page.waitForSelector('.methods h2');
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      await screenshot(page, `estimate-methods-${lang}`);
      await ctx.close();
    }
  }, 120_000);

  for (const lang of ['ar', 'en'] as const) {
    it(`has no axe violations on the new screens (${lang})`, async () => {
      const problems: string[] = [];
      const screens: [Role, string, string][] = [
        ['documenter', `/imports/${importId}`, '[data-linking]'],
        ['investigator', '/exports', 'form[aria-labelledby="ask-export"]'],
        ['admin', '/estimate', '[data-refusal], table'],
        ['admin', '/estimate/methods', '.methods'],
        ['reviewer', `/persons/${personId}`, '[data-link-basis]'],
      ];
      for (const [role, url, ready] of screens) {
        const ctx = await context(lang);
        const page = await ctx.newPage();
        await signIn(page, role);
        await page.goto(`${server.url}${url}`);
        await page.waitForSelector(ready);
        await page.waitForLoadState('networkidle');
        for (const v of await axeViolations(page)) problems.push(`${url}: ${v}`);
        await ctx.close();
      }
      expect(problems).toEqual([]);
    }, 180_000);
  }
});
