import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/stores.js';
import { BackoffRepository, RateLimitRepository } from './rate-limits.js';

describeEachDialect('rate limits', (store) => {
  it('counts hits on a key (one key names one window)', async () => {
    const limits = new RateLimitRepository(store().db);
    const bucket = '2026-01-01T00:00:00.000Z';
    expect(await limits.hit('k', bucket)).toBe(1);
    expect(await limits.hit('k', bucket)).toBe(2);
    expect(await limits.hit('other', bucket)).toBe(1);
    expect(await limits.hit('k', bucket)).toBe(3);
  });

  it('loses no count under concurrent hits', async () => {
    const limits = new RateLimitRepository(store().db);
    const bucket = '2026-01-02T00:00:00.000Z';
    await Promise.all(Array.from({ length: 20 }, () => limits.hit('busy', bucket)));
    expect(await limits.hit('busy', bucket)).toBe(21);
  });

  it('prunes counters of buckets that are over, and keeps the others', async () => {
    const limits = new RateLimitRepository(store().db);
    await limits.hit('late', '2026-01-03T00:00:00.000Z');
    expect(await limits.prune('2026-01-02T12:00:00.000Z')).toBeGreaterThan(0);
    expect(await limits.hit('k', '2026-01-01T00:00:00.000Z')).toBe(1);
    expect(await limits.hit('late', '2026-01-03T00:00:00.000Z')).toBe(2);
  });

  it('swaps a back-off row only as it was read, so a concurrent change is never overwritten', async () => {
    const backoff = new BackoffRepository(store().db);
    const first = {
      failures: 1,
      notBefore: '2026-01-01T00:00:00.000Z',
      forgetAfter: '2026-01-02T00:00:00.000Z',
    };
    expect(await backoff.create('b', first)).toBe(true);
    expect(await backoff.create('b', first)).toBe(false);
    const next = { ...first, failures: 2 };
    expect(await backoff.swap('b', first, next)).toBe(true);
    expect(await backoff.swap('b', first, { ...first, failures: 9 })).toBe(false);
    expect(await backoff.read('b')).toEqual(next);
    await backoff.release('b');
    expect((await backoff.read('b'))?.failures).toBe(1);
    expect(await backoff.prune('2026-01-03T00:00:00.000Z')).toBeGreaterThan(0);
    expect(await backoff.read('b')).toBeUndefined();
  });
});
