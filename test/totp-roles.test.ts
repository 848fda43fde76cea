import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsOf } from '../src/access/policies.js';
import { roles } from '../src/access/roles.js';
import { loadConfig } from '../src/config/config.js';
import type { Alert } from '../src/services/audit/audit.js';
import { servicesOf } from '../src/services/index.js';
import { totpRoles } from '../src/store/migrations/0017-totp-roles.js';
import { AuditRepository } from '../src/store/repositories/audit.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/**
 * Roles hold the line (issue 21, Security 10): TOTP is required by default for admins and every role that reads
 * contact details or evidence originals (ATHAR_TOTP_ROLES), and one account reading the contacts of many reports in
 * a short time raises an alert (ATHAR_CONTACTS_ALERT): an audit row and a log line. Synthetic data only.
 */
describe('ATHAR_TOTP_ROLES', () => {
  it('by default names admins and every role that reads contacts or originals', () => {
    const readers = roles.filter(
      (r) => permissionsOf(r).has('contacts:read') || permissionsOf(r).has('evidence:original'),
    );
    expect(readers.length).toBeGreaterThan(0);
    expect([...loadConfig({}).accounts.totpRoles].sort()).toEqual(['admin', ...readers].sort());
    expect(loadConfig({ ATHAR_TOTP_ROLES: 'none' }).accounts.totpRoles).toEqual([]);
    expect(loadConfig({ ATHAR_TOTP_ROLES: 'reviewer, liaison' }).accounts.totpRoles).toEqual([
      'reviewer',
      'liaison',
    ]);
    expect(() => loadConfig({ ATHAR_TOTP_ROLES: 'family' })).toThrow(/ATHAR_TOTP_ROLES/);
    expect(loadConfig({}).accounts.contactsAlert).toEqual({ reports: 20, windowMs: 60 * 60_000 });
    expect(() => loadConfig({ ATHAR_CONTACTS_ALERT: 'many' })).toThrow(/ATHAR_CONTACTS_ALERT/);
  });
});

describeEachDialect('TOTP by role, and bulk reads of contacts', (store) => {
  let api: ApiHarness;
  let admin: ApiClient;
  const alerts: Alert[] = [];

  beforeAll(async () => {
    api = await createApi(store(), {
      ATHAR_CONTACTS_KEY: randomBytes(32).toString('base64'),
      ATHAR_CONTACTS_ALERT: '3/60',
    });
    admin = await api.as('admin');
    servicesOf(api.ctx).audit.onAlert((a) => alerts.push(a));
  });
  afterAll(async () => api.close());

  const username = () => `syn-${randomBytes(5).toString('hex')}`;

  it('migration 0017 requires TOTP of existing liaisons and investigators and limits their sessions to enrolment', async () => {
    const liaison = await api.as('liaison');
    const reviewer = await api.as('reviewer');
    // biome-ignore lint/suspicious/noExplicitAny: the migration takes an untyped database
    await totpRoles().up(store().db as any);
    const users = await store()
      .db.selectFrom('users')
      .select(['id', 'totp_required'])
      .where('id', 'in', [liaison.user?.id ?? '', reviewer.user?.id ?? ''])
      .execute();
    const required = Object.fromEntries(users.map((u) => [u.id, u.totp_required]));
    expect(required[liaison.user?.id ?? '']).toBe(1);
    expect(required[reviewer.user?.id ?? '']).toBe(0);
    const limited = await liaison.get('/api/records?limit=1');
    expect(limited.statusCode).toBe(403);
    expect(limited.json().code).toBe('enrolment_required');
    expect((await reviewer.get('/api/records?limit=1')).statusCode).toBe(200);
  });

  it('makes liaisons and investigators use TOTP, and the requirement cannot be lifted for them', async () => {
    for (const role of ['liaison', 'investigator', 'admin']) {
      const made = await admin.post('/api/users', { username: username(), role });
      expect(made.statusCode, role).toBe(201);
      expect(made.json().user.totpRequired, role).toBe(true);
      const lifted = await admin.post('/api/users', { username: username(), role, totpRequired: false });
      expect(lifted.statusCode, role).toBe(400);
      expect(lifted.json().errors?.[0]?.field ?? lifted.json().field ?? lifted.body).toMatch(/totpRequired/);
      const patched = await admin.inject({
        method: 'PATCH',
        url: `/api/users/${made.json().user.id}`,
        payload: { totpRequired: false },
      });
      expect(patched.statusCode, role).toBe(400);
    }
    // A documenter may go without; given a role that reads contacts, the requirement comes with it (the role
    // itself waits for a second admin: docs/access.md "Account changes by two admins").
    const doc = await admin.post('/api/users', { username: username(), role: 'documenter' });
    expect(doc.json().user.totpRequired).toBe(false);
    const asked = await admin.inject({
      method: 'PATCH',
      url: `/api/users/${doc.json().user.id}`,
      payload: { role: 'liaison' },
    });
    expect(asked.statusCode).toBe(202);
    const second = await api.as('admin');
    const approved = await second.post(`/api/account-requests/${asked.json().request.id}/approve`, {});
    expect(approved.statusCode).toBe(200);
    const users = (await admin.get('/api/users')).json().items as {
      id: string;
      role: string;
      totpRequired: boolean;
    }[];
    expect(users.find((u) => u.id === doc.json().user.id)).toMatchObject({
      role: 'liaison',
      totpRequired: true,
    });
  });

  it('raises one alert, audited and told to the log, when an account reads the contacts of many reports', async () => {
    const liaison = await api.as('liaison');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const filed = await api.anonymous.inject({
        method: 'POST',
        url: '/api/public/reports',
        remoteAddress: `10.88.0.${i + 1}`,
        payload: {
          person: { fullName: `Synthetic Person ${i}`, sex: 'male' },
          consent: { internalUse: true },
          contact: { name: `Synthetic Relative ${i}`, phone: '+963 900 000 000' },
          language: 'en',
        },
      });
      expect(filed.statusCode).toBe(201);
      const row = await store()
        .db.selectFrom('family_reports')
        .select('id')
        .where('reference', '=', filed.json().reference)
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const bulk = () =>
      new AuditRepository(store().db).query({ actorId: liaison.user?.id, action: 'contacts_bulk_read' });
    const reveal = (id: string) => liaison.post(`/api/reports/${id}/contact`, { reason: 'synthetic call' });
    // The same report read again counts once.
    expect((await reveal(ids[0] as string)).statusCode).toBe(200);
    expect((await reveal(ids[0] as string)).statusCode).toBe(200);
    expect((await reveal(ids[1] as string)).statusCode).toBe(200);
    expect(await bulk()).toHaveLength(0);
    expect((await reveal(ids[2] as string)).statusCode).toBe(200);
    expect((await reveal(ids[3] as string)).statusCode).toBe(200);
    const rows = await bulk();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      subjectType: 'user',
      subjectId: liaison.user?.id,
      details: { reports: 3, windowMinutes: 60, threshold: 3 },
    });
    const mine = alerts.filter((a) => a.actorId === liaison.user?.id);
    expect(mine).toEqual([
      {
        action: 'contacts_bulk_read',
        actorId: liaison.user?.id,
        actorRole: 'liaison',
        details: { reports: 3, windowMinutes: 60, threshold: 3 },
      },
    ]);
    // The alert names no family: neither a relative's name nor the phone (an actor's UUID may hold the digits 963).
    expect(JSON.stringify(mine)).not.toMatch(/Synthetic|\+963|900 000/);
  });
});
