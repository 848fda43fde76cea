import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StatementCache } from './sqlite.js';

// SQLite-only by nature: the cache wraps better-sqlite3 (PostgreSQL has no counterpart to test).
describe('SQLite statement cache', () => {
  function open() {
    const raw = new SQLite(':memory:');
    raw.exec('create table t (n integer)');
    raw.prepare('insert into t (n) values (1), (2), (3)').run();
    return raw;
  }

  it('prepares each SQL text once', () => {
    const cache = new StatementCache(open());
    const a = cache.prepare('select n from t order by n');
    const b = cache.prepare('select n from t order by n');
    expect(b).toBe(a);
    expect(b.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(cache.size).toBe(1);
    cache.close();
  });

  it('never hands out a statement that is being iterated', () => {
    const cache = new StatementCache(open());
    const sqlText = 'select n from t order by n';
    const streaming = cache.prepare(sqlText);
    const rows = streaming.iterate();
    expect(rows.next().value).toEqual({ n: 1 });
    const other = cache.prepare(sqlText);
    expect(other).not.toBe(streaming);
    expect(other.all()).toHaveLength(3);
    expect(rows.next().value).toEqual({ n: 2 });
    rows.return?.();
    expect(cache.prepare(sqlText)).toBe(streaming);
    cache.close();
  });

  it('keeps at most its limit, dropping the least recently used', () => {
    const cache = new StatementCache(open(), 2);
    const one = cache.prepare('select 1');
    cache.prepare('select 2');
    cache.prepare('select 1');
    cache.prepare('select 3');
    expect(cache.size).toBe(2);
    expect(cache.prepare('select 1')).toBe(one);
    cache.close();
  });
});
