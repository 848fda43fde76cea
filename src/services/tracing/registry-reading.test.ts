import { describe, expect, it } from 'vitest';
import { matchByRecord, positions } from './registry-reading.js';

const link = (record_id: string) => ({ id: `link-${record_id}`, record_id });

describe('finding a run’s records by id', () => {
  it('finds ids read in order by bisection, and says which are not there', () => {
    const ids = ['rec-01', 'rec-03', 'rec-05', 'rec-07', 'rec-09'];
    const at = positions(ids);
    expect(at.inOrder).toBe(true);
    expect(ids.map((id) => at.get(id))).toEqual([0, 1, 2, 3, 4]);
    expect(['rec-00', 'rec-04', 'rec-10'].map((id) => at.get(id))).toEqual([undefined, undefined, undefined]);
  });

  it('matches links to records side by side, leaving out links of records the run did not read', () => {
    const ids = ['rec-01', 'rec-03', 'rec-05', 'rec-07'];
    const links = ['rec-00', 'rec-01', 'rec-05', 'rec-06', 'rec-07', 'rec-08'].map(link);
    const matched = [...matchByRecord(links, positions(ids))].map(([l, r]) => [l.record_id, r]);
    expect(matched).toEqual([
      ['rec-01', 0],
      ['rec-05', 2],
      ['rec-07', 3],
    ]);
  });

  it('falls back to a map where the store orders ids otherwise than JavaScript (UTF-8 against UTF-16)', () => {
    // SQLite's binary order is UTF-8's: U+FFFF before U+10000; JavaScript compares UTF-16 units: the other way.
    const ids = ['a\uffff', 'a\u{10000}', 'b'];
    const at = positions(ids);
    expect(at.inOrder).toBe(false);
    expect(ids.map((id) => at.get(id))).toEqual([0, 1, 2]);
    const matched = [...matchByRecord(ids.map(link), at)].map(([, r]) => r);
    expect(matched).toEqual([0, 1, 2]);
    // Records in order but links not: still every link found.
    const sorted = ['x1', 'x2', 'x3'];
    const links = ['x3', 'x1', 'x2'].map(link);
    expect([...matchByRecord(links, positions(sorted))].map(([, r]) => r)).toEqual([2, 0, 1]);
  });
});
