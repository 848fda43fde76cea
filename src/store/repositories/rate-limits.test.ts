import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/stores.js';
import { RateLimitRepository } from './rate-limits.js';

describeEachDialect('rate limits', (store) => {
  it('counts hits in a fixed window and starts again in the next one', async () => {
    const limits = new RateLimitRepository(store().db);
    const window = 60_000;
    const t = Math.floor(Date.UTC(2026, 0, 1) / window) * window;
    expect(await limits.hit('k', window, t)).toBe(1);
    expect(await limits.hit('k', window, t + 10)).toBe(2);
    expect(await limits.hit('k', window, t + window - 1)).toBe(3);
    expect(await limits.hit('other', window, t)).toBe(1);
    expect(await limits.hit('k', window, t + window)).toBe(1);
    expect(await limits.hit('k', window, t + window + 5)).toBe(2);
  });

  it('loses no count under concurrent hits', async () => {
    const limits = new RateLimitRepository(store().db);
    const t = Date.UTC(2026, 0, 2);
    await Promise.all(Array.from({ length: 20 }, () => limits.hit('busy', 60_000, t)));
    expect(await limits.hit('busy', 60_000, t)).toBe(21);
  });

  it('prunes windows that can no longer limit anything', async () => {
    const limits = new RateLimitRepository(store().db);
    expect(await limits.prune('2026-01-01T12:00:00.000Z')).toBeGreaterThan(0);
    expect(await limits.hit('k', 60_000, Date.UTC(2026, 0, 1))).toBe(1);
  });
});
