import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newSecret, secretDigest } from '../src/access/secrets.js';
import { caseAlphabet, newCaseReference, newCaseSecret } from '../src/domain/case-codes.js';
import { newId } from '../src/ids.js';
import { intakeLimits } from '../src/services/intake/intake.js';
import { hiddenFrom } from '../src/services/registry/consent-filter.js';
import { ReportRepository } from '../src/store/repositories/reports.js';
import type { Db } from '../src/store/store.js';

const withdrawnRecordIds = (db: Db) => new ReportRepository(db).recordsWithdrawnFrom('internal_use');
const hiddenFromRole = (db: Db, role: string, recordId: string) =>
  hiddenFrom(
    db,
    {
      actor: { userId: 'u', username: 'u', role, via: 'session', credentialId: 's' },
      ip: null,
      channel: 'http',
    },
    [{ id: recordId, kind: 'family_report' }],
  );

import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/** Synthetic report bodies: invented names and numbers, no real person. */
function reportBody(overrides: Record<string, unknown> = {}) {
  return {
    person: {
      fullName: 'محمد أحمد خالد الحلبي',
      motherName: 'فاطمة',
      sex: 'male',
      birthDate: '1985-03',
      governorate: 'حلب',
      placeOfOrigin: 'الباب',
    },
    arrest: { date: '2013-06-14', place: 'حاجز على طريق المطار', branch: 'فرع فلسطين' },
    anteMortem: {
      heightCm: 178,
      hair: 'أسود، قصير',
      handedness: 'right',
      glasses: 'unknown',
      skinMarkings: [{ kind: 'scar', location: 'الساعد الأيسر', description: 'ندبة طولها ٥ سم' }],
      dentalHistory: 'تاج ذهبي على ضرس علوي',
    },
    consent: {
      internalUse: true,
      partnerNgos: false,
      nationalCommission: true,
      unIimp: true,
      icmpIcrc: true,
      criminalProceedings: false,
      contactWithResults: true,
      photoComparison: true,
    },
    contact: { name: 'سلمى الحلبي', phone: '+963 944 000 123', email: 'salma@example.org', relation: 'أخت' },
    language: 'ar',
    ...overrides,
  };
}

const alphabet = `[${caseAlphabet}]`;
let addressCounter = 0;
/** A new client address per call, so per-address limits do not mix tests. */
function freshAddress(): string {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

describeEachDialect('family intake', (store, dialect) => {
  let api: ApiHarness;
  let liaison: ApiClient;

  beforeAll(async () => {
    api = await createApi(store(), { ATHAR_CONTACTS_KEY: randomBytes(32).toString('base64') });
    // One fixed instant: rate-limit windows cannot roll over in the middle of a test.
    const fixed = Date.now();
    Object.assign(api.ctx, { clock: () => fixed });
    liaison = await api.as('liaison');
  });
  afterAll(async () => api.close());

  async function file(body: unknown = reportBody(), remoteAddress = freshAddress()) {
    return api.anonymous.inject({
      method: 'POST',
      url: '/api/public/reports',
      payload: body as object,
      remoteAddress,
    });
  }

  async function status(reference: string, secret: string, remoteAddress = freshAddress()) {
    const started = performance.now();
    const res = await api.anonymous.inject({
      method: 'POST',
      url: '/api/public/reports/status',
      payload: { reference, secret },
      remoteAddress,
    });
    return Object.assign(res, { ms: performance.now() - started });
  }

  async function reportIdOf(reference: string): Promise<string> {
    const row = await store()
      .db.selectFrom('family_reports')
      .select('id')
      .where('reference', '=', reference)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('files a report with Arabic names and answers a reference and a secret, once', async () => {
    const res = await file();
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['reference', 'secret']);
    expect(body.reference).toMatch(new RegExp(`^ATH-${alphabet}{4}-${alphabet}{4}$`));
    expect(body.secret).toMatch(new RegExp(`^${alphabet}{4}(-${alphabet}{4}){4}$`));
    expect(res.headers['cache-control']).toBe('no-store');

    const db = store().db;
    const report = await db
      .selectFrom('family_reports')
      .selectAll()
      .where('reference', '=', body.reference)
      .executeTakeFirstOrThrow();
    expect(report).toMatchObject({ status: 'received', channel: 'public', filed_by: null, language: 'ar' });
    expect(report.secret_hash).toBe(secretDigest(body.secret));
    expect(JSON.stringify(report)).not.toContain(body.secret);

    const record = await db
      .selectFrom('records')
      .selectAll()
      .where('id', '=', report.record_id)
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({
      kind: 'family_report',
      full_name: 'محمد أحمد خالد الحلبي',
      first_name: 'محمد',
      father_name: 'أحمد',
      grandfather_name: 'خالد',
      family_name: 'الحلبي',
      mother_name: 'فاطمة',
      name_script: 'ar',
      birth_date: '1985-03',
      birth_year: 1985,
      governorate_id: 'aleppo',
      arresting_branch_id: 'branch-235',
      arrest_date: '2013-06-14',
    });
    expect(record.name_normalized).toBeTruthy();
    const source = await db
      .selectFrom('sources')
      .selectAll()
      .where('id', '=', record.source_id)
      .executeTakeFirstOrThrow();
    expect(source.kind).toBe('family');
    // Sources are listed to every staff role: the name does not carry the report's id (issue 21).
    expect(source.name).toMatch(/^family report [0-9a-f]{12}$/);
    expect(JSON.stringify(source)).not.toContain(report.id);
    expect(JSON.stringify(source)).not.toContain(report.id.replaceAll('-', '').slice(-12));

    const consents = await db
      .selectFrom('report_consents')
      .selectAll()
      .where('report_id', '=', report.id)
      .execute();
    expect(consents).toHaveLength(8);
    expect(consents.find((c) => c.purpose === 'partner_ngos')?.granted).toBe(0);
    expect(consents.find((c) => c.purpose === 'internal_use')?.granted).toBe(1);

    const profile = await db
      .selectFrom('antemortem_profiles')
      .select('profile')
      .where('report_id', '=', report.id)
      .executeTakeFirstOrThrow();
    const am = JSON.parse(profile.profile);
    expect(am.heightCm).toBe(178);
    expect(am.glasses).toBe('unknown');
    expect(am.weightKg).toBe('not_asked');
    expect(am.skinMarkings[0].kind).toBe('scar');

    // Nothing of the contact outside its sealed row.
    expect(record.original).not.toContain('944');
    expect(record.original).not.toContain('سلمى');
  });

  it('answers the status from the right reference and secret, and only coarse states', async () => {
    const { reference, secret } = (await file()).json();
    const right = await status(reference, secret);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ status: 'received' });
    // Typed loosely: lower case, spaces instead of dashes.
    const loose = await status(
      reference.toLowerCase().replace(/-/g, ' '),
      secret.toLowerCase().replace(/-/g, ''),
    );
    expect(loose.json()).toEqual({ status: 'received' });

    const id = await reportIdOf(reference);
    for (const [internal, shown] of [
      ['under_review', 'under_review'],
      ['contact_liaison', 'contact_liaison'],
      ['closed', 'contact_liaison'],
    ] as const) {
      expect((await liaison.post(`/api/reports/${id}/status`, { status: internal })).statusCode).toBe(200);
      const res = await status(reference, secret);
      expect(res.json()).toEqual({ status: shown });
      expect(res.body).not.toContain('محمد');
    }
  });

  it('answers a wrong secret and a wrong reference with the same 404 body', async () => {
    const { reference, secret } = (await file()).json();
    const wrongSecret = await status(reference, newCaseSecret());
    const wrongReference = await status(newCaseReference(), secret);
    expect(wrongSecret.statusCode).toBe(404);
    expect(wrongReference.statusCode).toBe(404);
    expect(wrongSecret.body).toBe(wrongReference.body);
    expect(wrongSecret.headers['content-type']).toBe(wrongReference.headers['content-type']);
    expect(wrongSecret.json().code).toBe('not_found');
  });

  it('cannot be enumerated: random references and secrets meet only 404 or 429, alike in body and time', async () => {
    const filed = [];
    for (let i = 0; i < 6; i++) filed.push((await file()).json() as { reference: string; secret: string });
    const notFound = (await status(newCaseReference(), newCaseSecret())).body;
    const wrongRef: number[] = [];
    const wrongSecret: number[] = [];
    const bodies = new Set<string>();
    // Interleaved so that drift in machine load falls on both sides alike.
    for (let round = 0; round < 8; round++) {
      for (const known of filed) {
        const a = await status(newCaseReference(), newCaseSecret());
        const b = await status(known.reference, newCaseSecret());
        for (const res of [a, b]) {
          expect([404, 429]).toContain(res.statusCode);
          bodies.add(res.statusCode === 404 ? res.body : 'rate limited');
        }
        if (a.statusCode === 404) wrongRef.push(a.ms);
        if (b.statusCode === 404) wrongSecret.push(b.ms);
      }
    }
    // Garbage in every shape the schema lets through: still nothing but 404.
    for (const reference of [
      '',
      'ATH',
      'ATH-0000-0000',
      "' or 1=1 --",
      'x'.repeat(64),
      filed[0]?.reference.slice(0, 7),
    ]) {
      if (!reference) continue;
      const res = await status(reference, 'A'.repeat(20));
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(notFound);
    }
    expect(bodies).toEqual(new Set([notFound]));
    expect(wrongRef.length).toBeGreaterThan(30);
    expect(wrongSecret.length).toBeGreaterThan(30);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const [a, b] = [mean(wrongRef), mean(wrongSecret)];
    console.info(`status lookup, mean ms: wrong reference ${a.toFixed(2)}, wrong secret ${b.toFixed(2)}`);
    // Loose: the same work is done on both paths; only noise separates them.
    expect(Math.abs(a - b)).toBeLessThan(Math.max(3, 0.5 * Math.max(a, b)));

    // Nothing lists reports or reads one by its reference: a known reference in a URL answers as an invented one.
    const known = filed[0]?.reference as string;
    const invented = newCaseReference();
    for (const url of [
      '/api/public/reports',
      '/api/public/reports/REF',
      '/api/public/reports/status?reference=REF',
    ]) {
      const hit = await api.anonymous.get(url.replace('REF', known));
      const miss = await api.anonymous.get(url.replace('REF', invented));
      expect(hit.statusCode).toBe(404);
      expect(hit.body.replaceAll(known, 'REF')).toBe(miss.body.replaceAll(invented, 'REF'));
    }
    expect((await api.anonymous.get('/api/reports')).statusCode).toBe(401);
  });

  it('limits lookups per client address', async () => {
    const address = freshAddress();
    const codes: number[] = [];
    for (let i = 0; i <= intakeLimits.statusPerAddress.max; i++) {
      codes.push((await status(newCaseReference(), newCaseSecret(), address)).statusCode);
    }
    expect(codes.slice(0, -1).every((c) => c === 404)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    expect((await status(newCaseReference(), newCaseSecret(), address)).json().code).toBe('rate_limited');
    expect((await status(newCaseReference(), newCaseSecret(), freshAddress())).statusCode).toBe(404);
  });

  it('limits lookups per reference from one address, whether or not it exists, without blocking the family', async () => {
    const { reference, secret } = (await file()).json();
    const invented = newCaseReference();
    const attacker = freshAddress();
    for (let i = 0; i < intakeLimits.statusPerReference.max; i++) {
      expect((await status(reference, newCaseSecret(), attacker)).statusCode).toBe(404);
      expect((await status(invented, newCaseSecret(), attacker)).statusCode).toBe(404);
    }
    const real = await status(reference, secret, attacker);
    const fake = await status(invented, secret, attacker);
    expect(real.statusCode).toBe(429);
    expect(fake.statusCode).toBe(429);
    expect(real.body).toBe(fake.body);
    // Whoever knows the reference and guesses from one address cannot lock the family out (issue 21).
    const family = await status(reference, secret, freshAddress());
    expect(family.statusCode).toBe(200);
  });

  it('writes no row for a refused lookup: the counters stand where the refusal found them', async () => {
    const address = freshAddress();
    for (let i = 0; i < intakeLimits.statusPerAddress.max; i++) {
      await status(newCaseReference(), newCaseSecret(), address);
    }
    const counters = () =>
      store().db.selectFrom('rate_limits').select(['key', 'count', 'bucket']).orderBy('key').execute();
    const before = await counters();
    for (let i = 0; i < 5; i++) {
      expect((await status(newCaseReference(), newCaseSecret(), address)).statusCode).toBe(429);
    }
    expect(await counters()).toEqual(before);
  });

  it('limits filings per client address', async () => {
    const address = freshAddress();
    for (let i = 0; i < intakeLimits.filingPerAddress.max; i++) {
      expect((await file(reportBody({ contact: {} }), address)).statusCode).toBe(201);
    }
    expect((await file(reportBody(), address)).statusCode).toBe(429);
  });

  it('keeps contact details encrypted at rest', async () => {
    const phone = '+963 955 271 846';
    const res = await file(reportBody({ contact: { name: 'رنا الشامي', phone, relation: 'زوجة' } }));
    const id = await reportIdOf(res.json().reference);
    const row = await store()
      .db.selectFrom('contacts')
      .selectAll()
      .where('report_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.nonce.length).toBe(12);
    expect(row.key_id).toMatch(/^[0-9a-f]{16}$/);
    const bytes = Buffer.from(row.ciphertext);
    expect(bytes.includes(Buffer.from(phone))).toBe(false);
    expect(bytes.includes(Buffer.from('955 271 846'))).toBe(false);
    expect(bytes.includes(Buffer.from('رنا'))).toBe(false);
    for (const table of [
      'family_reports',
      'records',
      'report_consents',
      'antemortem_profiles',
      'audit_log',
    ] as const) {
      const rows = await store().db.selectFrom(table).selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain('955 271 846');
    }
    if (dialect === 'sqlite') {
      const file = api.ctx.store.location;
      for (const part of [file, `${file}-wal`]) {
        if (!fs.existsSync(part)) continue;
        const disk = fs.readFileSync(part);
        expect(disk.includes(Buffer.from('955 271 846'))).toBe(false);
        expect(disk.includes(Buffer.from('رنا الشامي'))).toBe(false);
      }
    }
  });

  it('shows the contact only with contacts:read, and audits each such read', async () => {
    const res = await file(reportBody({ contact: { name: 'هدى', phone: '+963 933 111 222' } }));
    const id = await reportIdOf(res.json().reference);

    const read = await liaison.get(`/api/reports/${id}`);
    expect(read.statusCode).toBe(200);
    const view = read.json();
    expect(view.contact).toEqual({ name: 'هدى', phone: '+963 933 111 222' });
    expect(view.record.fullName).toBe('محمد أحمد خالد الحلبي');
    // Medical history needs forensic:read of its own (issue 21): a liaison files it but does not read it back.
    expect(view).not.toHaveProperty('anteMortem');
    expect(read.body).not.toContain('تاج ذهبي');
    expect(view).not.toHaveProperty('secretHash');
    const audits = await store()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('subject_id', '=', id)
      .where('actor_id', '=', liaison.user?.id ?? '')
      .execute();
    expect(audits.map((a) => a.action).sort()).toEqual(['read_contact', 'read_report']);
    expect(JSON.stringify(audits)).not.toContain('933 111 222');

    // A liaison's script token scoped without contacts:read: the report, never the contact.
    const token = newSecret();
    await store()
      .db.insertInto('api_tokens')
      .values({
        id: newId(),
        user_id: liaison.user?.id ?? '',
        name: 'reports only (synthetic)',
        token_hash: secretDigest(token),
        scopes: JSON.stringify(['reports:read']),
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    const scoped = await api.app.inject({
      method: 'GET',
      url: `/api/reports/${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(scoped.statusCode).toBe(200);
    expect(scoped.json()).not.toHaveProperty('contact');
    expect(scoped.body).not.toContain('933 111 222');
    const contactReads = await store()
      .db.selectFrom('audit_log')
      .select('id')
      .where('subject_id', '=', id)
      .where('action', '=', 'read_contact')
      .execute();
    expect(contactReads).toHaveLength(1);

    for (const role of ['reviewer', 'investigator', 'documenter', 'admin'] as const) {
      expect((await (await api.as(role)).get(`/api/reports/${id}`)).statusCode).toBe(403);
    }

    const list = await liaison.get('/api/reports?limit=200');
    expect(list.statusCode).toBe(200);
    const item = list.json().items.find((r: { id: string }) => r.id === id);
    expect(item).toMatchObject({
      id,
      status: 'received',
      channel: 'public',
      fullName: 'محمد أحمد خالد الحلبي',
    });
    expect(item).not.toHaveProperty('contact');
    expect(list.body).not.toContain('933 111 222');
  });

  it('keeps consent withdrawals with their time and author, and hides withdrawn records from all but liaisons', async () => {
    const res = await file();
    const id = await reportIdOf(res.json().reference);
    const recordId = (await liaison.get(`/api/reports/${id}`)).json().record.id as string;
    expect(await withdrawnRecordIds(store().db)).not.toContain(recordId);

    const withdrawn = await liaison.post(`/api/reports/${id}/consent`, {
      purpose: 'internal_use',
      granted: false,
    });
    expect(withdrawn.statusCode).toBe(200);
    const body = withdrawn.json();
    expect(body.consent.internal_use).toBe(false);
    expect(body.history).toHaveLength(9);
    const last = body.history.at(-1);
    expect(last).toMatchObject({ purpose: 'internal_use', granted: false, recordedBy: liaison.user?.id });
    expect(last.recordedAt).toBeTruthy();
    expect(body.history.filter((c: { purpose: string }) => c.purpose === 'internal_use')[0].granted).toBe(
      true,
    );

    expect(await withdrawnRecordIds(store().db)).toContain(recordId);
    expect(await hiddenFromRole(store().db, 'reviewer', recordId)).toContain(recordId);
    expect(await hiddenFromRole(store().db, 'liaison', recordId)).not.toContain(recordId);
    // The registry's reads obey it: the record is not there for an investigator, by id or by name search.
    const reader = await api.as('investigator');
    expect((await reader.get(`/api/records/${recordId}`)).statusCode).toBe(404);
    expect((await liaison.get(`/api/records/${recordId}`)).statusCode).toBe(200);
    const found = async (client: typeof reader) =>
      (await client.post('/api/records/search', { q: 'محمد أحمد خالد الحلبي', limit: 100 }))
        .json()
        .items.map((r: { id: string }) => r.id);
    expect(await found(reader)).not.toContain(recordId);
    expect(await found(liaison)).toContain(recordId);

    const again = await liaison.post(`/api/reports/${id}/consent`, {
      purpose: 'internal_use',
      granted: true,
    });
    expect(again.json().history).toHaveLength(10);
    expect(again.json().consent.internal_use).toBe(true);
    expect(await withdrawnRecordIds(store().db)).not.toContain(recordId);
    expect((await reader.get(`/api/records/${recordId}`)).statusCode).toBe(200);

    // Forensic comparison follows the same rule: a reviewer reads the profile only while internal use holds.
    const reviewer = await api.as('reviewer');
    const am = await reviewer.get(`/api/reports/${id}/antemortem`);
    expect(am.statusCode).toBe(200);
    expect(am.json()).toMatchObject({
      reportId: id,
      recordId,
      profile: { heightCm: 178, weightKg: 'not_asked' },
    });
    await liaison.post(`/api/reports/${id}/consent`, { purpose: 'internal_use', granted: false });
    expect((await reviewer.get(`/api/reports/${id}/antemortem`)).statusCode).toBe(404);
    await liaison.post(`/api/reports/${id}/consent`, { purpose: 'internal_use', granted: true });
    expect((await reviewer.get(`/api/reports/${id}/antemortem`)).statusCode).toBe(200);
    expect((await liaison.get(`/api/reports/${id}/antemortem`)).statusCode).toBe(403);

    // A family that never granted internal use is withheld too.
    const declined = await file(reportBody({ consent: { internalUse: false } }));
    const declinedId = await reportIdOf(declined.json().reference);
    const declinedRecord = (await liaison.get(`/api/reports/${declinedId}`)).json().record.id;
    expect(await withdrawnRecordIds(store().db)).toContain(declinedRecord);

    const rows = await store()
      .db.selectFrom('report_consents')
      .selectAll()
      .where('report_id', '=', id)
      .execute();
    expect(rows).toHaveLength(12);
    const audit = await store()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('subject_id', '=', id)
      .where('action', '=', 'report_consent')
      .execute();
    expect(audit).toHaveLength(4);
  });

  it('lets a liaison file on behalf of a family, who can then look the status up', async () => {
    const res = await liaison.post(
      '/api/reports',
      reportBody({ language: 'en', person: { fullName: 'Omar Khaled Haddad' } }),
    );
    expect(res.statusCode).toBe(201);
    const { id, reference, secret } = res.json();
    const view = (await liaison.get(`/api/reports/${id}`)).json();
    expect(view).toMatchObject({ channel: 'liaison', filedBy: liaison.user?.id, language: 'en', reference });
    expect(view.record).toMatchObject({ firstName: 'Omar', familyName: 'Haddad', script: 'latn' });
    expect((await status(reference, secret)).json()).toEqual({ status: 'received' });
    const reviewer = await api.as('reviewer');
    expect((await reviewer.post('/api/reports', reportBody())).statusCode).toBe(403);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await api.anonymous.get('/openapi.json')).json();
    expect(doc.paths['/api/public/reports'].post.requestBody).toBeTruthy();
    expect(doc.paths['/api/public/reports/status'].post.summary).toMatch(/coarse status/);
    for (const path of ['/api/reports', '/api/reports/{id}', '/api/reports/{id}/consent']) {
      expect(doc.paths[path], path).toBeTruthy();
    }
  });

  it('names the field in validation errors, and refuses oversized bodies', async () => {
    const cases: [unknown, string][] = [
      [reportBody({ person: { motherName: 'فاطمة' } }), 'body.person.fullName'],
      [reportBody({ language: 'fr' }), 'body.language'],
      [reportBody({ contact: { phone: 'call me' } }), 'body.contact.phone'],
      [reportBody({ contact: { email: 'not-an-email' } }), 'body.contact.email'],
      [reportBody({ anteMortem: { heightCm: 'tall' } }), 'body.anteMortem.heightCm'],
      [reportBody({ arrest: { date: '14/06/2013' } }), 'body.arrest.date'],
      [reportBody({ consent: { internalUse: 'yes' } }), 'body.consent.internalUse'],
      [{ ...reportBody(), contact: undefined }, 'body.contact'],
    ];
    for (const [body, field] of cases) {
      const res = await file(body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(
        res.json().errors.map((e: { path: string }) => e.path),
        field,
      ).toContain(field);
    }
    const huge = reportBody({ anteMortem: { medicalHistory: 'x'.repeat(70 * 1024) } });
    expect((await file(huge)).statusCode).toBe(413);
    const bad = await liaison.post('/api/reports/00000000-0000-7000-8000-000000000000/consent', {
      purpose: 'tell_everyone',
      granted: true,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.purpose');
  });
});
