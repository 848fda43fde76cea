import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { passwordResetRequestHours, resetNeedsSecondAdmin } from '../src/access/account-rules.js';
import { commandLine } from '../src/access/caller.js';
import { hashPassword } from '../src/access/passwords.js';
import { roleHas } from '../src/access/policies.js';
import { type Role, roles } from '../src/access/roles.js';
import { newId } from '../src/ids.js';
import { servicesOf } from '../src/services/index.js';
import { AuditRepository } from '../src/store/repositories/audit.js';
import { UserRepository } from '../src/store/repositories/users.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/**
 * Issue 21, Security 10: a password reset cannot turn an admin into a liaison. A reset that would leave a reader of
 * contacts or originals without an enrolled authenticator waits for a second admin; one that leaves it enrolled is
 * one step; the command line stays one step. Synthetic accounts only.
 */
const password = 'synthetic-password-for-tests';

it('asks for a second admin exactly for readers of contacts or originals left without an enrolled authenticator', () => {
  for (const role of roles) {
    const reads = roleHas(role, 'contacts:read') || roleHas(role, 'evidence:original');
    expect(resetNeedsSecondAdmin({ role, totpEnrolled: false, resetTotp: false }), role).toBe(reads);
    expect(resetNeedsSecondAdmin({ role, totpEnrolled: true, resetTotp: true }), role).toBe(reads);
    expect(resetNeedsSecondAdmin({ role, totpEnrolled: true, resetTotp: false }), role).toBe(false);
  }
  expect(resetNeedsSecondAdmin({ role: 'liaison', totpEnrolled: false, resetTotp: false })).toBe(true);
  expect(resetNeedsSecondAdmin({ role: 'investigator', totpEnrolled: false, resetTotp: false })).toBe(true);
});

describeEachDialect('password resets by two admins', (store) => {
  let api: ApiHarness;
  let hash: string;
  /** The only admin until the second test makes another. */
  let first: ApiClient;

  beforeAll(async () => {
    api = await createApi(store());
    hash = await hashPassword(password);
    first = await api.as('admin');
  });
  afterAll(async () => api.close());

  async function makeUser(role: Role, options: { totp?: boolean } = {}) {
    const users = new UserRepository(store().db);
    const user = await users.create({ username: `u-${newId().slice(-12)}`, passwordHash: hash, role });
    // An enrolled authenticator, as confirming a code leaves it (the seed itself is never read here).
    if (options.totp) await users.activateTotp(user.id, 'synthetic-seed', 0);
    return user;
  }

  const reset = (admin: ApiClient, id: string, resetTotp = false) =>
    admin.post(`/api/users/${id}/password-reset`, { resetTotp });
  const actions = async (subjectId: string) =>
    (await new AuditRepository(store().db).query({ subjectId })).map((r) => r.action).sort();
  const signIn = (username: string, pw: string): Promise<LightMyRequestResponse> =>
    api.app.inject({ method: 'POST', url: '/api/session', payload: { username, password: pw } });

  it("refuses a single admin's reset of a liaison without TOTP: no password, and the answer points at the CLI", async () => {
    const liaison = await makeUser('liaison');
    const res = await reset(first, liaison.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).not.toHaveProperty('password');
    expect(res.json().detail).toMatch(/second admin is needed/);
    expect(res.json().detail).toContain('athar users reset-password');
    // Nothing changed: the old password still signs in.
    expect((await signIn(liaison.username, password)).statusCode).toBe(200);
    // The command line, the operator's path on the server itself, still resets in one step.
    const done = await servicesOf(api.ctx).accounts.resetPassword(liaison.id, {}, commandLine);
    expect(done).toHaveProperty('password');
  });

  it('resets in one step when the account keeps its enrolled authenticator, or reads neither contacts nor originals', async () => {
    const enrolled = await makeUser('liaison', { totp: true });
    const one = await reset(first, enrolled.id);
    expect(one.statusCode).toBe(200);
    expect(one.json().password).toMatch(/.{20}/);
    const documenter = await makeUser('documenter');
    const two = await reset(first, documenter.id, true);
    expect(two.statusCode).toBe(200);
    expect(two.json().password).toBeTruthy();
  });

  it('makes a request when TOTP is reset too; a different admin approves it and alone sees the password', async () => {
    const second = await api.as('admin');
    const liaison = await makeUser('liaison', { totp: true });
    const asked = await reset(first, liaison.id, true);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).not.toHaveProperty('password');
    const request = asked.json().request;
    expect(request).toMatchObject({ userId: liaison.id, username: liaison.username, resetTotp: true });
    expect(request.status).toBe('requested');
    expect(Date.parse(request.expiresAt) - Date.parse(request.requestedAt)).toBe(
      passwordResetRequestHours * 3_600_000,
    );
    // Nothing changed yet: the authenticator is still enrolled and the old password still checks.
    expect((await new UserRepository(store().db).findById(liaison.id))?.totpEnrolled).toBe(true);

    const listed = (await second.get('/api/password-resets')).json().items as { id: string }[];
    expect(listed.map((r) => r.id)).toContain(request.id);

    // A second request about the same account waits for the first to be settled.
    expect((await reset(second, liaison.id, true)).statusCode).toBe(409);

    const own = await first.post(`/api/password-resets/${request.id}/approve`, {});
    expect(own.statusCode).toBe(403);
    expect(own.json().detail).toMatch(/another admin must approve/);
    expect(own.json()).not.toHaveProperty('password');

    const approved = await second.post(`/api/password-resets/${request.id}/approve`, {});
    expect(approved.statusCode).toBe(200);
    const { password: oneTime } = approved.json();
    expect(oneTime).toMatch(/.{20}/);
    expect(approved.json().request).toMatchObject({ status: 'approved', decidedBy: second.user?.id });
    const user = await new UserRepository(store().db).findById(liaison.id);
    expect(user).toMatchObject({ totpEnrolled: false, mustChangePassword: true });
    expect((await signIn(liaison.username, oneTime)).statusCode).toBe(200);
    // Decided once: approving again is a conflict, not a second password.
    expect((await second.post(`/api/password-resets/${request.id}/approve`, {})).statusCode).toBe(409);
    expect((await second.get('/api/password-resets')).json().items).toEqual([]);

    expect(await actions(liaison.id)).toEqual(
      expect.arrayContaining(['password_reset', 'password_reset_approved', 'password_reset_requested']),
    );
    const rows = await new AuditRepository(store().db).query({ subjectId: liaison.id });
    const requested = rows.find((r) => r.action === 'password_reset_requested');
    const done = rows.find((r) => r.action === 'password_reset');
    expect(requested).toMatchObject({ actorId: first.user?.id });
    expect(done).toMatchObject({ actorId: second.user?.id });
    expect(done?.details).toMatchObject({ resetTotp: true, request: request.id });
    expect(JSON.stringify(rows)).not.toContain(oneTime);
  });

  it('lets another admin refuse and the one who asked cancel, each audited; neither changes the account', async () => {
    const second = await api.as('admin');
    const investigator = await makeUser('investigator');
    const a = (await reset(first, investigator.id)).json().request;
    expect((await first.post(`/api/password-resets/${a.id}/refuse`, {})).statusCode).toBe(403);
    const refused = await second.post(`/api/password-resets/${a.id}/refuse`, {});
    expect(refused.statusCode).toBe(200);
    expect(refused.json().request.status).toBe('refused');

    const b = (await reset(first, investigator.id)).json().request;
    const notYours = await second.inject({ method: 'DELETE', url: `/api/password-resets/${b.id}` });
    expect(notYours.statusCode).toBe(403);
    const cancelled = await first.inject({ method: 'DELETE', url: `/api/password-resets/${b.id}` });
    expect(cancelled.statusCode).toBe(204);
    expect((await second.post(`/api/password-resets/${b.id}/approve`, {})).statusCode).toBe(409);

    expect((await signIn(investigator.username, password)).statusCode).toBe(200);
    expect(await actions(investigator.id)).toEqual(
      expect.arrayContaining([
        'password_reset_cancelled',
        'password_reset_refused',
        'password_reset_requested',
      ]),
    );
    expect(await actions(investigator.id)).not.toContain('password_reset');
  });

  it(`lapses a request after ${passwordResetRequestHours} hours: it can no longer be approved`, async () => {
    const second = await api.as('admin');
    const liaison = await makeUser('liaison');
    const request = (await reset(first, liaison.id)).json().request;
    // The hours pass for the request only (the admins' sessions would end too if the clock moved).
    const past = new Date(Date.parse(request.expiresAt) - (passwordResetRequestHours * 3_600_000 + 1000));
    await store()
      .db.updateTable('password_reset_requests')
      .set({ expires_at: past.toISOString() })
      .where('id', '=', request.id)
      .execute();
    const late = await second.post(`/api/password-resets/${request.id}/approve`, {});
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toMatch(/expired/);
    expect(await actions(liaison.id)).toContain('password_reset_expired');
    // A new request may be made once the old one lapsed.
    expect((await reset(first, liaison.id)).statusCode).toBe(202);
  });

  it('answers 404 for an unknown request and keeps the routes to admins', async () => {
    const second = await api.as('admin');
    const unknown = '00000000-0000-7000-8000-000000000000';
    expect((await second.post(`/api/password-resets/${unknown}/approve`, {})).statusCode).toBe(404);
    const liaison = await api.as('liaison');
    expect((await liaison.get('/api/password-resets')).statusCode).toBe(403);
  });
});
