import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiClient, type ApiHarness, createApi } from '../../../../test/api.js';
import { describeEachDialect } from '../../../../test/stores.js';
import { hashPassword } from '../../../access/passwords.js';
import type { Role } from '../../../access/roles.js';
import { secretDigest } from '../../../access/secrets.js';
import { tokenLifetime } from '../../../access/sessions.js';
import { newId } from '../../../ids.js';
import { AuditRepository } from '../../../store/repositories/audit.js';
import { CredentialRepository } from '../../../store/repositories/credentials.js';
import { UserRepository } from '../../../store/repositories/users.js';

// Synthetic accounts only (issue 21, Security 1): credentials end with every recovery step.
const password = 'synthetic-password-for-tests';
const day = 24 * 60 * 60 * 1000;

describeEachDialect('credentials that end', (store) => {
  let api: ApiHarness;
  let admin: ApiClient;
  let hash: string;
  let address = 0;
  const nextAddress = () => `10.9.${Math.floor(++address / 250)}.${address % 250}`;

  beforeAll(async () => {
    api = await createApi(store());
    admin = await api.as('admin');
    hash = await hashPassword(password);
  });
  afterAll(async () => api.close());

  async function makeUser(role: Role, mustChangePassword = false) {
    const username = `c-${newId().slice(-12)}`;
    const user = await new UserRepository(store().db).create({
      username,
      passwordHash: hash,
      role,
      mustChangePassword,
    });
    return { id: user.id, username };
  }

  /** Signs in for real and answers a caller holding the cookie and CSRF token. */
  async function signedIn(username: string, pass = password) {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username, password: pass },
      remoteAddress: nextAddress(),
    });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'athar_session')?.value;
    const csrf = res.json().csrfToken as string;
    return (options: InjectOptions) =>
      api.app.inject({
        ...options,
        headers: { cookie: `athar_session=${cookie}`, 'x-csrf-token': csrf, ...(options.headers ?? {}) },
      });
  }

  /** A token made through the API by a session of the user. */
  async function tokenOf(session: (o: InjectOptions) => Promise<LightMyRequestResponse>) {
    const res = await session({
      method: 'POST',
      url: '/api/tokens',
      payload: { name: 'script', scopes: ['records:read'] },
    });
    expect(res.statusCode).toBe(201);
    const token = res.json().token as string;
    return {
      id: res.json().id as string,
      expiresAt: res.json().expiresAt as string,
      use: () =>
        api.app.inject({ method: 'GET', url: '/api/records', headers: { authorization: `Bearer ${token}` } }),
    };
  }

  it('lets a session with a one-time password only change it, read the session and sign out', async () => {
    const u = await makeUser('liaison', true);
    const s = await signedIn(u.username);
    for (const [method, url, payload] of [
      ['GET', '/api/records', undefined],
      ['GET', '/api/reports', undefined],
      ['GET', '/api/tokens', undefined],
      ['POST', '/api/tokens', { name: 'x', scopes: ['reports:read'], expiresInDays: 365 }],
      ['POST', '/api/me/totp', undefined],
    ] as const) {
      const res = await s({ method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('password_change_required');
    }
    expect((await s({ method: 'GET', url: '/api/session' })).json().user.mustChangePassword).toBe(true);
    const next = 'a-synthetic-new-password';
    expect(
      (await s({ method: 'POST', url: '/api/me/password', payload: { current: password, next } })).statusCode,
    ).toBe(204);
    expect((await s({ method: 'GET', url: '/api/records' })).statusCode).toBe(200);
  });

  it('refuses the API token of a user who must change their password', async () => {
    const u = await makeUser('documenter');
    const token = await tokenOf(await signedIn(u.username));
    expect((await token.use()).statusCode).toBe(200);
    await new UserRepository(store().db).setPassword(u.id, hash, true);
    expect((await token.use()).statusCode).toBe(401);
  });

  it('ends every other session and every token on a password change', async () => {
    const u = await makeUser('reviewer');
    const kept = await signedIn(u.username);
    const other = await signedIn(u.username);
    const token = await tokenOf(other);
    const next = 'another-synthetic-password';
    expect(
      (await kept({ method: 'POST', url: '/api/me/password', payload: { current: password, next } }))
        .statusCode,
    ).toBe(204);
    expect((await kept({ method: 'GET', url: '/api/session' })).statusCode).toBe(200);
    expect((await other({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect((await token.use()).statusCode).toBe(401);
    const [row] = await new AuditRepository(store().db).query({
      action: 'password_changed',
      subjectId: u.id,
    });
    expect(row?.details).toEqual({ sessionsEnded: 1, tokensRevoked: 1 });
  });

  it.each([
    ['an admin reset', (id: string) => admin.post(`/api/users/${id}/password-reset`, { resetTotp: true })],
    [
      'disabling',
      (id: string) => admin.inject({ method: 'PATCH', url: `/api/users/${id}`, payload: { disabled: true } }),
    ],
    [
      'a role change',
      (id: string) =>
        admin.inject({ method: 'PATCH', url: `/api/users/${id}`, payload: { role: 'reviewer' } }),
    ],
    [
      'a TOTP requirement',
      (id: string) =>
        admin.inject({ method: 'PATCH', url: `/api/users/${id}`, payload: { totpRequired: true } }),
    ],
  ])('ends every session and token on %s, for good', async (_what, act) => {
    const u = await makeUser('documenter');
    const session = await signedIn(u.username);
    const token = await tokenOf(session);
    expect((await act(u.id)).statusCode).toBe(200);
    expect((await session({ method: 'GET', url: '/api/session' })).statusCode).toBe(401);
    expect((await token.use()).statusCode).toBe(401);
    // Undoing the change brings no credential back.
    await admin.inject({
      method: 'PATCH',
      url: `/api/users/${u.id}`,
      payload: { disabled: false, role: 'documenter', totpRequired: false },
    });
    expect((await token.use()).statusCode).toBe(401);
    const tokens = await new CredentialRepository(store().db).tokensOf(u.id);
    expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
  });

  it('ends tokens by default and never lets one live longer than the maximum', async () => {
    const u = await makeUser('documenter');
    const s = await signedIn(u.username);
    const before = Date.now();
    const token = await tokenOf(s);
    const lifetime = Date.parse(token.expiresAt) - before;
    expect(Math.abs(lifetime - tokenLifetime.defaultDays * day)).toBeLessThan(60_000);
    const tooLong = await s({
      method: 'POST',
      url: '/api/tokens',
      payload: { name: 'x', scopes: ['records:read'], expiresInDays: tokenLifetime.maxDays + 1 },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(JSON.stringify(tooLong.json().errors)).toContain('body.expiresInDays');

    // A token stored without an expiry (made before migration 0014) is nobody.
    const raw = `athar_${newId()}`;
    await store()
      .db.insertInto('api_tokens')
      .values({
        id: newId(),
        user_id: u.id,
        name: 'old',
        token_hash: secretDigest(raw),
        scopes: '["records:read"]',
        created_at: new Date().toISOString(),
        expires_at: null,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    const old = await api.app.inject({
      method: 'GET',
      url: '/api/records',
      headers: { authorization: `Bearer ${raw}` },
    });
    expect(old.statusCode).toBe(401);
  });

  it("lets an admin list and revoke a user's tokens, with audit rows", async () => {
    const u = await makeUser('documenter');
    const s = await signedIn(u.username);
    const one = await tokenOf(s);
    const two = await tokenOf(s);
    const three = await tokenOf(s);

    const listed = await admin.get(`/api/users/${u.id}/tokens`);
    expect(listed.statusCode).toBe(200);
    expect(
      listed
        .json()
        .items.map((t: { id: string }) => t.id)
        .sort(),
    ).toEqual([one.id, two.id, three.id].sort());
    expect(JSON.stringify(listed.json())).not.toContain('athar_');

    expect(
      (await admin.inject({ method: 'DELETE', url: `/api/users/${u.id}/tokens/${one.id}` })).statusCode,
    ).toBe(204);
    expect((await one.use()).statusCode).toBe(401);
    expect((await two.use()).statusCode).toBe(200);
    const all = await admin.inject({ method: 'DELETE', url: `/api/users/${u.id}/tokens` });
    expect(all.json()).toEqual({ revoked: 2 });
    expect((await two.use()).statusCode).toBe(401);
    expect((await three.use()).statusCode).toBe(401);
    expect(
      (await admin.inject({ method: 'DELETE', url: `/api/users/${u.id}/tokens/${one.id}` })).statusCode,
    ).toBe(404);

    const audit = new AuditRepository(store().db);
    const reads = await audit.query({ action: 'tokens_listed', subjectId: u.id });
    expect(reads).toHaveLength(1);
    expect(reads[0]?.actorId).toBe(admin.user?.id);
    for (const t of [one, two, three]) {
      const [row] = await audit.query({ action: 'token_revoked', subjectId: t.id });
      expect(row?.details).toEqual({ owner: u.id, by: 'admin' });
    }
    // Not for anyone else.
    const other = await api.as('investigator');
    expect((await other.get(`/api/users/${u.id}/tokens`)).statusCode).toBe(403);
  });
});
