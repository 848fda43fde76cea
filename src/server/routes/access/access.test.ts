import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { type ApiClient, type ApiHarness, createApi } from '../../../../test/api.js';
import { describeEachDialect } from '../../../../test/stores.js';
import { signInBackoff } from '../../../access/account-rules.js';
import { hashPassword } from '../../../access/passwords.js';
import type { Role } from '../../../access/roles.js';
import { sessionMaxMs } from '../../../access/sessions.js';
import { totpCode } from '../../../access/totp.js';
import { newId } from '../../../ids.js';
import { AuditRepository } from '../../../store/repositories/audit.js';
import { credentialsChanged } from '../../../store/repositories/credentials.js';
import { UserRepository } from '../../../store/repositories/users.js';

// Synthetic accounts only: usernames are random, the password is a fixed test string.
const password = 'synthetic-password-for-tests';

describeEachDialect('accounts over HTTP', (store) => {
  let api: ApiHarness;
  let admin: ApiClient;
  let hash: string;
  let address = 0;
  /** Each test signs in from its own address, so the per-address limit of one test does not touch another. */
  const nextAddress = () => `10.0.${Math.floor(++address / 250)}.${address % 250}`;

  beforeAll(async () => {
    api = await createApi(store());
    admin = await api.as('admin');
    hash = await hashPassword(password);
  });
  afterAll(async () => api.close());

  async function makeUser(
    role: Role,
    options: { totpRequired?: boolean } = {},
  ): Promise<{ id: string; username: string }> {
    const username = `u-${newId().slice(-12)}`;
    const user = await new UserRepository(store().db).create({
      username,
      passwordHash: hash,
      role,
      ...options,
    });
    return { id: user.id, username };
  }

  function signIn(
    body: Record<string, unknown>,
    from = nextAddress(),
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return api.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: body,
      remoteAddress: from,
      headers,
    });
  }

  /** A client holding the cookie and CSRF token a successful sign-in gave. */
  function holder(res: LightMyRequestResponse, csrf = true) {
    const cookie = res.cookies.find((c) => c.name === 'athar_session')?.value;
    expect(cookie).toBeTruthy();
    const token = res.json().csrfToken as string;
    return (options: InjectOptions) =>
      api.app.inject({
        ...options,
        headers: {
          cookie: `athar_session=${cookie}`,
          ...(csrf ? { 'x-csrf-token': token } : {}),
          ...(options.headers ?? {}),
        },
      });
  }

  async function auditRows(action: string, subjectId?: string) {
    return new AuditRepository(store().db).query({ action, ...(subjectId ? { subjectId } : {}) });
  }

  it('signs in with the right password: the contract body, a strict HttpOnly cookie and an audit row', async () => {
    const u = await makeUser('reviewer');
    const res = await signIn({ username: u.username, password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({
      id: u.id,
      username: u.username,
      role: 'reviewer',
      mustChangePassword: false,
    });
    expect(body.user).not.toHaveProperty('passwordHash');
    expect(body.csrfToken).toMatch(/^[\w-]{20,}$/);
    expect(body.permissions).toContain('review:decide');
    expect(body.totpEnrolmentRequired).toBe(false);
    const cookie = res.cookies.find((c) => c.name === 'athar_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.secure).toBeFalsy();

    const session = holder(res);
    const again = await session({ method: 'GET', url: '/api/session' });
    expect(again.statusCode).toBe(200);
    expect(again.json().user.id).toBe(u.id);
    expect(again.json().csrfToken).toBe(body.csrfToken);

    const rows = await auditRows('sign_in', u.id);
    expect(rows).toHaveLength(1);

    // Signing in again over the old cookie replaces that session.
    const oldCookie = res.cookies.find((c) => c.name === 'athar_session')?.value as string;
    const second = await signIn({ username: u.username, password }, nextAddress(), {
      cookie: `athar_session=${oldCookie}`,
    });
    expect(second.statusCode).toBe(200);
    expect((await session({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect((await holder(second)({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);
    expect(rows[0]).toMatchObject({ actorId: u.id, actorRole: 'reviewer', subjectType: 'user' });
  });

  it('refuses a wrong password and an unknown user alike, auditing both without the password', async () => {
    const u = await makeUser('documenter');
    const wrong = await signIn({ username: u.username, password: 'not-the-password' });
    const unknown = await signIn({ username: `nobody-${newId().slice(-8)}`, password });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthenticated');
      expect(res.cookies).toHaveLength(0);
    }
    expect(wrong.json().title).toBe(unknown.json().title);
    const failed = await auditRows('sign_in_failed');
    const mine = failed.find((r) => r.subjectId === u.id);
    expect(mine?.details).toEqual({ reason: 'password' });
    expect(failed.some((r) => r.subjectId === null && r.details?.reason === 'unknown_user')).toBe(true);
    expect(JSON.stringify(failed)).not.toContain('not-the-password');
    expect(JSON.stringify(failed)).not.toContain(password);
  });

  it('marks the cookie Secure when the request came over https through a trusted proxy', async () => {
    const proxied = await createApi(store(), { ATHAR_TRUST_PROXY: 'true' });
    try {
      const u = await makeUser('liaison');
      const res = await proxied.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { username: u.username, password },
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': nextAddress() },
      });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === 'athar_session')?.secure).toBe(true);
    } finally {
      await proxied.close();
    }
    // Without a trusted proxy the header is ignored.
    const u = await makeUser('liaison');
    const res = await signIn({ username: u.username, password }, nextAddress(), {
      'x-forwarded-proto': 'https',
    });
    expect(res.cookies.find((c) => c.name === 'athar_session')?.secure).toBeFalsy();
  });

  it('refuses a cookie write without the CSRF token, and signs out with it', async () => {
    const u = await makeUser('investigator', { totpRequired: false });
    const res = await signIn({ username: u.username, password });
    const noCsrf = holder(res, false);
    const refused = await noCsrf({ method: 'DELETE', url: '/api/session' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('csrf_failed');
    const wrongCsrf = await noCsrf({
      method: 'DELETE',
      url: '/api/session',
      headers: { 'x-csrf-token': 'x' },
    });
    expect(wrongCsrf.statusCode).toBe(403);

    const session = holder(res);
    const out = await session({ method: 'DELETE', url: '/api/session' });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === 'athar_session')?.value).toBe('');
    expect((await session({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect(await auditRows('sign_out', u.id)).toHaveLength(1);
  });

  it('ends a session at once for this process on sign-out, password change and role change, though lookups are remembered', async () => {
    const u = await makeUser('investigator', { totpRequired: false });
    const a = holder(await signIn({ username: u.username, password }));
    const b = holder(await signIn({ username: u.username, password }));
    const c = holder(await signIn({ username: u.username, password }));
    // Every session is looked up (and remembered) first.
    for (const s of [a, b, c]) expect((await s({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);
    const next = 'another-synthetic-password';
    expect(
      (await a({ method: 'POST', url: '/api/me/password', payload: { current: password, next } })).statusCode,
    ).toBe(204);
    expect((await a({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);
    expect((await b({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect((await c({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);

    const admin = await makeUser('admin', { totpRequired: false });
    const boss = holder(await signIn({ username: admin.username, password }));
    expect((await a({ method: 'GET', url: '/api/session' })).json().user.role).toBe('investigator');
    expect((await a({ method: 'DELETE', url: '/api/session' })).statusCode).toBe(204);
    expect((await a({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);

    // A role change ends every session of the user (issue 21), remembered or not.
    const d = holder(await signIn({ username: u.username, password: next }));
    expect((await d({ method: 'GET', url: '/api/session' })).json().user.role).toBe('investigator');
    // A demotion (reviewer reads nothing an investigator cannot), so one step: a grant would wait for a second admin.
    const demoted = await boss({ method: 'PATCH', url: `/api/users/${u.id}`, payload: { role: 'reviewer' } });
    expect(demoted.statusCode).toBe(200);
    expect((await d({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
  });

  it(`ends a busy session ${sessionMaxMs / 3_600_000} hours after sign-in: the idle window never slides past that`, async () => {
    const u = await makeUser('investigator', { totpRequired: false });
    const s = holder(await signIn({ username: u.username, password }));
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const age = async (createdAgo: number) => {
      // As if signed in long ago and last seen two minutes ago (so this request slides the window).
      await store()
        .db.updateTable('sessions')
        .set({ created_at: ago(createdAgo), last_seen_at: ago(120_000) })
        .where('user_id', '=', u.id)
        .execute();
      credentialsChanged();
    };
    await age(sessionMaxMs - 60_000);
    expect((await s({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);
    const row = await store()
      .db.selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', u.id)
      .executeTakeFirstOrThrow();
    // Slid to the absolute end (a minute away), not to eight idle hours from now.
    expect(Date.parse(row.expires_at)).toBeLessThanOrEqual(Date.parse(row.created_at) + sessionMaxMs);
    expect(Date.parse(row.expires_at) - Date.now()).toBeLessThan(120_000);
    await age(sessionMaxMs + 1000);
    expect((await s({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
  });

  /** Holds the server's clock at one instant (moved by `advance`) for the length of a test. */
  function fixedClock(): { advance(ms: number): void } {
    const clock = api.ctx.clock;
    let at = Date.now();
    Object.assign(api.ctx, { clock: () => at });
    onTestFinished(() => {
      Object.assign(api.ctx, { clock });
    });
    return {
      advance(ms) {
        at += ms;
      },
    };
  }

  it('backs a username off after a few failures, answering alike for an existing and an unknown name (no 423)', async () => {
    fixedClock();
    const { free } = signInBackoff.perUsername;
    const u = await makeUser('reviewer');
    const unknown = `nobody-${newId().slice(-8)}`;
    const run = async (username: string) => {
      const answers: LightMyRequestResponse[] = [];
      // Each from a new address: this is the username's back-off, not an address's.
      for (let i = 0; i < free + 2; i++) answers.push(await signIn({ username, password: `wrong-${i}` }));
      return answers;
    };
    const known = await run(u.username);
    const other = await run(unknown);
    for (const answers of [known, other]) {
      expect(answers.map((r) => r.statusCode)).toEqual([...Array(free + 1).fill(401), 429]);
    }
    const held = known.at(-1) as LightMyRequestResponse;
    expect(held.json()).toEqual((other.at(-1) as LightMyRequestResponse).json());
    expect(held.json()).toMatchObject({ code: 'rate_limited', retryAfter: 1 });
    expect(held.headers['retry-after']).toBe('1');
    expect(known.at(-2)?.json()).toEqual(other.at(-2)?.json());
    // Held back, even the right password is not checked.
    expect((await signIn({ username: u.username, password })).statusCode).toBe(429);
    const reasons = (await auditRows('sign_in_failed')).map((r) => r.details?.reason);
    expect(reasons).toContain('username_backoff');
    expect(reasons).not.toContain('locked');
  });

  it(`never locks the owner out for good: the wait doubles up to ${signInBackoff.perUsername.maxWaitMs / 60_000} minutes, then the right password lets them in`, async () => {
    const clock = fixedClock();
    const rule = signInBackoff.perUsername;
    const u = await makeUser('admin', { totpRequired: false });
    const waits: number[] = [];
    for (let i = 0; i < rule.free + 14; i++) {
      let res = await signIn({ username: u.username, password: 'guess' });
      if (res.statusCode === 429) {
        const wait = Number(res.headers['retry-after']);
        waits.push(wait);
        clock.advance(wait * 1000);
        res = await signIn({ username: u.username, password: 'guess' });
      }
      expect(res.statusCode).toBe(401);
    }
    expect(waits.slice(0, 4)).toEqual([1, 2, 4, 8]);
    expect(Math.max(...waits)).toBe(rule.maxWaitMs / 1000);
    const held = await signIn({ username: u.username, password });
    expect(held.statusCode).toBe(429);
    clock.advance(Number(held.headers['retry-after']) * 1000);
    expect((await signIn({ username: u.username, password })).statusCode).toBe(200);
    // Signing in ends the username's back-off: the next slip costs nothing.
    expect((await signIn({ username: u.username, password: 'slip' })).statusCode).toBe(401);
    expect((await signIn({ username: u.username, password })).statusCode).toBe(200);
  });

  it('backs off one address trying many usernames; other addresses are not held back', async () => {
    fixedClock();
    const { free } = signInBackoff.perAddress;
    const from = nextAddress();
    const codes: number[] = [];
    for (let i = 0; i < free + 2; i++) {
      codes.push(
        (await signIn({ username: `nobody-${i}-${newId().slice(-6)}`, password: 'guess' }, from)).statusCode,
      );
    }
    expect(codes).toEqual([...Array(free + 1).fill(401), 429]);
    const u = await makeUser('reviewer');
    expect((await signIn({ username: u.username, password }, from)).statusCode).toBe(429);
    expect((await signIn({ username: u.username, password })).statusCode).toBe(200);
    const reasons = (await auditRows('sign_in_failed')).map((r) => r.details?.reason);
    expect(reasons).toContain('address_backoff');
  });

  it("an admin's password reset ends a username's back-off", async () => {
    fixedClock();
    const u = await makeUser('reviewer');
    for (let i = 0; i <= signInBackoff.perUsername.free; i++)
      await signIn({ username: u.username, password: 'x' });
    expect((await signIn({ username: u.username, password })).statusCode).toBe(429);
    const reset = await admin.post(`/api/users/${u.id}/password-reset`, {});
    expect(reset.statusCode).toBe(200);
    const fresh = await signIn({ username: u.username, password: reset.json().password });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().user.mustChangePassword).toBe(true);
  });

  it('keeps neither a typed username nor an address in the back-off table', async () => {
    const typed = `typed-${newId().slice(-8)}`;
    const from = '10.99.1.7';
    await signIn({ username: typed, password: 'x' }, from);
    const rows = await store().db.selectFrom('sign_in_backoff').select('key').execute();
    const keys = rows.map((r) => r.key).join(' ');
    expect(keys).not.toContain(typed);
    expect(keys).not.toContain(from);
    const { createHash } = await import('node:crypto');
    for (const plain of [typed, from]) {
      expect(keys).not.toContain(createHash('sha256').update(plain).digest('hex').slice(0, 32));
    }
  });

  it('limits a user who must use TOTP to enrolment until they confirm a code, then asks for codes and refuses a replay', async () => {
    const created = await admin.post('/api/users', {
      username: `inv-${newId().slice(-10)}`,
      role: 'investigator',
    });
    expect(created.statusCode).toBe(201);
    const { user, password: oneTime } = created.json();
    expect(user.totpRequired).toBe(true);
    expect(oneTime).toMatch(/^[A-Za-z0-9]{20}$/);

    const from = nextAddress();
    const first = await signIn({ username: user.username, password: oneTime }, from);
    expect(first.statusCode).toBe(200);
    expect(first.json().totpEnrolmentRequired).toBe(true);
    const limited = holder(first);
    const elsewhere = await limited({ method: 'GET', url: '/api/tokens' });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().code).toBe('enrolment_required');
    expect((await limited({ method: 'GET', url: '/api/policy' })).statusCode).toBe(403);
    expect((await limited({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);

    // The password change is allowed while enrolling, and ends no session but the others.
    const changed = await limited({
      method: 'POST',
      url: '/api/me/password',
      payload: { current: oneTime, next: 'short' },
    });
    expect(changed.statusCode).toBe(400);
    expect(JSON.stringify(changed.json().errors)).toContain('body.next');
    const next = 'a-synthetic-new-password';
    expect(
      (await limited({ method: 'POST', url: '/api/me/password', payload: { current: 'wrong', next } })).json()
        .errors[0].path,
    ).toBe('body.current');
    expect(
      (await limited({ method: 'POST', url: '/api/me/password', payload: { current: oneTime, next } }))
        .statusCode,
    ).toBe(204);
    expect((await limited({ method: 'GET', url: '/api/session' })).json().user.mustChangePassword).toBe(
      false,
    );

    const confirmEarly = await limited({
      method: 'POST',
      url: '/api/me/totp/confirm',
      payload: { code: '123456' },
    });
    expect(confirmEarly.statusCode).toBe(409);
    const start = await limited({ method: 'POST', url: '/api/me/totp', payload: {} });
    expect(start.statusCode).toBe(200);
    const { secret, uri } = start.json();
    expect(uri).toContain(`secret=${secret}`);
    const now = Date.now();
    const wrongCode = totpCode(secret, now - 10 * 60_000);
    const bad = await limited({ method: 'POST', url: '/api/me/totp/confirm', payload: { code: wrongCode } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.code');
    const ok = await limited({
      method: 'POST',
      url: '/api/me/totp/confirm',
      payload: { code: totpCode(secret, now) },
    });
    expect(ok.statusCode).toBe(204);
    expect((await limited({ method: 'GET', url: '/api/tokens' })).statusCode).toBe(200);
    expect((await limited({ method: 'POST', url: '/api/me/totp', payload: {} })).statusCode).toBe(409);
    expect(await auditRows('totp_enrolled', user.id)).toHaveLength(1);

    // From now on a sign-in needs a code: none, a wrong one, the right one, the same one again.
    const none = await signIn({ username: user.username, password: next }, from);
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('totp_required');
    const wrong = await signIn({ username: user.username, password: next, totp: wrongCode }, from);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('totp_required');
    // The next step's code (a clock a little ahead): the confirmation already used this step's.
    const code = totpCode(secret, now + 30_000);
    const right = await signIn({ username: user.username, password: next, totp: code }, from);
    expect(right.statusCode).toBe(200);
    expect(right.json().totpEnrolmentRequired).toBe(false);
    const replay = await signIn({ username: user.username, password: next, totp: code }, from);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('totp_required');
    const reasons = (await auditRows('sign_in_failed', user.id)).map((r) => r.details?.reason);
    expect(reasons).toEqual(expect.arrayContaining(['totp_missing', 'totp_wrong', 'totp_replayed']));
  });

  it('gives scoped API tokens: shown once, allowed within scope, denied outside it, dead once revoked', async () => {
    const owner = await api.as('admin');
    const bad = await owner.post('/api/tokens', {
      name: 'export script',
      scopes: ['audit:read', 'records:read'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain('records:read');
    expect(bad.json().errors[0].path).toBe('body.scopes.1');

    const made = await owner.post('/api/tokens', {
      name: 'audit script',
      scopes: ['audit:read'],
      expiresInDays: 30,
    });
    expect(made.statusCode).toBe(201);
    const { token, id } = made.json();
    expect(token).toMatch(/^athar_[\w-]{40,}$/);
    const bearer = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      api.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload: payload as InjectOptions['payload'] } : {}),
      });
    expect((await bearer('GET', '/api/audit?limit=1')).statusCode).toBe(200);
    const denied = await bearer('GET', '/api/users');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('forbidden');
    const noMint = await bearer('POST', '/api/tokens', { name: 'child', scopes: ['audit:read'] });
    expect(noMint.statusCode).toBe(403);

    const listed = (await owner.get('/api/tokens')).json().items;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id, name: 'audit script', scopes: ['audit:read'], revokedAt: null });
    expect(listed[0].lastUsedAt).toBeTruthy();
    expect(JSON.stringify(listed)).not.toContain(token);

    const other = await api.as('admin');
    expect((await other.inject({ method: 'DELETE', url: `/api/tokens/${id}` })).statusCode).toBe(404);
    expect((await owner.inject({ method: 'DELETE', url: `/api/tokens/${id}` })).statusCode).toBe(204);
    expect((await bearer('GET', '/api/audit?limit=1')).statusCode).toBe(401);
    expect((await owner.get('/api/tokens')).json().items[0].revokedAt).toBeTruthy();
    expect(await auditRows('token_created', id)).toHaveLength(1);
    expect(await auditRows('token_revoked', id)).toHaveLength(1);
  });

  it('manages users: create with a one-time password, disable (sessions end, tokens stop), audited', async () => {
    const res = await admin.post('/api/users', {
      username: `doc-${newId().slice(-10)}`,
      role: 'documenter',
      displayName: 'Synthetic Documenter',
    });
    expect(res.statusCode).toBe(201);
    const { user, password: oneTime } = res.json();
    expect(user).toMatchObject({
      role: 'documenter',
      mustChangePassword: true,
      totpRequired: false,
      disabled: false,
    });
    expect((await admin.post('/api/users', { username: user.username, role: 'reviewer' })).statusCode).toBe(
      409,
    );
    const badRole = await admin.post('/api/users', { username: 'someone', role: 'family' });
    expect(badRole.statusCode).toBe(400);

    const listed = (await admin.get('/api/users')).json().items;
    expect(listed.some((u: { id: string }) => u.id === user.id)).toBe(true);
    expect(JSON.stringify(listed)).not.toMatch(/hash|"secret"|totpSecret|"password"/i);

    const first = holder(await signIn({ username: user.username, password: oneTime }));
    const chosen = 'a-synthetic-chosen-password';
    expect(
      (await first({ method: 'POST', url: '/api/me/password', payload: { current: oneTime, next: chosen } }))
        .statusCode,
    ).toBe(204);
    const mint = async (s: typeof first) =>
      (
        await s({ method: 'POST', url: '/api/tokens', payload: { name: 'script', scopes: ['records:read'] } })
      ).json().token as string;
    const firstToken = await mint(first);
    expect(firstToken).toBeTruthy();

    const patch = (body: unknown) =>
      admin.inject({
        method: 'PATCH',
        url: `/api/users/${user.id}`,
        payload: body as InjectOptions['payload'],
      });
    const promoted = await patch({ role: 'reviewer', displayName: 'Another Synthetic Name' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().user.role).toBe('reviewer');
    // A new role ends the old credentials; the user signs in again and gets the new role's permissions.
    expect((await first({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    const policyBy = (t: string) =>
      api.app.inject({ method: 'GET', url: '/api/policy', headers: { authorization: `Bearer ${t}` } });
    expect((await policyBy(firstToken)).statusCode).toBe(401);
    const session = holder(await signIn({ username: user.username, password: chosen }));
    expect((await session({ method: 'GET', url: '/api/session' })).json().permissions).toContain(
      'review:decide',
    );
    const token = await mint(session);

    const disabled = await patch({ disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().user.disabled).toBe(true);
    expect((await session({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect((await policyBy(token)).statusCode).toBe(401);
    const again = await signIn({ username: user.username, password: chosen });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('unauthenticated');

    expect((await auditRows('user_created', user.id))[0]?.actorId).toBe(admin.user?.id);
    const updates = await auditRows('user_updated', user.id);
    expect(updates.map((r) => r.details)).toEqual([
      { disabled: true, sessionsEnded: 1, tokensRevoked: 1 },
      {
        role: { from: 'documenter', to: 'reviewer' },
        displayName: 'changed',
        sessionsEnded: 1,
        tokensRevoked: 1,
      },
    ]);
    expect(JSON.stringify(updates)).not.toContain('Synthetic');
    expect((await patch({ role: 'nobody' })).statusCode).toBe(400);
    expect(
      (
        await admin.inject({
          method: 'PATCH',
          url: '/api/users/00000000-0000-7000-8000-000000000000',
          payload: {},
        })
      ).statusCode,
    ).toBe(404);
  });

  it('answers the audit log with filters and a cursor, and audits the reading', async () => {
    const first = await admin.get('/api/audit?action=user_updated&limit=1');
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.items).toHaveLength(1);
    expect(page1.items[0].action).toBe('user_updated');
    expect(page1.nextCursor).toBeTruthy();
    const page2 = (
      await admin.get(`/api/audit?action=user_updated&limit=1&cursor=${page1.nextCursor}`)
    ).json();
    expect(page2.items[0].id).not.toBe(page1.items[0].id);
    expect(Number(page2.items[0].id)).toBeLessThan(Number(page1.items[0].id));
    const since = (await admin.get(`/api/audit?since=2999-01-01`)).json();
    expect(since.items).toHaveLength(0);
    expect((await admin.get('/api/audit?since=yesterday')).statusCode).toBe(400);
    const reads = await auditRows('audit_read');
    expect(reads.length).toBeGreaterThanOrEqual(3);
    expect(reads.some((r) => JSON.stringify(r.details) === '{"filter":{"action":"user_updated"}}')).toBe(
      true,
    );
    expect((await (await api.as('reviewer')).get('/api/audit')).statusCode).toBe(403);
  });

  it('answers the policy as sentences and data to anyone signed in', async () => {
    const res = await (await api.as('liaison')).get('/api/policy');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.sentences[0]).toMatch(/^An admin may /);
    expect(body.roles.liaison).toContain('contacts:read');
    expect(body.permissions['audit:read']).toBe('query the audit log');
    expect((await api.anonymous.get('/api/policy')).statusCode).toBe(401);
  });

  it('describes every access route in /openapi.json', async () => {
    const doc = (await api.anonymous.get('/openapi.json')).json();
    const paths = [
      '/api/session',
      '/api/me/password',
      '/api/me/totp',
      '/api/me/totp/confirm',
      '/api/tokens',
      '/api/tokens/{id}',
      '/api/users',
      '/api/users/{id}',
      '/api/users/{id}/password-reset',
      '/api/account-requests',
      '/api/account-requests/{id}',
      '/api/account-requests/{id}/approve',
      '/api/account-requests/{id}/refuse',
      '/api/audit',
      '/api/policy',
    ];
    for (const p of paths) {
      const ops = Object.values(doc.paths[p] ?? {}) as { summary?: string; tags?: string[] }[];
      expect(ops.length, p).toBeGreaterThan(0);
      for (const op of ops) {
        expect(op.summary, p).toBeTruthy();
        expect(op.tags, p).toContain('access');
      }
    }
  });

  it('never disables or demotes the last admin who can sign in', async () => {
    // Leave one active admin: the harness's own.
    const users = (await admin.get('/api/users')).json().items as {
      id: string;
      role: string;
      disabled: boolean;
    }[];
    const others = users.filter((u) => u.role === 'admin' && !u.disabled && u.id !== admin.user?.id);
    for (const o of others) {
      expect(
        (await admin.inject({ method: 'PATCH', url: `/api/users/${o.id}`, payload: { disabled: true } }))
          .statusCode,
      ).toBe(200);
    }
    const self = `/api/users/${admin.user?.id}`;
    const disable = await admin.inject({ method: 'PATCH', url: self, payload: { disabled: true } });
    expect(disable.statusCode).toBe(409);
    expect(disable.json().code).toBe('conflict');
    const demote = await admin.inject({ method: 'PATCH', url: self, payload: { role: 'reviewer' } });
    expect(demote.statusCode).toBe(409);
    expect((await admin.get('/api/session')).json().user.role).toBe('admin');
    // With a second admin it may step down.
    const second = await admin.post('/api/users', { username: `adm-${newId().slice(-10)}`, role: 'admin' });
    expect(second.statusCode).toBe(201);
    expect(
      (await admin.inject({ method: 'PATCH', url: self, payload: { role: 'reviewer' } })).statusCode,
    ).toBe(200);
  });
});
