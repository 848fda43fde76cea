import { describe, expect, it } from 'vitest';
import { idAtTime, newId } from './ids.js';

describe('newId', () => {
  it('makes UUIDv7s that sort by creation, unique, across many refills of the random pool', () => {
    const before = Date.now();
    const ids = Array.from({ length: 20_000 }, () => newId());
    const after = Date.now();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (let i = 1; i < ids.length; i++) expect((ids[i] as string) > (ids[i - 1] as string)).toBe(true);
    // The time it encodes is the time it was made.
    expect((ids[0] as string) >= idAtTime(before)).toBe(true);
    expect((ids[ids.length - 1] as string) < idAtTime(after + 1)).toBe(true);
  });

  it('draws fresh random bits for each id (no two ids share their last 48 bits)', () => {
    const tails = new Set(Array.from({ length: 5_000 }, () => newId().slice(-12)));
    expect(tails.size).toBe(5_000);
  });
});
