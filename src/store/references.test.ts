import { expect, it } from 'vitest';
import { importRecords, tick } from '../../test/ledger-fixtures.js';
import { describeEachDialect } from '../../test/stores.js';
import { newId } from '../ids.js';
import type { Store } from './store.js';

// The references the tracing loop writes in bulk are foreign keys on SQLite and per-statement checks on
// PostgreSQL (migration 0024): both refuse the same rows, with SQLite's or PostgreSQL's foreign key error.
const refused = (dialect: string) =>
  dialect === 'postgres'
    ? { code: '23503', message: expect.stringMatching(/violates (its|the) reference/) }
    : { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' };

async function person(store: Store): Promise<string> {
  const id = newId();
  await store.db.insertInto('persons').values({ id, created_at: tick(), created_by: null }).execute();
  return id;
}

function pair(a: string, b: string) {
  const [recordA, recordB] = a < b ? [a, b] : [b, a];
  return {
    id: newId(),
    record_a: recordA,
    record_b: recordB,
    probability: 0.7,
    match_weight: 1.2,
    model_version: 'synthetic-test',
    explanation: null,
    status: 'open',
    created_at: tick(),
    priority: 0,
  };
}

function link(recordId: string, personId: string) {
  return {
    id: newId(),
    record_id: recordId,
    person_id: personId,
    linked_at: tick(),
    linked_by: null,
    basis: 'model',
    decision_id: null,
    note: null,
    unlinked_at: null,
    unlinked_by: null,
    unlink_reason: null,
  };
}

/** The model's provenance of a link, resting on `matched`. */
function provenance(linkId: string, matched: string) {
  return {
    link_id: linkId,
    run_id: newId(),
    model_version: 'synthetic-test',
    matched_record: matched,
    probability: 0.99,
    match_weight: 9,
    explanation: null,
  };
}

describeEachDialect('references written in bulk', (store, dialect) => {
  it('refuses review pairs, links and provenance naming rows that do not exist, and nothing of the statement stays', async () => {
    const [a, b] = await importRecords(store(), 2);
    const p = await person(store());
    const ghost = newId();
    await store().db.insertInto('candidate_pairs').values(pair(a!.id, b!.id)).execute();
    const before = await store().db.selectFrom('candidate_pairs').select('id').execute();
    // One good row and one naming a missing record, in one statement: neither is written.
    await expect(
      store()
        .db.insertInto('candidate_pairs')
        .values([pair(b!.id, `${a!.id}x`), pair(a!.id, ghost)])
        .execute(),
    ).rejects.toMatchObject(refused(dialect));
    expect(await store().db.selectFrom('candidate_pairs').select('id').execute()).toHaveLength(before.length);

    await expect(
      store().db.insertInto('record_links').values(link(a!.id, ghost)).execute(),
    ).rejects.toMatchObject(refused(dialect));
    await expect(
      store().db.insertInto('record_links').values(link(ghost, p)).execute(),
    ).rejects.toMatchObject(refused(dialect));
    const good = link(a!.id, p);
    await store().db.insertInto('record_links').values(good).execute();
    await expect(
      store().db.insertInto('model_links').values(provenance(ghost, b!.id)).execute(),
    ).rejects.toMatchObject(refused(dialect));
    await store().db.insertInto('model_links').values(provenance(good.id, b!.id)).execute();

    // A reference changed to a missing row is refused too; changed to a row that exists, it is not.
    await expect(
      store().db.updateTable('record_links').set({ person_id: ghost }).where('id', '=', good.id).execute(),
    ).rejects.toMatchObject(refused(dialect));
    const other = await person(store());
    await store()
      .db.updateTable('record_links')
      .set({ person_id: other })
      .where('id', '=', good.id)
      .execute();
  });

  it('refuses deleting a record, person or link still named, and lets one nobody names go', async () => {
    const [a, b, loose] = await importRecords(store(), 3);
    const p = await person(store());
    const l = link(a!.id, p);
    await store().db.insertInto('record_links').values(l).execute();
    await store().db.insertInto('candidate_pairs').values(pair(a!.id, b!.id)).execute();
    await store().db.insertInto('model_links').values(provenance(l.id, b!.id)).execute();
    // b is named only by the review pair (record_b), a by the pair and the link.
    await expect(store().db.deleteFrom('records').where('id', '=', b!.id).execute()).rejects.toMatchObject(
      refused(dialect),
    );
    await expect(store().db.deleteFrom('persons').where('id', '=', p).execute()).rejects.toMatchObject(
      refused(dialect),
    );
    await expect(
      store().db.deleteFrom('record_links').where('id', '=', l.id).execute(),
    ).rejects.toMatchObject(refused(dialect));
    await expect(
      store().db.updateTable('records').set({ id: newId() }).where('id', '=', b!.id).execute(),
    ).rejects.toMatchObject(refused(dialect));
    expect(
      await store().db.selectFrom('records').select('id').where('id', '=', b!.id).execute(),
    ).toHaveLength(1);
    await store().db.deleteFrom('records').where('id', '=', loose!.id).execute();
    expect(await store().db.selectFrom('records').select('id').where('id', '=', loose!.id).execute()).toEqual(
      [],
    );
  });

  if (dialect === 'postgres') {
    it('never lets a check pass against a record whose deletion has not committed yet', async () => {
      const [a, b] = await importRecords(store(), 2);
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted: () => void = () => {};
      const insertedNow = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      // A writer names record b and holds its transaction open; a deleter of b waits for it, then sees the pair.
      const writer = store().transaction(async (trx) => {
        await trx.insertInto('candidate_pairs').values(pair(a!.id, b!.id)).execute();
        inserted();
        await held;
      });
      await insertedNow;
      let deleterDone = false;
      const deleter = store()
        .db.deleteFrom('records')
        .where('id', '=', b!.id)
        .execute()
        .finally(() => {
          deleterDone = true;
        });
      // Its failure is taken at once: it may come before the writer's commit is seen here, and a rejection no one
      // has taken yet is an unhandled one to the test runner (it failed a run once so).
      const refused = deleter.then(
        () => undefined,
        (error: unknown) => error,
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(deleterDone).toBe(false);
      release();
      await writer;
      expect(await refused).toMatchObject({ code: '23503' });
      expect(
        await store().db.selectFrom('records').select('id').where('id', '=', b!.id).execute(),
      ).toHaveLength(1);
    });
  }
});
