import { describe, expect, it } from 'vitest';
import { CountTable } from './count-table.js';

describe('CountTable', () => {
  it('counts like a map, through growth and back from shared memory', () => {
    const table = new CountTable(4);
    const expected = new Map<number, number>();
    for (let i = 0; i < 5000; i++) {
      const key = ((i * 7919) % 1237) * 4294967296 + (i % 97);
      table.add(key, 1);
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    table.add(3, 1);
    table.add(3, -1);
    for (const [key, count] of expected) expect(table.get(key)).toBe(count);
    expect(table.get(3)).toBe(0);
    expect(table.get(123456789)).toBe(0);
    const copy = CountTable.from(table.shared());
    for (const [key, count] of expected) expect(copy.get(key)).toBe(count);
  });
});
