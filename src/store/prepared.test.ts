import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../test/stores.js';
import { prepared } from './prepared.js';

const metaValue = prepared((db, key: string) => db.selectFrom('meta').select('value').where('key', '=', key));
const either = prepared((db, a: string, b: string) =>
  db
    .selectFrom('meta')
    .select('key')
    .where((eb) => eb.or([eb('key', '=', a), eb('key', '=', b), eb('value', '=', a)]))
    .orderBy('key'),
);

describeEachDialect('prepared queries', (store) => {
  it('compile once and answer each call with its own arguments, like the built query', async () => {
    const db = store().db;
    await db
      .insertInto('meta')
      .values([
        { key: 'prepared-a', value: 'one' },
        { key: 'prepared-b', value: 'two' },
      ])
      .execute();
    expect(await metaValue(db, 'prepared-a')).toEqual([{ value: 'one' }]);
    expect(await metaValue(db, 'prepared-b')).toEqual([{ value: 'two' }]);
    expect(await metaValue(db, 'prepared-none')).toEqual([]);
    // An argument used twice, and arguments in any order.
    expect(await either(db, 'prepared-b', 'prepared-a')).toEqual([
      { key: 'prepared-a' },
      { key: 'prepared-b' },
    ]);
    expect(await either(db, 'one', 'nothing')).toEqual([{ key: 'prepared-a' }]);
    expect(await either(db, 'nothing', 'one')).toEqual([]);
    expect(await either(db, 'prepared-a', 'nothing')).toEqual(
      await db.selectFrom('meta').select('key').where('key', '=', 'prepared-a').execute(),
    );
    // Inside a transaction the transaction's own handle is used (and compiled for it).
    await store().transaction(async (trx) => {
      await trx.updateTable('meta').set({ value: 'three' }).where('key', '=', 'prepared-a').execute();
      expect(await metaValue(trx, 'prepared-a')).toEqual([{ value: 'three' }]);
    });
    expect(await metaValue(db, 'prepared-a')).toEqual([{ value: 'three' }]);
  });

  it('refuses a query that folds an argument into its SQL instead of passing it as a parameter', async () => {
    const folded = prepared(
      (_db, table: string) => sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`,
    );
    await expect(folded(store().db, 'meta')).rejects.toThrow(/does not take all its arguments as parameters/);
  });
});
