import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  accountRequestHours,
  resetNeedsSecondAdmin,
  roleChangeNeedsSecondAdmin,
} from '../src/access/account-rules.js';
import { commandLine } from '../src/access/caller.js';
import { hashPassword } from '../src/access/passwords.js';
import { roleHas } from '../src/access/policies.js';
import { type Role, roles } from '../src/access/roles.js';
import { totpCode } from '../src/access/totp.js';
import { newId } from '../src/ids.js';
import { servicesOf } from '../src/services/index.js';
import { AuditRepository } from '../src/store/repositories/audit.js';
import { UserRepository } from '../src/store/repositories/users.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/**
 * Issue 21, Security 10: a password reset cannot turn an admin into a liaison. A reset that would leave a reader of
 * contacts or originals without an enrolled authenticator waits for a second admin; one that leaves it enrolled is
 * one step; the command line stays one step. Nor can a role change get around it (demote, reset, promote back): a
 * role that newly grants contacts or originals waits for a second admin too. Synthetic accounts only.
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

it('asks for a second admin exactly for a role change that newly grants contacts or originals', () => {
  const reads = (role: string) =>
    ['contacts:read', 'evidence:original'].filter((p) => roleHas(role, p as never));
  for (const from of roles) {
    for (const to of roles) {
      const grants = reads(to).some((p) => !reads(from).includes(p));
      expect(roleChangeNeedsSecondAdmin(from, to), `${from} → ${to}`).toBe(grants);
    }
  }
  expect(roleChangeNeedsSecondAdmin('reviewer', 'liaison')).toBe(true);
  expect(roleChangeNeedsSecondAdmin('liaison', 'investigator')).toBe(true);
  expect(roleChangeNeedsSecondAdmin('liaison', 'reviewer')).toBe(false);
  expect(roleChangeNeedsSecondAdmin('liaison', 'liaison')).toBe(false);
});

describeEachDialect('password resets and role changes by two admins', (store) => {
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
  const signIn = (username: string, pw: string, totp?: string): Promise<LightMyRequestResponse> =>
    api.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username, password: pw, ...(totp ? { totp } : {}) },
    });
  const setRole = (admin: ApiClient, id: string, role: Role) =>
    admin.inject({ method: 'PATCH', url: `/api/users/${id}`, payload: { role } });
  /** A client over the session a sign-in answered. */
  function holder(res: LightMyRequestResponse) {
    const cookie = res.cookies.find((c) => c.name === 'athar_session')?.value;
    const csrf = res.json().csrfToken as string;
    return (options: InjectOptions) =>
      api.app.inject({
        ...options,
        headers: { cookie: `athar_session=${cookie}`, 'x-csrf-token': csrf, ...(options.headers ?? {}) },
      });
  }
  const roleOf = async (id: string) => (await new UserRepository(store().db).findById(id))?.role;

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

  it("refuses a single admin's walk around the reset: demote a liaison, reset it in one step, enrol, promote back", async () => {
    // A liaison with an authenticator of their own: a reset removing it would wait for a second admin.
    const liaison = await makeUser('liaison', { totp: true });
    expect((await reset(first, liaison.id, true)).statusCode).toBe(409);
    // 1. A demotion grants nothing new: one step.
    expect((await setRole(first, liaison.id, 'reviewer')).statusCode).toBe(200);
    // 2. A reviewer reads neither contacts nor originals: its reset (authenticator too) is one step.
    const done = await reset(first, liaison.id, true);
    expect(done.statusCode).toBe(200);
    // 3. Whoever holds the one-time password signs in, chooses a password and enrols their own authenticator.
    const session = holder(await signIn(liaison.username, done.json().password));
    const chosen = 'a-synthetic-password-chosen-by-the-admin';
    const changed = await session({
      method: 'POST',
      url: '/api/me/password',
      payload: { current: done.json().password, next: chosen },
    });
    expect(changed.statusCode).toBe(204);
    const again = holder(await signIn(liaison.username, chosen));
    const { secret } = (await again({ method: 'POST', url: '/api/me/totp' })).json();
    const code = totpCode(secret, Date.now());
    expect((await again({ method: 'POST', url: '/api/me/totp/confirm', payload: { code } })).statusCode).toBe(
      204,
    );
    // 4. Promoting the account back to liaison is what one admin may no longer do.
    const promoted = await setRole(first, liaison.id, 'liaison');
    expect(promoted.statusCode).toBe(409);
    expect(promoted.json().detail).toMatch(/second admin is needed/);
    expect(promoted.json().detail).toContain('athar users set-role');
    expect(await roleOf(liaison.id)).toBe('reviewer');
    expect(await actions(liaison.id)).not.toContain('role_change_requested');
    // The command line, the operator's path on the server itself, still changes the role in one step.
    const cli = await servicesOf(api.ctx).accounts.updateUser(liaison.id, { role: 'liaison' }, commandLine);
    expect(cli).toMatchObject({ after: { role: 'liaison' } });
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
      accountRequestHours * 3_600_000,
    );
    // Nothing changed yet: the authenticator is still enrolled and the old password still checks.
    expect((await new UserRepository(store().db).findById(liaison.id))?.totpEnrolled).toBe(true);

    const listed = (await second.get('/api/account-requests')).json().items as { id: string }[];
    expect(listed.map((r) => r.id)).toContain(request.id);

    // A second request about the same account waits for the first to be settled.
    expect((await reset(second, liaison.id, true)).statusCode).toBe(409);

    const own = await first.post(`/api/account-requests/${request.id}/approve`, {});
    expect(own.statusCode).toBe(403);
    expect(own.json().detail).toMatch(/another admin must approve/);
    expect(own.json()).not.toHaveProperty('password');

    const approved = await second.post(`/api/account-requests/${request.id}/approve`, {});
    expect(approved.statusCode).toBe(200);
    const { password: oneTime } = approved.json();
    expect(oneTime).toMatch(/.{20}/);
    expect(approved.json().request).toMatchObject({ status: 'approved', decidedBy: second.user?.id });
    const user = await new UserRepository(store().db).findById(liaison.id);
    expect(user).toMatchObject({ totpEnrolled: false, mustChangePassword: true });
    expect((await signIn(liaison.username, oneTime)).statusCode).toBe(200);
    // Decided once: approving again is a conflict, not a second password.
    expect((await second.post(`/api/account-requests/${request.id}/approve`, {})).statusCode).toBe(409);
    expect((await second.get('/api/account-requests')).json().items).toEqual([]);

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
    expect((await first.post(`/api/account-requests/${a.id}/refuse`, {})).statusCode).toBe(403);
    const refused = await second.post(`/api/account-requests/${a.id}/refuse`, {});
    expect(refused.statusCode).toBe(200);
    expect(refused.json().request.status).toBe('refused');

    const b = (await reset(first, investigator.id)).json().request;
    const notYours = await second.inject({ method: 'DELETE', url: `/api/account-requests/${b.id}` });
    expect(notYours.statusCode).toBe(403);
    const cancelled = await first.inject({ method: 'DELETE', url: `/api/account-requests/${b.id}` });
    expect(cancelled.statusCode).toBe(204);
    expect((await second.post(`/api/account-requests/${b.id}/approve`, {})).statusCode).toBe(409);

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

  it(`lapses a request after ${accountRequestHours} hours: it can no longer be approved`, async () => {
    const second = await api.as('admin');
    const liaison = await makeUser('liaison');
    const request = (await reset(first, liaison.id)).json().request;
    // The hours pass for the request only (the admins' sessions would end too if the clock moved).
    const past = new Date(Date.parse(request.expiresAt) - (accountRequestHours * 3_600_000 + 1000));
    await store()
      .db.updateTable('account_requests')
      .set({ expires_at: past.toISOString() })
      .where('id', '=', request.id)
      .execute();
    const late = await second.post(`/api/account-requests/${request.id}/approve`, {});
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toMatch(/expired/);
    expect(await actions(liaison.id)).toContain('password_reset_expired');
    // A new request may be made once the old one lapsed.
    expect((await reset(first, liaison.id)).statusCode).toBe(202);
  });

  it('answers 404 for an unknown request and keeps the routes to admins', async () => {
    const second = await api.as('admin');
    const unknown = '00000000-0000-7000-8000-000000000000';
    expect((await second.post(`/api/account-requests/${unknown}/approve`, {})).statusCode).toBe(404);
    const liaison = await api.as('liaison');
    expect((await liaison.get('/api/account-requests')).statusCode).toBe(403);
  });

  it('makes a role change that newly grants contacts or originals a request another admin approves; it then happens', async () => {
    const second = await api.as('admin');
    const reviewer = await makeUser('reviewer');
    const before = holder(await signIn(reviewer.username, password));
    const asked = await setRole(first, reviewer.id, 'liaison');
    expect(asked.statusCode).toBe(202);
    const request = asked.json().request;
    expect(request).toMatchObject({
      kind: 'role_change',
      userId: reviewer.id,
      role: 'reviewer',
      toRole: 'liaison',
      resetTotp: false,
      status: 'requested',
    });
    expect(Date.parse(request.expiresAt) - Date.parse(request.requestedAt)).toBe(
      accountRequestHours * 3_600_000,
    );
    expect(await roleOf(reviewer.id)).toBe('reviewer');
    expect(
      (await second.get('/api/account-requests')).json().items.map((r: { id: string }) => r.id),
    ).toContain(request.id);
    // One request per account awaits at a time.
    expect((await setRole(second, reviewer.id, 'investigator')).statusCode).toBe(409);
    // Nothing changed yet: the reviewer's session still answers.
    expect((await before({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);

    const own = await first.post(`/api/account-requests/${request.id}/approve`, {});
    expect(own.statusCode).toBe(403);
    expect(own.json().detail).toMatch(/another admin must approve/);
    expect(await roleOf(reviewer.id)).toBe('reviewer');

    const approved = await second.post(`/api/account-requests/${request.id}/approve`, {});
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).not.toHaveProperty('password');
    expect(approved.json().request).toMatchObject({
      status: 'approved',
      decidedBy: second.user?.id,
      role: 'liaison',
    });
    expect(await roleOf(reviewer.id)).toBe('liaison');
    // Credentials end on a role change, as in one step.
    expect((await before({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect((await second.post(`/api/account-requests/${request.id}/approve`, {})).statusCode).toBe(409);

    const rows = await new AuditRepository(store().db).query({ subjectId: reviewer.id });
    expect(rows.find((r) => r.action === 'role_change_requested')).toMatchObject({
      actorId: first.user?.id,
      details: { request: request.id, role: { from: 'reviewer', to: 'liaison' } },
    });
    expect(rows.find((r) => r.action === 'role_change_approved')).toMatchObject({ actorId: second.user?.id });
    const updated = rows.find((r) => r.action === 'user_updated');
    expect(updated).toMatchObject({
      actorId: second.user?.id,
      details: { request: request.id, role: { from: 'reviewer', to: 'liaison' }, sessionsEnded: 1 },
    });

    // Back down again, or to a role that grants nothing new: one step.
    expect((await setRole(first, reviewer.id, 'reviewer')).statusCode).toBe(200);
    expect((await setRole(first, reviewer.id, 'documenter')).statusCode).toBe(200);
    expect(await roleOf(reviewer.id)).toBe('documenter');
    // A new account made with a reader role is one step: a new identity, under the admin's name in the audit.
    const made = await first.post('/api/users', { username: `u-${newId().slice(-12)}`, role: 'liaison' });
    expect(made.statusCode).toBe(201);
  });

  it('lets another admin refuse a role change and the one who asked cancel it; it lapses; never about oneself', async () => {
    const second = await api.as('admin');
    const documenter = await makeUser('documenter');
    const a = (await setRole(first, documenter.id, 'investigator')).json().request;
    expect((await first.post(`/api/account-requests/${a.id}/refuse`, {})).statusCode).toBe(403);
    expect((await second.post(`/api/account-requests/${a.id}/refuse`, {})).json().request.status).toBe(
      'refused',
    );

    const b = (await setRole(first, documenter.id, 'investigator')).json().request;
    expect((await second.inject({ method: 'DELETE', url: `/api/account-requests/${b.id}` })).statusCode).toBe(
      403,
    );
    expect((await first.inject({ method: 'DELETE', url: `/api/account-requests/${b.id}` })).statusCode).toBe(
      204,
    );

    const c = (await setRole(first, documenter.id, 'liaison')).json().request;
    await store()
      .db.updateTable('account_requests')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', c.id)
      .execute();
    const late = await second.post(`/api/account-requests/${c.id}/approve`, {});
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toMatch(/expired/);

    expect(await roleOf(documenter.id)).toBe('documenter');
    expect(await actions(documenter.id)).toEqual(
      expect.arrayContaining([
        'role_change_cancelled',
        'role_change_expired',
        'role_change_refused',
        'role_change_requested',
      ]),
    );
    expect(await actions(documenter.id)).not.toContain('user_updated');

    // An admin may not ask for a reader role of their own, nor decide a request about themself.
    expect((await setRole(first, first.user?.id as string, 'liaison')).statusCode).toBe(403);
    const third = await api.as('admin');
    const aboutSecond = (await setRole(first, second.user?.id as string, 'liaison')).json().request;
    expect((await second.post(`/api/account-requests/${aboutSecond.id}/approve`, {})).statusCode).toBe(403);
    expect((await third.post(`/api/account-requests/${aboutSecond.id}/refuse`, {})).statusCode).toBe(200);
    // A role change asked for with other changes is refused as a whole: one request is one change.
    const mixed = await first.inject({
      method: 'PATCH',
      url: `/api/users/${documenter.id}`,
      payload: { role: 'liaison', displayName: 'Synthetic name' },
    });
    expect(mixed.statusCode).toBe(400);
  });
});
