import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import {
  importRecords,
  ingest,
  recordCustody,
  syntheticEvent,
  syntheticItem,
  testSigner,
} from '../../../test/ledger-fixtures.js';
import { describeEachDialect } from '../../../test/stores.js';
import { newId } from '../../ids.js';
import { parseCheckpoint } from '../../ledger/checkpoint.js';
import {
  custodyEntry,
  EntryError,
  encodeEntry,
  type LogEntry,
  linkEntries,
  publicEntry,
  type RecordLinkRow,
} from '../../ledger/entries.js';
import { leafHash } from '../../ledger/hash.js';
import { ed25519Verifier, openNote } from '../../ledger/note.js';
import { verifyConsistency, verifyInclusion } from '../../ledger/tree.js';
import type { Db } from '../../store/store.js';
import { appendLogEntry, prepareLogEntries, sequenceLogEntries, sequencePreparedEntries } from './ledger.js';
import { LedgerLog } from './log.js';
import { LedgerSequencer } from './sequencer.js';

const b64 = (s: string) => Buffer.from(s, 'base64');

describeEachDialect('the log', (store, dialect) => {
  const signer = testSigner();

  it('commits an entry with the row it describes, and drops it when that transaction rolls back', async () => {
    const before = await store().db.selectFrom('ledger_queue').select('id').execute();
    const item = syntheticItem();
    const event = syntheticEvent(item);
    await expect(
      store().transaction(async (trx) => {
        await trx.insertInto('evidence_items').values(item).execute();
        await trx.insertInto('custody_events').values(event).execute();
        await appendLogEntry(trx, custodyEntry(event, item));
        throw new Error('synthetic failure after the insert');
      }),
    ).rejects.toThrow('synthetic failure');
    expect(await store().db.selectFrom('ledger_queue').select('id').execute()).toHaveLength(before.length);
    expect(
      await store().db.selectFrom('evidence_items').select('id').where('id', '=', item.id).execute(),
    ).toEqual([]);
  });

  it('refuses a malformed entry inside the caller’s transaction, so the row is not written either', async () => {
    const item = syntheticItem();
    await expect(
      store().transaction(async (trx) => {
        await trx.insertInto('evidence_items').values(item).execute();
        const { created_by: _, ...partial } = item;
        await appendLogEntry(trx, custodyEntry(syntheticEvent(item), partial as typeof item));
      }),
    ).rejects.toThrow(/evidence_items row lacks column created_by/);
    expect(
      await store().db.selectFrom('evidence_items').select('id').where('id', '=', item.id).execute(),
    ).toEqual([]);
  });

  it('sequences staged entries in order, fills in ledger_index, and signs a checkpoint that verifies', async () => {
    const sequencer = new LedgerSequencer(store(), signer, { batchSize: 7 });
    const { item, event } = await ingest(store());
    const view = await recordCustody(store(), item, 'viewed_original');
    await importRecords(store(), 20);
    const { sequenced, size } = await sequencer.flush();
    expect(sequenced).toBe(22);
    expect(size).toBe(22);
    const indexes = await store()
      .db.selectFrom('custody_events')
      .select(['id', 'ledger_index'])
      .where('id', 'in', [event.id, view.id])
      .execute();
    expect(Object.fromEntries(indexes.map((r) => [r.id, Number(r.ledger_index)]))).toEqual({
      [event.id]: 0,
      [view.id]: 1,
    });

    const cp = await sequencer.publish();
    const opened = openNote(cp.note, [ed25519Verifier(signer.key)]);
    expect(opened.ok).toBe(true);
    const parsed = opened.ok ? parseCheckpoint(opened.text) : undefined;
    expect(parsed).toMatchObject({ ok: true, checkpoint: { origin: 'athar.test/log', size: 22 } });

    const log = new LedgerLog(store());
    for (let i = 0; i < 22; i++) {
      const p = await log.inclusionProof(i);
      expect(p.checkpoint).toBe(cp.note);
      expect(verifyInclusion(i, 22, leafHash(Buffer.from(p.entry)), p.proof.map(b64), b64(cp.root))).toBe(
        true,
      );
    }
  });

  it('appends entries sequenced at once after those waiting in the queue, and only when their rows commit', async () => {
    const sequencer = new LedgerSequencer(store(), signer);
    const before = await sequencer.publish();
    const staged = await ingest(store());
    const sequenceNow = (trx: Db, entry: LogEntry) => sequenceLogEntries(trx, store().capabilities, [entry]);
    const { event } = await ingest(store(), undefined, sequenceNow);
    await expect(
      ingest(store(), undefined, async (trx, entry) => {
        await sequenceNow(trx, entry);
        throw new Error('synthetic failure after sequencing');
      }),
    ).rejects.toThrow('synthetic failure');

    expect(await store().db.selectFrom('ledger_queue').select('id').execute()).toEqual([]);
    const indexes = await store()
      .db.selectFrom('custody_events')
      .select(['id', 'ledger_index'])
      .where('id', 'in', [staged.event.id, event.id])
      .execute();
    // The entry that waited in the queue comes first; the one rolled back took no index.
    expect(Object.fromEntries(indexes.map((r) => [r.id, Number(r.ledger_index)]))).toEqual({
      [staged.event.id]: before.size,
      [event.id]: before.size + 1,
    });
    const cp = await sequencer.publish();
    expect(cp.size).toBe(before.size + 2);
    const proof = await new LedgerLog(store()).consistencyProof(before.size, cp.size);
    expect(
      verifyConsistency(before.size, cp.size, b64(before.root), b64(cp.root), proof.proof.map(b64)),
    ).toBe(true);
    for (const i of [before.size, before.size + 1]) {
      const p = await new LedgerLog(store()).inclusionProof(i);
      expect(
        verifyInclusion(i, cp.size, leafHash(Buffer.from(p.entry)), p.proof.map(b64), b64(cp.root)),
      ).toBe(true);
    }
  });

  it('sequences entries prepared beforehand, in slices, as it sequences them at once', async () => {
    const sequencer = new LedgerSequencer(store(), signer);
    const before = await sequencer.publish();
    const link = (recordId: string, personId: string): RecordLinkRow => ({
      id: newId(),
      record_id: recordId,
      person_id: personId,
      linked_at: '2026-12-05T01:00:00.000Z',
      linked_by: null,
      basis: 'model',
      decision_id: null,
      note: 'synthetic',
      unlinked_at: null,
      unlinked_by: null,
      unlink_reason: null,
    });
    const closed = [newId(), newId(), newId()].map((r) => ({
      ...link(r, newId()),
      unlinked_at: '2026-12-05T01:00:00.000Z',
      unlink_reason: 'synthetic move',
    }));
    const person = newId();
    const opened = closed.slice(0, 2).map((c) => link(c.record_id, person));
    const entries = linkEntries(closed, opened);
    // One closed alone, then two moves: three entries, whatever the slice.
    expect(entries.map((e) => e.kind)).toEqual(['link.closed', 'link.created', 'link.created']);
    const prepared = await prepareLogEntries(entries, 2);
    await store().transaction((trx) => sequencePreparedEntries(trx, store().capabilities, prepared));
    const logged = await store()
      .db.selectFrom('ledger_entries')
      .select(['idx', 'entry'])
      .where('idx', '>=', before.size)
      .orderBy('idx')
      .execute();
    expect(logged.map((r) => r.entry)).toEqual(
      entries.map((e) => encodeEntry(publicEntry(e)).toString('utf8')),
    );
    const vouched = await store()
      .db.selectFrom('ledger_rows')
      .select(['row_id', 'idx'])
      .where('table_name', '=', 'record_links')
      .where(
        'row_id',
        'in',
        [...closed, ...opened].map((l) => l.id),
      )
      .execute();
    // Each link is vouched for by the entry that carries it: the lone closed link by the first, a moved record's
    // closed and new links by its move.
    expect(Object.fromEntries(vouched.map((r) => [r.row_id, Number(r.idx) - before.size]))).toEqual({
      [closed[2]?.id as string]: 0,
      [closed[0]?.id as string]: 1,
      [opened[0]?.id as string]: 1,
      [closed[1]?.id as string]: 2,
      [opened[1]?.id as string]: 2,
    });
    const cp = await sequencer.publish();
    expect(cp.size).toBe(before.size + 3);
    for (let i = before.size; i < cp.size; i++) {
      const p = await new LedgerLog(store()).inclusionProof(i);
      expect(
        verifyInclusion(i, cp.size, leafHash(Buffer.from(p.entry)), p.proof.map(b64), b64(cp.root)),
      ).toBe(true);
    }
    // A malformed entry is refused while preparing, before the log is touched.
    await expect(prepareLogEntries([{ ...(entries[0] as LogEntry), at: 'yesterday' }])).rejects.toThrow(
      EntryError,
    );
  });

  it('proves each checkpoint consistent with the next', async () => {
    const sequencer = new LedgerSequencer(store(), signer);
    const first = await sequencer.publish();
    await importRecords(store(), 300);
    const second = await sequencer.publish();
    expect(second.size).toBe(first.size + 300);
    const proof = await new LedgerLog(store()).consistencyProof(first.size, second.size);
    expect(proof.fromCheckpoint).toBe(first.note);
    expect(
      verifyConsistency(first.size, second.size, b64(first.root), b64(second.root), proof.proof.map(b64)),
    ).toBe(true);
  });

  it('keeps a single order when two writers sequence at once', async () => {
    await importRecords(store(), 400);
    const a = new LedgerSequencer(store(), signer, { batchSize: 50 });
    if (dialect === 'sqlite') {
      // SQLite's writers are processes: run the second in one (in-process connections would block the event loop).
      const child = spawn(process.execPath, [
        '--import',
        'tsx',
        path.resolve('test/ledger-flush-child.ts'),
        store().location,
      ]);
      const output = new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
        });
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}`))));
      });
      const [mine, theirs] = await Promise.all([a.flush(), output]);
      expect(mine.sequenced + Number(theirs.trim())).toBeGreaterThanOrEqual(400);
    } else {
      // Two sequencers over one pool: their transactions run on separate connections, side by side.
      const b = new LedgerSequencer(store(), signer, { batchSize: 50 });
      await Promise.all([a.flush(), b.flush()]);
    }
    const rows = await store().db.selectFrom('ledger_entries').select('idx').orderBy('idx').execute();
    expect(rows.map((r) => Number(r.idx))).toEqual(rows.map((_, i) => i));
    expect(await store().db.selectFrom('ledger_queue').select('id').execute()).toEqual([]);
    const cp = await a.publish();
    expect(cp.size).toBe(rows.length);
  });

  it('sequences and checkpoints in the background until stopped', async () => {
    const errors: unknown[] = [];
    const sequencer = new LedgerSequencer(store(), signer, {
      checkpointIntervalMs: 0,
      onError: (e) => errors.push(e),
    });
    const target = (await store().db.selectFrom('ledger_state').select('size').executeTakeFirstOrThrow())
      .size;
    sequencer.start(10);
    await importRecords(store(), 3);
    const log = new LedgerLog(store());
    for (let i = 0; i < 500 && ((await log.latestCheckpoint())?.size ?? 0) < Number(target) + 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await sequencer.stop();
    expect(errors).toEqual([]);
    expect((await log.latestCheckpoint())?.size).toBe(Number(target) + 3);
    expect(await store().db.selectFrom('ledger_queue').select('id').execute()).toEqual([]);
  });

  it('serves tiles and entry bundles that match the entries', async () => {
    const sequencer = new LedgerSequencer(store(), signer);
    const cp = await sequencer.publish();
    const log = new LedgerLog(store());
    const tile = await log.tile(0, 0, Math.min(256, cp.size));
    const bundle = await log.bundle(0, Math.min(256, cp.size));
    expect(tile?.length).toBe(Math.min(256, cp.size) * 32);
    expect(bundle).toBeDefined();
    expect(await log.tile(0, 1000, 1)).toBeUndefined();
    expect(await log.bundle(1000, 1)).toBeUndefined();
  });
});
