import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/access/passwords.js';
import { SharpImageDecoder } from '../../src/evidence/sharp-image-decoder.js';
import { ingest } from '../../src/services/ingest/ingest.js';
import { UserRepository } from '../../src/store/repositories/users.js';
import { syntheticPhoto } from '../evidence-files.js';
import { zipOf } from '../zip-file.js';
import { axeViolations } from './axe.js';
import { contextIn, launchBrowser, screenshot, signIn as signInAs } from './browser.js';
import { HttpSession } from './http.js';
import { type SeededArchive, seedArchive, syntheticPassword } from './seed.js';
import { type RunningServer, startServer } from './server.js';

/**
 * The staff workspace (issue 20) in a real Chromium against a real server seeded with SYNTHETIC data: each screen's
 * main path for the role it is for, in Arabic and English, refused to a role it is not for, and axe on each.
 * Screenshots go to test-results/screenshots/workspace-*.png.
 */
describe('the staff workspace in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let seeded: SeededArchive;
  const admin = { username: 'synthetic-workspace-admin', password: syntheticPassword };

  beforeAll(async () => {
    server = await startServer();
    seeded = await seedArchive(server);
    await new UserRepository(server.ctx.store.db).create({
      username: admin.username,
      displayName: 'Synthetic admin',
      passwordHash: await hashPassword(syntheticPassword),
      role: 'admin',
    });
    // Two near-duplicates (one photo and a smaller re-encoding of it) beside the seed's card photo.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-e2e-near-'));
    const photo = await syntheticPhoto(8202, 800, 600);
    fs.writeFileSync(path.join(folder, 'synthetic-near-a.jpg'), photo);
    fs.writeFileSync(
      path.join(folder, 'synthetic-near-b.jpg'),
      await sharp(photo).resize(720, 540).jpeg({ quality: 70 }).toBuffer(),
    );
    const documenter = await db()
      .selectFrom('users')
      .select('id')
      .where('username', '=', seeded.users.documenter.username)
      .executeTakeFirstOrThrow();
    await ingest(server.ctx, {
      paths: [folder],
      actor: documenter.id,
      source: 'synthetic near-duplicates',
      decoder: new SharpImageDecoder(),
    });
    fs.rmSync(folder, { recursive: true, force: true });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const desktop = { width: 1280, height: 900 };
  // A step that waits longer than this has failed: its selector is named in the error, before the test's timeout.
  const context = async (lang: 'ar' | 'en', options = {}): Promise<BrowserContext> => {
    const ctx = await contextIn(browser, lang, desktop, options);
    ctx.setDefaultTimeout(10_000);
    return ctx;
  };
  // Sign-ins are rate-limited per address and per username (30 and 10 per 15 minutes): each user signs in through
  // the page once, and later contexts carry that session's cookie.
  const cookies = new Map<string, Awaited<ReturnType<BrowserContext['cookies']>>>();
  const signIn = async (page: Page, user: { username: string; password: string }) => {
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
  const sessions = new Map<string, HttpSession>();
  const apiAs = async (user: { username: string; password: string }) => {
    const known = sessions.get(user.username);
    if (known) return known;
    const made = await new HttpSession(server.url).signIn(user.username, user.password);
    sessions.set(user.username, made);
    return made;
  };
  const db = () => server.ctx.store.db;

  /** Opens a screen as a role that may not use it: the menu does not offer it and the screen says so. */
  async function refused(user: { username: string; password: string }, path: string) {
    const ctx = await context('en');
    const page = await ctx.newPage();
    await signIn(page, user);
    expect(await page.$$(`.staff-nav a[href="${path}"]`)).toHaveLength(0);
    await page.goto(`${server.url}${path}`);
    await page.waitForSelector('main [role="alert"]');
    expect(await page.textContent('main [role="alert"]')).toContain('Your role does not allow this.');
    await ctx.close();
  }

  describe('users', () => {
    it('lets an admin add a user (password shown once), change the role, disable, and reset the password', async () => {
      const ctx = await context('en');
      const page = await ctx.newPage();
      await signIn(page, admin);
      await page.click('.staff-nav a[href="/users"]');
      await page.waitForSelector(`tr[data-user="${admin.username}"]`);
      // The admin signed in just now: the list says when.
      expect(await page.textContent(`tr[data-user="${admin.username}"] td:nth-child(3)`)).not.toBe('never');
      expect(await page.textContent(`tr[data-user="${seeded.users.liaison.username}"] td:nth-child(3)`)).toBe(
        'never',
      );

      await page.fill('input[name="username"]', 'synthetic-new-documenter');
      await page.fill('input[name="displayName"]', 'سارة (اصطناعية)');
      await page.selectOption('form[aria-labelledby="add-user"] select[name="role"]', 'documenter');
      await page.click('button:text-is("Add the user")');
      await page.waitForSelector('[data-once-password] .code');
      const password = ((await page.textContent('[data-once-password] .code')) ?? '').trim();
      expect(password.length).toBeGreaterThanOrEqual(12);
      await screenshot(page, 'workspace-users-added-en');
      // The password shown is the one that works, and only once: the list reloaded without it.
      await new HttpSession(server.url).signIn('synthetic-new-documenter', password);
      await page.reload();
      await page.waitForSelector('tr[data-user="synthetic-new-documenter"]');
      expect(await page.$$('[data-once-password]')).toHaveLength(0);

      const row = 'tr[data-user="synthetic-new-documenter"]';
      // The row's panel opens by its summary, and stays open across the list's reloads.
      const openPanel = async () => {
        if ((await page.getAttribute(`${row} details`, 'open')) === null) await page.click(`${row} summary`);
      };
      await openPanel();
      await page.selectOption(`${row} select[name="role"]`, 'reviewer');
      await page.click(`${row} button:text-is("Change the role")`);
      await page.waitForSelector(`${row} td:nth-child(2):text-is("Reviewer")`);
      await openPanel();
      await page.click(`${row} button:text-is("Disable the account")`);
      await page.waitForSelector(`${row} td .danger-text`);
      const stored = await db()
        .selectFrom('users')
        .select(['role', 'disabled'])
        .where('username', '=', 'synthetic-new-documenter')
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ role: 'reviewer', disabled: 1 });

      await openPanel();
      await page.click(`${row} button:text-is("Reset the password")`);
      await page.waitForSelector(`${row} [data-once-password] .code`);
      const reset = ((await page.textContent(`${row} [data-once-password] .code`)) ?? '').trim();
      expect(reset).not.toBe(password);
      await ctx.close();
    });

    it('explains the last-admin guard when it refuses (Arabic)', async () => {
      // Only this admin can still sign in: the first admin made at setup is disabled for this test.
      await db()
        .updateTable('users')
        .set({ disabled: 1 })
        .where('role', '=', 'admin')
        .where('username', '<>', admin.username)
        .execute();
      const ctx = await context('ar');
      const page = await ctx.newPage();
      await signIn(page, admin);
      await page.goto(`${server.url}/users`);
      const row = `tr[data-user="${admin.username}"]`;
      await page.waitForSelector(row);
      await page.click(`${row} summary`);
      await page.click(`${row} .manage .buttons button >> nth=0`);
      await page.waitForSelector(`${row} [data-last-admin]`);
      expect(await page.textContent(`${row} [data-last-admin]`)).toContain('آخر مدير نظام');
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      await screenshot(page, 'workspace-users-last-admin-ar');
      const me = await db()
        .selectFrom('users')
        .select('disabled')
        .where('username', '=', admin.username)
        .executeTakeFirstOrThrow();
      expect(me.disabled).toBe(0);
      await ctx.close();
    });

    it('is refused to a documenter', async () => {
      await refused(seeded.users.documenter, '/users');
    });
  });

  describe('evidence', () => {
    it('shows the vault as blurred thumbnails, filters near-duplicates and annotates a selection (Arabic)', async () => {
      const ctx = await context('ar');
      const page = await ctx.newPage();
      const requested: string[] = [];
      page.on('request', (r) => requested.push(new URL(r.url()).pathname));
      await signIn(page, seeded.users.documenter);
      await page.click('.staff-nav a[href="/evidence"]');
      await page.waitForSelector('.evidence-grid li');
      expect(await page.$$eval('.evidence-grid li', (li) => li.length)).toBe(3);
      const images = await page.$$eval('.evidence-grid img', (imgs) =>
        imgs.map((i) => [i.getAttribute('src'), i.className]),
      );
      for (const [src, cls] of images) {
        expect(src).toMatch(/^\/api\/evidence\/[^/]+\/thumbnail$/);
        expect(cls).toContain('blurred');
      }

      await page.selectOption('select[name="nearDuplicates"]', 'true');
      await page.click('search button[type="submit"]');
      await page.waitForURL(/nearDuplicates=true/);
      await expect.poll(() => page.$$eval('.evidence-grid li', (li) => li.length)).toBe(2);
      for (const box of await page.$$('.evidence-grid input[name="selected"]')) await box.check();
      await page.fill('.bulk input[name="value"]', '٢١٥');
      await page.selectOption('.bulk select[name="readFrom"]', 'folder');
      await page.click('.bulk button[type="submit"]');
      await page.waitForSelector('.bulk [role="status"]');
      await screenshot(page, 'workspace-evidence-grid-ar');
      const annotations = await db()
        .selectFrom('annotations')
        .select(['kind', 'value', 'read_from'])
        .execute();
      expect(annotations).toEqual([
        { kind: 'branch_number', value: '215', read_from: 'folder' },
        { kind: 'branch_number', value: '215', read_from: 'folder' },
      ]);
      await page.selectOption('select[name="nearDuplicates"]', '');
      await page.selectOption('select[name="hasAnnotations"]', 'false');
      await page.click('search button[type="submit"]');
      await page.waitForURL(/hasAnnotations=false/);
      await expect.poll(() => page.$$eval('.evidence-grid li', (li) => li.length)).toBe(1);
      // The grid never asked for an original or an unblurred view.
      expect(requested.filter((p) => /\/(original|unblurred)/.test(p))).toEqual([]);
      await ctx.close();
    });

    it('records card and body labels and shows near-duplicates side by side (English)', async () => {
      const near = await db()
        .selectFrom('evidence_items')
        .select('id')
        .where('original_name', '=', 'synthetic-near-a.jpg')
        .executeTakeFirstOrThrow();
      const ctx = await context('en');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.documenter);
      await page.goto(`${server.url}/evidence/${near.id}`);
      await page.waitForSelector('.near-pair');
      expect(await page.$$eval('.near-pair img', (imgs) => imgs.map((i) => i.className))).toEqual([
        'blurred',
        'blurred',
      ]);
      await page.fill('input[name="collection"]', 'Synthetic collection (not real)');
      await page.fill('input[name="branch.value"]', '215');
      await page.fill('input[name="detainee_number.value"]', '4471');
      await page.selectOption('select[name="detainee_number.readFrom"]', 'body');
      await page.click('button:text-is("Record the labels")');
      await page.waitForSelector('.label-form [role="status"]');
      await page.waitForSelector('tr.body-key');
      await screenshot(page, 'workspace-evidence-labels-en');
      const labels = await db()
        .selectFrom('body_labels')
        .select(['part', 'value', 'read_from'])
        .where('evidence_id', '=', near.id)
        .orderBy('part')
        .execute();
      expect(labels).toEqual([
        { part: 'branch', value: '215', read_from: 'card' },
        { part: 'detainee_number', value: '4471', read_from: 'body' },
      ]);
      await ctx.close();
    });

    it('is refused to an admin', async () => {
      await refused(admin, '/evidence');
    });
  });

  describe('upload', () => {
    it('uploads files and a zip chosen in the browser, ingests them and shows each outcome (English)', async () => {
      const before = await db().selectFrom('evidence_items').select('id').execute();
      const ctx = await context('en');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.documenter);
      await page.click('.staff-nav a[href="/ingest"]');
      await page.waitForSelector('.drop-zone');
      const photo = await syntheticPhoto(8303, 400, 300);
      await page.setInputFiles('input[name="files"]', [
        { name: 'synthetic-upload-1.jpg', mimeType: 'image/jpeg', buffer: photo },
        {
          name: 'synthetic-batch.zip',
          mimeType: 'application/zip',
          buffer: zipOf([
            { name: 'Branch 215/synthetic-upload-2.jpg', bytes: await syntheticPhoto(8304, 400, 300) },
            { name: 'Branch 215/copy-of-1.jpg', bytes: photo },
          ]),
        },
      ]);
      await page.waitForSelector('text=2 files chosen');
      await page.fill('input[name="source"]', 'Synthetic upload (not real)');
      await page.click('button:text-is("Upload and ingest")');
      await page.waitForSelector('[data-upload="finished"]', { timeout: 20_000 });
      const outcomes = await page.$$eval('table.outcomes tbody tr', (rows) =>
        rows.map((r) => [r.querySelector('th')?.textContent, r.getAttribute('data-outcome')]),
      );
      expect(outcomes).toEqual(
        expect.arrayContaining([
          ['synthetic-upload-1.jpg', expect.stringMatching(/stored|already_present/)],
          ['synthetic-batch.zip', 'unpacked'],
          ['synthetic-batch/Branch 215/synthetic-upload-2.jpg', 'stored'],
          ['synthetic-batch/Branch 215/copy-of-1.jpg', expect.stringMatching(/stored|already_present/)],
        ]),
      );
      await screenshot(page, 'workspace-upload-en');
      const after = await db().selectFrom('evidence_items').select('id').execute();
      // Three files, two distinct contents.
      expect(after.length - before.length).toBe(2);
      await ctx.close();
    });

    it('takes files dropped on the drop zone (Arabic)', async () => {
      const ctx = await context('ar');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.documenter);
      await page.goto(`${server.url}/ingest`);
      await page.waitForSelector('.drop-zone');
      const bytes = [...(await syntheticPhoto(8305, 200, 150))];
      const dataTransfer = await page.evaluateHandle((data) => {
        // In the page: the browser's DataTransfer and File (not Node's).
        const page = globalThis as unknown as {
          DataTransfer: new () => { items: { add(f: unknown): void } };
          File: new (parts: unknown[], name: string, o: { type: string }) => unknown;
        };
        const dt = new page.DataTransfer();
        dt.items.add(new page.File([new Uint8Array(data)], 'synthetic-dropped.jpg', { type: 'image/jpeg' }));
        return dt;
      }, bytes);
      await page.dispatchEvent('.drop-zone', 'drop', { dataTransfer });
      await page.waitForSelector('.upload [role="status"]');
      await page.click('.upload button[type="submit"]');
      await page.waitForSelector('[data-upload="finished"]', { timeout: 30_000 });
      expect(
        await page.$$eval('table.outcomes tbody tr', (rows) =>
          rows.map((r) => r.getAttribute('data-outcome')),
        ),
      ).toEqual(['stored']);
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      await screenshot(page, 'workspace-upload-ar');
      await ctx.close();
    });

    it('shows no upload to a reviewer, and the runs screen not at all to an admin', async () => {
      const ctx = await context('en');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.reviewer);
      await page.goto(`${server.url}/ingest`);
      await page.waitForSelector('main h1');
      await page.waitForSelector('text=Runs');
      expect(await page.$$('.drop-zone')).toHaveLength(0);
      await ctx.close();
      await refused(admin, '/ingest');
    });
  });

  describe('branches and units', () => {
    it('adds a unit under an agency and a spelling that a new record then resolves (Arabic)', async () => {
      const ctx = await context('ar');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.documenter);
      await page.click('.staff-nav a[href="/branches"]');
      await page.waitForSelector('[data-unit="agency-political-security"]');
      // The branches sit under their agency.
      await page.waitForSelector('[data-unit="agency-military-intelligence"] [data-unit="branch-215"]');
      await page.fill('input[name="nameAr"]', 'سجن اصطناعي للاختبار');
      await page.fill('input[name="nameEn"]', 'Synthetic Test Prison');
      await page.selectOption('select[name="kind"]', 'prison');
      await page.selectOption(
        'form[aria-labelledby="add-unit"] select[name="parentId"]',
        'agency-political-security',
      );
      await page.click('form[aria-labelledby="add-unit"] button[type="submit"]');
      await page.waitForSelector('form[aria-labelledby="add-unit"] [role="status"] a');
      await page.click('form[aria-labelledby="add-unit"] [role="status"] a');
      await page.waitForSelector('input[name="alias"]');
      await page.fill('input[name="alias"]', 'سجن التجربة');
      await page.click('button:text-is("أضف التهجئة")');
      await page.waitForSelector('.aliases li:has-text("سجن التجربة")');
      const unitId = decodeURIComponent(page.url().split('/branches/')[1] ?? '');
      const api = await apiAs(seeded.users.documenter);
      const source = await api.post<{ id: string }>('/api/sources', {
        name: 'Synthetic unit list',
        kind: 'list',
      });
      const made = await api.post<{ id: string; warnings: unknown[] }>('/api/records', {
        sourceId: source.id,
        kind: 'registry_line',
        fullName: 'سامر اصطناعي',
        arrestingBranch: 'سجن التجربة',
      });
      expect(made.warnings).toEqual([]);
      await page.reload();
      await page.waitForSelector(`a[href="/records/${made.id}"]`);
      expect(await page.textContent('.crumbs')).toContain('إدارة الأمن السياسي');
      await screenshot(page, 'workspace-branch-ar');
      const stored = await db()
        .selectFrom('branches')
        .select('parent_id')
        .where('id', '=', unitId)
        .executeTakeFirstOrThrow();
      expect(stored.parent_id).toBe('agency-political-security');
      await ctx.close();
    });

    it('shows what names a branch, and no editing to a reviewer (English)', async () => {
      const ctx = await context('en');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.reviewer);
      await page.goto(`${server.url}/branches`);
      await page.waitForSelector('[data-unit="branch-215"]');
      expect(await page.$$('form[aria-labelledby="add-unit"]')).toHaveLength(0);
      await screenshot(page, 'workspace-branches-en');
      await page.click('[data-unit="branch-215"] > a');
      await page.waitForSelector(`a[href="/records/${seeded.latinRecordId}"]`);
      expect(await page.$$('input[name="alias"]')).toHaveLength(0);
      expect(await page.textContent('main')).toContain('2 records, 2 events');
      await screenshot(page, 'workspace-branch-215-en');
      await ctx.close();
    });
  });

  describe('records', () => {
    it('enters a record by hand, with the field the server refuses named beside it, then adds a claim (English)', async () => {
      const ctx = await context('en');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.documenter);
      await page.click('.staff-nav a[href="/records/new"]');
      await page.waitForSelector('select[name="sourceId"] option:nth-child(2)', { state: 'attached' });
      await page.selectOption('select[name="sourceId"]', { index: 1 });
      await page.fill('input[name="fullName"]', 'Synthetic Entered Person');
      await page.fill('input[name="birthDate"]', 'the spring of 80');
      await page.fill('input[name="arrestingBranch"]', 'Air Force Intelligence');
      await page.click('button:text-is("Save the record")');
      await page.waitForSelector('input[name="birthDate"][aria-invalid="true"]');
      expect(await page.textContent('#birthDate-error')).toContain('is not a date');
      await screenshot(page, 'workspace-record-new-error-en');
      await page.fill('input[name="birthDate"]', '1980-02');
      await page.click('button:text-is("Save the record")');
      await page.waitForURL(/\/records\/[0-9a-f-]+$/);
      await page.waitForSelector('[data-original]');
      expect(await page.textContent('[data-original]')).toContain('1980-02');
      expect(await page.textContent('[data-normalised]')).toContain('Air Force Intelligence Directorate');
      await page.selectOption('select[name="kind"]', 'seen_in_detention');
      await page.fill('input[name="statement"]', 'Synthetic: seen in 2014');
      await page.click('button:text-is("Add the claim")');
      await page.waitForSelector('[data-claims] li');
      await screenshot(page, 'workspace-record-en');
      const id = page.url().split('/records/')[1] as string;
      const claims = await db().selectFrom('assertions').select('kind').where('record_id', '=', id).execute();
      expect(claims).toEqual([{ kind: 'seen_in_detention' }]);
      await ctx.close();
    });

    it('shows a record as written and replaces it by a corrected one linked where it was (Arabic)', async () => {
      const ctx = await context('ar');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.documenter);
      await page.goto(`${server.url}/records/${seeded.arabicRecordId}`);
      await page.waitForSelector('[data-original]');
      expect(await page.textContent('[data-original]')).toContain('محمد أحمد الحلبي');
      expect(await page.getAttribute('[data-link]', 'data-link')).toBe('manual');
      await screenshot(page, 'workspace-record-ar');
      await page.click(`a[href="/records/new?supersedes=${seeded.arabicRecordId}"]`);
      await expect.poll(() => page.inputValue('input[name="fullName"]')).toBe('محمد أحمد الحلبي');
      await page.fill('input[name="arrestDate"]', '2013-05-22');
      await page.fill('textarea[name="reason"]', 'اصطناعي: تاريخ الاعتقال صُحّح من المصدر');
      await page.click('form button[type="submit"]');
      await page.waitForURL((url) => !url.pathname.endsWith('/new') && url.pathname.startsWith('/records/'));
      const id = page.url().split('/records/')[1] as string;
      const link = await db()
        .selectFrom('record_links')
        .select(['person_id', 'note'])
        .where('record_id', '=', id)
        .where('unlinked_at', 'is', null)
        .executeTakeFirstOrThrow();
      expect(link.person_id).toBe(seeded.personId);
      expect(link.note).toContain(`supersedes record ${seeded.arabicRecordId}`);
      // The old record is unchanged.
      const old = await db()
        .selectFrom('records')
        .select('arrest_date')
        .where('id', '=', seeded.arabicRecordId)
        .executeTakeFirstOrThrow();
      expect(old.arrest_date).toBe('2013-05-21');
      await ctx.close();
    });

    it('is refused to an admin', async () => {
      await refused(admin, '/records/new');
    });
  });

  describe('family reports', () => {
    let reportId: string;
    beforeAll(async () => {
      const api = await apiAs(seeded.users.liaison);
      const consent = {
        internalUse: true,
        partnerNgos: true,
        nationalCommission: false,
        unIimp: false,
        icmpIcrc: false,
        criminalProceedings: false,
        contactWithResults: true,
        photoComparison: true,
      };
      const filed = await api.post<{ id: string }>('/api/reports', {
        person: { fullName: 'رامي سليم اصطناعي', sex: 'male', birthDate: '1992', governorate: 'حمص' },
        arrest: { date: '2014-03', branch: 'فرع أمن الدولة' },
        anteMortem: {},
        consent,
        contact: { name: 'أم رامي (اصطناعية)', phone: '+963 944 000 321', relation: 'أم' },
        language: 'ar',
      });
      reportId = filed.id;
    });

    it('works a report from the worklist: assign, note, consent, contact with a reason (Arabic)', async () => {
      const ctx = await context('ar');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.liaison);
      await page.click('.staff-nav a[href="/reports"]');
      await page.waitForSelector(`tr[data-report="${reportId}"]`);
      await page.click(`tr[data-report="${reportId}"] a`);
      await page.waitForSelector('[data-filed]');
      expect(await page.textContent('[data-filed]')).toContain('رامي سليم اصطناعي');
      await page.click('button:text-is("أسنده إليّ")');
      await page.waitForSelector('button:text-is("ألغِ الإسناد")');
      await page.fill('textarea[name="note"]', 'اصطناعي: اتصال أول مع العائلة');
      await page.click('button:text-is("احفظ الملاحظة")');
      await page.waitForSelector('[data-notes] li');
      await page.click('tr[data-purpose="partner_ngos"] button');
      await page.waitForSelector('tr[data-purpose="partner_ngos"][data-granted="false"]');
      const reads = () =>
        db()
          .selectFrom('audit_log')
          .select('details')
          .where('action', '=', 'read_contact')
          .where('subject_id', '=', reportId)
          .execute();
      // Opening the report did not open the contact.
      expect(await reads()).toEqual([]);
      await page.click('button:text-is("اعرض بيانات التواصل")');
      await page.fill('textarea[name="contactReason"]', 'اصطناعي: لإبلاغ العائلة بموعد');
      await page.click('form button[type="submit"]:text-is("اعرض")');
      await page.waitForSelector('[data-contact]');
      expect(await page.textContent('[data-contact]')).toContain('+963 944 000 321');
      expect((await reads()).map((r) => JSON.parse(r.details ?? '{}').reason)).toEqual([
        'اصطناعي: لإبلاغ العائلة بموعد',
      ]);
      expect(await page.$$('[data-candidates]')).toHaveLength(1);
      await screenshot(page, 'workspace-report-ar');
      const stored = await db()
        .selectFrom('family_reports')
        .select('assigned_to')
        .where('id', '=', reportId)
        .executeTakeFirstOrThrow();
      expect(stored.assigned_to).not.toBeNull();
      await page.click('.staff-nav a[href="/reports"]');
      await page.click('[role="tab"] >> nth=1');
      await page.waitForURL(/view=mine/);
      await page.waitForSelector(`tr[data-report="${reportId}"]`);
      await ctx.close();
    });

    it('filters the worklist by governorate (English)', async () => {
      const ctx = await context('en');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.liaison);
      await page.goto(`${server.url}/reports?view=all`);
      await page.waitForSelector(`tr[data-report="${reportId}"]`);
      await page.selectOption('select[name="governorate"]', 'aleppo');
      await page.waitForURL(/governorate=aleppo/);
      await page.waitForSelector('main [role="status"]:text-is("No reports here.")');
      await page.selectOption('select[name="governorate"]', 'homs');
      await page.waitForSelector(`tr[data-report="${reportId}"]`);
      await screenshot(page, 'workspace-reports-en');
      await ctx.close();
    });

    it('is refused to a reviewer', async () => {
      await refused(seeded.users.reviewer, '/reports');
    });
  });

  describe('persons', () => {
    it('links a record found in place after a preview of its waterfall, then splits it off again (English)', async () => {
      const ctx = await context('en');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.documenter);
      await page.goto(`${server.url}/persons/${seeded.personId}`);
      await page.waitForSelector('.record-card');
      const before = await page.$$eval('.record-card', (c) => c.length);
      await page.click('[data-person-tools] > summary');
      await page.fill('input[name="linkQuery"]', 'خالد حداد');
      await page.click('#link-title ~ search button[type="submit"]');
      await page.waitForSelector('[data-link-hits] li');
      await page.click('[data-link-hits] li button >> nth=0');
      await page.waitForSelector('[data-link-form] .waterfall-list tbody tr');
      const fields = await page.$$eval('[data-link-form] .waterfall-list tbody th', (th) =>
        th.map((x) => x.textContent),
      );
      expect(fields).toContain('Prior');
      expect(fields).toContain('Total');
      await screenshot(page, 'workspace-person-link-en');
      await page.fill('textarea[name="linkReason"]', 'synthetic: same family report');
      await page.click('button:text-is("Link the record")');
      await expect.poll(() => page.$$eval('.record-card', (c) => c.length)).toBe(before + 1);

      const khaled = await db()
        .selectFrom('record_links')
        .select(['record_id', 'note'])
        .where('person_id', '=', seeded.personId)
        .where('unlinked_at', 'is', null)
        .where('record_id', 'not in', [seeded.arabicRecordId, seeded.latinRecordId])
        .execute();
      // The record linked here (and the corrected record of the records test, if it ran first).
      const linked = khaled.find((k) => k.note === 'synthetic: same family report');
      expect(linked).toBeDefined();
      if ((await page.getAttribute('[data-person-tools]', 'open')) === null)
        await page.click('[data-person-tools] > summary');
      const boxes = page.locator('[data-split-form] input[type="checkbox"]');
      const names = await page.$$eval('[data-split-form] label.check > bdi', (b) =>
        b.map((x) => x.textContent),
      );
      await boxes.nth(names.findIndex((n) => n?.includes('خالد'))).check();
      await page.waitForSelector('[data-split-form] .waterfall-list');
      await page.fill('textarea[name="splitReason"]', 'synthetic: a different Khaled after all');
      await page.click('button:text-is("Split")');
      await page.waitForSelector('main [role="status"] a');
      const after = await db()
        .selectFrom('record_links')
        .select('person_id')
        .where('record_id', '=', linked?.record_id as string)
        .where('unlinked_at', 'is', null)
        .executeTakeFirstOrThrow();
      expect(after.person_id).not.toBe(seeded.personId);
      await ctx.close();
    });

    it('refuses to merge a known relative until forced with a reason, and says why (Arabic)', async () => {
      const api = await apiAs(seeded.users.documenter);
      const [khaledLatin] = seeded.khaled;
      const made = await api.post<{ id: string }>('/api/persons', {
        recordIds: [khaledLatin],
        note: 'synthetic',
      });
      await api.post('/api/relations', {
        personA: seeded.personId,
        personB: made.id,
        type: 'sibling',
        certainty: 'likely',
        note: 'synthetic: brothers',
      });
      const ctx = await context('ar');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.reviewer);
      await page.goto(`${server.url}/persons/${seeded.personId}`);
      await page.click('[data-person-tools] > summary');
      await page.fill('input[name="otherPerson"]', `${server.url}/persons/${made.id}`);
      await page.click('#merge-title ~ form button[type="submit"]');
      await page.waitForSelector('[data-merge-form] .waterfall-list');
      await page.fill('textarea[name="mergeReason"]', 'اصطناعي: القرابة سُجّلت خطأً');
      await page.click('[data-merge-form] button[type="submit"]');
      await page.waitForSelector('[data-relatives-guard]');
      expect(await page.textContent('[data-relatives-guard]')).toContain('قريبان');
      await screenshot(page, 'workspace-person-guard-ar');
      await page.check('[data-relatives-guard] input[type="checkbox"]');
      await page.click('[data-merge-form] button[type="submit"]');
      await page.waitForSelector('[data-merge-form]', { state: 'detached' });
      const link = await db()
        .selectFrom('record_links')
        .select(['person_id', 'note'])
        .where('record_id', '=', khaledLatin)
        .where('unlinked_at', 'is', null)
        .executeTakeFirstOrThrow();
      expect(link.person_id).toBe(seeded.personId);
      expect(link.note).toContain(`merged from person ${made.id}`);
      await ctx.close();
    });

    it('offers no linking to a liaison and no person page to an admin', async () => {
      const ctx = await context('en');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.liaison);
      await page.goto(`${server.url}/persons/${seeded.personId}`);
      await page.waitForSelector('.record-card');
      expect(await page.$$('[data-person-tools]')).toHaveLength(0);
      await ctx.close();
      await refused(admin, `/persons/${seeded.personId}`);
    });
  });

  describe('explanations in the reader’s language', () => {
    it('says why a search hit matched in Arabic on the Arabic interface, and in English on the English one', async () => {
      const ctx = await context('ar');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.reviewer);
      await page.goto(`${server.url}/search?q=${encodeURIComponent('محمد الحلبي')}`);
      await page.waitForSelector('[data-reasons] .chip');
      const arabic = await page.$$eval('[data-reasons] .chip', (c) => c.map((x) => x.textContent ?? ''));
      expect(arabic.some((c) => c.includes('«محمد»') && c.includes('الاسم الأول'))).toBe(true);
      expect(arabic.join(' ')).not.toMatch(/first name|matched/);
      await screenshot(page, 'workspace-search-why-ar');
      await page.selectOption('.language-switch select', 'en');
      await page.waitForSelector('html[dir="ltr"]', { state: 'attached' });
      const english = await page.$$eval('[data-reasons] .chip', (c) => c.map((x) => x.textContent ?? ''));
      expect(english.some((c) => c.includes('“محمد”') && c.includes('First name'))).toBe(true);
      await ctx.close();
    });

    it('names every bar of the dashboard’s charts by name (Arabic)', async () => {
      // A record in every governorate: fourteen names on one axis, the case where a chart skipped every other one.
      const documenter = await apiAs(seeded.users.documenter);
      const governorates = await documenter.get<{ items: { id: string; nameEn: string }[] }>(
        '/api/governorates',
      );
      const source = await documenter.post<{ id: string }>('/api/sources', {
        name: 'Synthetic governorates',
        kind: 'list',
      });
      await documenter.post('/api/records/bulk', {
        items: governorates.items.map((g, i) => ({
          sourceId: source.id,
          kind: 'registry_line',
          fullName: `Synthetic Person ${i}`,
          governorate: g.nameEn,
        })),
      });
      const stats = await documenter.get<{ byGovernorate: unknown[]; byBranch: unknown[] }>('/api/stats');
      expect(stats.byGovernorate.length).toBeGreaterThanOrEqual(14);
      const ctx = await context('ar');
      const page = await ctx.newPage();
      await signIn(page, seeded.users.reviewer);
      await page.goto(`${server.url}/dashboard`);
      await page.waitForSelector('.chart-card svg');
      const ticks = await page.$$eval('.chart-card', (cards) =>
        cards.map((c) => c.querySelectorAll('.recharts-yAxis .recharts-cartesian-axis-tick').length),
      );
      expect(ticks[0]).toBe(stats.byGovernorate.length);
      expect(ticks[2]).toBe(stats.byBranch.length);
      await screenshot(page, 'workspace-dashboard-ar');
      await ctx.close();
    });
  });

  describe('accessibility of the new screens', () => {
    for (const lang of ['ar', 'en'] as const) {
      it(`has no axe violations (${lang})`, async () => {
        const problems: string[] = [];
        const visit = async (user: { username: string; password: string }, screens: [string, string][]) => {
          const ctx = await context(lang, { bypassCSP: true });
          const page = await ctx.newPage();
          await signIn(page, user);
          for (const [url, ready] of screens) {
            await page.goto(`${server.url}${url}`);
            await page.waitForSelector(ready);
            await page.waitForLoadState('networkidle');
            for (const v of await axeViolations(page)) problems.push(`${url}: ${v}`);
          }
          await ctx.close();
        };
        await visit(admin, [['/users', 'table.users']]);
        const report = await db().selectFrom('family_reports').select('id').executeTakeFirstOrThrow();
        await visit(seeded.users.liaison, [
          ['/reports?view=all', 'table.reports'],
          [`/reports/${report.id}`, '[data-candidates]'],
        ]);
        await visit(seeded.users.documenter, [
          ['/evidence', '.evidence-grid li'],
          [`/evidence/${seeded.evidenceId}`, '.label-form'],
          ['/ingest', '.drop-zone'],
          ['/branches', '[data-unit="branch-215"]'],
          ['/branches/branch-215', '.aliases'],
          ['/records/new', 'select[name="sourceId"]'],
          [`/records/${seeded.latinRecordId}`, '[data-original]'],
          [`/persons/${seeded.personId}`, '[data-person-tools]'],
        ]);
        expect(problems).toEqual([]);
      }, 180_000);
    }
  });
});
