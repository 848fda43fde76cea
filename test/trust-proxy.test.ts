import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { signInBackoff } from '../src/access/account-rules.js';
import { newId } from '../src/ids.js';
import { AuditRepository } from '../src/store/repositories/audit.js';
import { type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/** Attempts from one address until the back-off refuses: its free failures, one more that starts the wait, one refused. */
const triesUntilHeldBack = signInBackoff.perAddress.free + 2;

/**
 * ATHAR_TRUST_PROXY (issue 21, Security 7): only the configured proxies may name the client's address. A peer that
 * is not one of them and sends X-Forwarded-For is still counted by its own address, so a forged header lifts no
 * per-address limit. Usernames are synthetic and unknown.
 */
describeEachDialect('trusted proxies', (store) => {
  let trusting: ApiHarness;
  let byHops: ApiHarness;

  beforeAll(async () => {
    // `true` now means a proxy on this machine (loopback), not every peer.
    trusting = await createApi(store(), { ATHAR_TRUST_PROXY: 'true' });
    byHops = await createApi(store(), { ATHAR_TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await trusting.close();
    await byHops.close();
  });

  function signIn(api: ApiHarness, from: string, forwardedFor?: string): Promise<LightMyRequestResponse> {
    return api.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: `nobody-${newId().slice(-10)}`, password: 'a synthetic guess' },
      remoteAddress: from,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });
  }

  function fixClock(api: ApiHarness) {
    const clock = api.ctx.clock;
    const fixed = Date.now();
    Object.assign(api.ctx, { clock: () => fixed });
    onTestFinished(() => {
      Object.assign(api.ctx, { clock });
    });
  }

  it('counts an untrusted peer by its own address, whatever X-Forwarded-For it forges', async () => {
    fixClock(trusting);
    const peer = `198.51.100.${1 + Math.floor(Math.random() * 200)}`;
    const codes: number[] = [];
    for (let i = 0; i < triesUntilHeldBack; i++) {
      codes.push((await signIn(trusting, peer, `203.0.113.${i + 1}`)).statusCode);
    }
    expect(codes.slice(0, -1).every((c) => c === 401)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    // The audit names the peer, never the forged addresses.
    const rows = await new AuditRepository(store().db).query({ action: 'sign_in_failed', limit: 500 });
    const forged = rows.filter((r) => r.ip?.startsWith('203.0.113.'));
    expect(forged).toEqual([]);
    expect(rows.filter((r) => r.ip === peer).length).toBe(triesUntilHeldBack);
  });

  it("takes the client's address from a trusted proxy, right to left: a client's own forged entry is skipped", async () => {
    fixClock(trusting);
    const client = `192.0.2.${1 + Math.floor(Math.random() * 200)}`;
    // The client forged the first entry; the loopback proxy appended the address it saw.
    const res = await signIn(trusting, '127.0.0.1', `203.0.113.250, ${client}`);
    expect(res.statusCode).toBe(401);
    const [row] = await new AuditRepository(store().db).query({ action: 'sign_in_failed', limit: 1 });
    expect(row?.ip).toBe(client);
  });

  it('with a hop count, trusts that many hops and no more', async () => {
    fixClock(byHops);
    const proxy = `198.51.100.${1 + Math.floor(Math.random() * 200)}`;
    const codes: number[] = [];
    // Every request comes through the one proxy, which appends what it saw; the forged part is ignored.
    for (let i = 0; i < triesUntilHeldBack; i++) {
      codes.push((await signIn(byHops, proxy, `203.0.113.${i + 1}, 192.0.2.77`)).statusCode);
    }
    expect(codes.at(-1)).toBe(429);
    const [row] = await new AuditRepository(store().db).query({ action: 'sign_in_failed', limit: 1 });
    expect(row?.ip).toBe('192.0.2.77');
  });
});
