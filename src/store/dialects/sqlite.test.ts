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

// SQLite-only: the appender is the SQLite way of committing off the event loop.
describe('SQLite appender', () => {
  it('does not keep a process alive once its appends are committed, even if the store is never closed', async () => {
    const { spawnSync } = await import('node:child_process');
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-appender-'));
    const store = new URL('../store.ts', import.meta.url).href;
    const script = `
      const { openStore } = await import(${JSON.stringify(store)});
      const { sql } = await import('kysely');
      const s = await openStore({ kind: 'sqlite', file: ${JSON.stringify(path.join(dir, 'a.db'))} });
      await s.append([sql\`insert into meta (key, value) values ('appender-test', 'committed')\`.compile(s.db)]);
      console.log('appended');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('appended');
    expect(run.status).toBe(0);
  });
});
