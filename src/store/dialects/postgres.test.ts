import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { prepareReads, withSessionSetting } from './postgres.js';

// Pure: a stand-in client records what would be sent (the dialect suites run the real thing on PostgreSQL).
describe('PostgreSQL prepared reads', () => {
  function client() {
    const sent: unknown[][] = [];
    const c = { query: (...args: unknown[]) => sent.push(args) } as unknown as pg.PoolClient;
    prepareReads(c);
    return { c, sent };
  }

  it('names parameterised reads, the same name for the same text', () => {
    const { c, sent } = client();
    c.query('select * from persons where id = $1', ['a']);
    c.query('select * from persons where id = $1', ['b']);
    const [first, second] = sent.map((args) => args[0] as { name: string; text: string; values: unknown[] });
    expect(first?.name).toMatch(/^athar_[0-9a-f]{20}$/);
    expect(second).toEqual({ name: first?.name, text: 'select * from persons where id = $1', values: ['b'] });
  });

  it('leaves writes, texts without parameters, several statements and callbacks as they were', () => {
    const { c, sent } = client();
    const callback = () => {};
    c.query('insert into t values ($1)', [1]);
    c.query('select 1');
    c.query('select $1; select 2', [1]);
    (c.query as (...args: unknown[]) => unknown)('select $1', [1], callback);
    expect(sent).toEqual([
      ['insert into t values ($1)', [1]],
      ['select 1'],
      ['select $1; select 2', [1]],
      ['select $1', [1], callback],
    ]);
  });
});

describe('PostgreSQL session settings', () => {
  it('adds a setting to the options a URL holds already, and keeps the rest of it', () => {
    const url = withSessionSetting(
      'postgres://athar:s3cret@db.example:5433/athar?options=-c%20search_path%3Dt_1&sslmode=require',
      'default_transaction_read_only=on',
    );
    const parsed = new URL(url);
    expect(parsed.searchParams.get('options')).toBe('-c search_path=t_1 -c default_transaction_read_only=on');
    expect(parsed.searchParams.get('sslmode')).toBe('require');
    expect([parsed.username, parsed.password, parsed.host, parsed.pathname]).toEqual([
      'athar',
      's3cret',
      'db.example:5433',
      '/athar',
    ]);
    expect(new URL(withSessionSetting('postgres://db/athar', 'x=1')).searchParams.get('options')).toBe(
      '-c x=1',
    );
  });
});
