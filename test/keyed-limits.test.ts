/**
 * Issue 21, Security 3: the rate-limit counters of family intake give back no address and date no filing. Keys are
 * HMACs under a key of the day (keys/rate-limits/, rotated and deleted by itself), a row keeps only the 6-hour
 * bucket its window ends in, and rows are pruned once that bucket is over. Both dialects; synthetic reports only.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { intakeLimits } from '../src/services/intake/intake.js';
import { dayMs, rateLimitKeysDir } from '../src/services/keys/installation-keys.js';
import { bucketMs, RateLimiter, startPruning } from '../src/services/limits/rate-limiter.js';
import { type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describeEachDialect('keyed rate limits', (store) => {
  let api: ApiHarness;
  // Mid-window, an odd time of day: a window aligned to the request would start here.
  let now = Date.UTC(2026, 2, 14, 13, 37, 21, 500);

  beforeAll(async () => {
    api = await createApi(store(), { ATHAR_CONTACTS_KEY: randomBytes(32).toString('base64') });
    Object.assign(api.ctx, { clock: () => now });
  });
  afterAll(async () => api.close());

  const file = (remoteAddress: string) =>
    api.anonymous.inject({
      method: 'POST',
      url: '/api/public/reports',
      payload: {
        language: 'ar',
        person: { fullName: 'محمد سمير الخطيب' },
        consent: { internalUse: true },
        contact: {},
      },
      remoteAddress,
    });

  const rows = () => store().db.selectFrom('rate_limits').selectAll().execute();

  it('keys counters by an HMAC of the window and the address, and keeps only a 6-hour bucket as their time', async () => {
    const addresses = ['10.20.0.1', '10.20.0.2', '192.0.2.77'];
    for (const a of addresses) {
      const res = await file(a);
      expect(res.statusCode, res.body).toBe(201);
    }
    const stored = await rows();
    expect(stored.length).toBeGreaterThanOrEqual(addresses.length);
    const limiter = new RateLimiter(api.ctx);
    const keys = stored.map((r) => r.key);
    for (const a of addresses) {
      // Whoever reads the table cannot hash candidate addresses to find it: no plain digest of any form is there.
      for (const plain of [sha(a), sha(`intake:file:${a}`)]) {
        expect(keys.some((k) => plain.includes(k) || k.includes(plain.slice(0, 32)))).toBe(false);
      }
      // With the key of the day, the counter is found (and only so).
      expect(keys).toContain(limiter.keyOf('intake:file', a, intakeLimits.filingPerAddress.windowMs, now));
    }
    for (const r of stored) {
      expect(Date.parse(r.bucket) % bucketMs).toBe(0);
      expect(r.bucket).toBe('2026-03-14T12:00:00.000Z');
    }
    // One key a day: the same address in another window, or on another day, is another counter no one can join.
    const w = intakeLimits.filingPerAddress.windowMs;
    const here = limiter.keyOf('intake:file', addresses[0] as string, w, now);
    expect(limiter.keyOf('intake:file', addresses[0] as string, w, now + w)).not.toBe(here);
    expect(limiter.keyOf('intake:file', addresses[0] as string, w, now + dayMs)).not.toBe(here);
    const day = path.join(rateLimitKeysDir(api.ctx.config), '2026-03-14.key');
    expect(fs.statSync(day).mode & 0o777).toBe(0o600);
    // The filing's time is not stored with the counter, to the minute or the hour.
    const report = await store()
      .db.selectFrom('family_reports')
      .select('created_at')
      .executeTakeFirstOrThrow();
    expect(stored.some((r) => r.bucket === report.created_at)).toBe(false);
  });

  it('still limits filings per address, window by window', async () => {
    const address = '10.20.1.1';
    for (let i = 0; i < intakeLimits.filingPerAddress.max; i++)
      expect((await file(address)).statusCode).toBe(201);
    expect((await file(address)).statusCode).toBe(429);
    now += intakeLimits.filingPerAddress.windowMs;
    expect((await file(address)).statusCode).toBe(201);
  });

  it('prunes counters once their bucket is over, and the keys of days gone by', async () => {
    const limiter = new RateLimiter(api.ctx);
    expect((await rows()).length).toBeGreaterThan(0);
    // A server prunes on a schedule (athar serve); here one run of it, a bucket and a day later.
    now += bucketMs + dayMs;
    await file('10.20.2.1');
    now += 3 * dayMs;
    const pruning = startPruning(limiter, (error) => {
      throw error;
    });
    await pruning.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await rows()).toEqual([]);
    const left = fs.readdirSync(rateLimitKeysDir(api.ctx.config));
    expect(left).not.toContain('2026-03-14.key');
  });
});
