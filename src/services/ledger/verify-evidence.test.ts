import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { evidenceContext } from '../../../test/evidence-context.js';
import { mkdirs, syntheticPhoto } from '../../../test/evidence-files.js';
import { importRecords } from '../../../test/ledger-fixtures.js';
import { createTestStore, describeEachDialect } from '../../../test/stores.js';
import { SharpImageDecoder } from '../../evidence/sharp-image-decoder.js';
import { ed25519Signer } from '../../ledger/note.js';
import type { Store } from '../../store/store.js';
import { EvidenceCatalogue } from '../evidence/evidence.js';
import { ingest } from '../ingest/ingest.js';
import { ensureLedgerKey, ledgerKeyFile } from './key.js';
import { LedgerLog } from './log.js';
import { LedgerSequencer } from './sequencer.js';
import { verifyAll } from './verify.js';

/**
 * Issue 21, Reliability 2: what `athar verify` catches beyond the covered rows. Synthetic photos and numbers only.
 */

const decoder = new SharpImageDecoder();
type Ctx = Awaited<ReturnType<typeof evidenceContext>>;
interface World {
  ctx: Ctx;
  store: Store & { dispose(): Promise<void> };
  sequencer: LedgerSequencer;
  items: { id: string; sha256: string; thumbnail_sha256: string | null; blurred_sha256: string | null }[];
  annotation: string;
  records: Awaited<ReturnType<typeof importRecords>>;
}

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) {
    await w.store.dispose();
    w.ctx.dispose();
  }
});

async function world(dialect: 'sqlite' | 'postgres'): Promise<World> {
  const store = await createTestStore(dialect);
  const ctx = await evidenceContext(store);
  fs.mkdirSync(ctx.config.dataDir, { recursive: true });
  const key = await ensureLedgerKey(ctx.config, store);
  const sequencer = new LedgerSequencer(store, ed25519Signer(key));
  const folder = mkdirs(ctx.dir, 'synthetic-folder');
  fs.writeFileSync(path.join(folder, 'one.jpg'), await syntheticPhoto(301, 400, 300));
  fs.writeFileSync(path.join(folder, 'two.png'), await syntheticPhoto(302, 300, 300, 'png'));
  await ingest(ctx, {
    paths: [folder],
    actor: 'tester',
    decoder,
    custodian: 'synthetic custodian',
    note: 'n',
  });
  const items = await store.db
    .selectFrom('evidence_items')
    .select(['id', 'sha256', 'thumbnail_sha256', 'blurred_sha256'])
    .orderBy('id')
    .execute();
  const catalogue = new EvidenceCatalogue(ctx);
  const annotation = await catalogue.annotate({
    evidence: (items[0] as World['items'][number]).id,
    kind: 'detainee_number',
    value: '215/3456',
    actor: 'tester',
  });
  const records = await importRecords(store, 3);
  await sequencer.publish();
  const w = { ctx, store, sequencer, items, annotation: annotation.id, records };
  worlds.push(w);
  return w;
}

const verify = (w: World, extra: Parameters<typeof verifyAll>[1] = {}) =>
  verifyAll({ store: w.store, blobs: w.ctx.blobs, config: w.ctx.config }, extra);
const codes = (r: Awaited<ReturnType<typeof verify>>) => [...new Set(r.problems.map((p) => p.code))].sort();

describeEachDialect('athar verify: evidence beyond the covered rows', (_store, dialect) => {
  it('finds real ingests, annotations and records intact', async () => {
    const w = await world(dialect);
    const report = await verify(w);
    expect(report.problems).toEqual([]);
    expect(report.evidence).toMatchObject({ items: 2, annotations: 1, locations: 2 });
    expect(report.blobs.stray).toBe(0);
    // Re-deriving PDQ and both views from the originals gives what ingest stored.
    const again = await verify(w, { recompute: 'all', decoder });
    expect(again.problems).toEqual([]);
    expect(again.evidence.recomputed).toBe(2);
  });

  const first = (w: World) => w.items[0] as World['items'][number];
  const second = (w: World) => w.items[1] as World['items'][number];
  const cases: [string, (w: World) => Promise<unknown>, string][] = [
    [
      'an annotation value edited',
      (w) =>
        w.store.db
          .updateTable('annotations')
          .set({ value: '216/9999', value_key: '2169999' })
          .where('id', '=', w.annotation)
          .execute(),
      'annotation_changed',
    ],
    [
      'an annotation search key edited',
      (w) =>
        w.store.db
          .updateTable('annotations')
          .set({ value_key: '1' })
          .where('id', '=', w.annotation)
          .execute(),
      'annotation_changed',
    ],
    [
      'an annotation deleted',
      (w) => w.store.db.deleteFrom('annotations').where('id', '=', w.annotation).execute(),
      'annotation_deleted',
    ],
    [
      'an annotation forged',
      (w) =>
        w.store.db
          .insertInto('annotations')
          .values({
            id: 'forged-annotation',
            evidence_id: second(w).id,
            kind: 'detainee_number',
            value: '999',
            value_key: '999',
            read_from: null,
            record_id: null,
            created_at: new Date().toISOString(),
            created_by: 'tester',
          })
          .execute(),
      'annotation_unlogged',
    ],
    [
      'an annotation linked to a record by hand',
      (w) =>
        w.store.db
          .updateTable('annotations')
          .set({ record_id: (w.records[0] as { id: string }).id })
          .where('id', '=', w.annotation)
          .execute(),
      'annotation_link',
    ],
    [
      "a thumbnail aimed at another item's",
      (w) =>
        w.store.db
          .updateTable('evidence_items')
          .set({ thumbnail_sha256: second(w).thumbnail_sha256 })
          .where('id', '=', first(w).id)
          .execute(),
      'view_pointer',
    ],
    [
      "a blurred view aimed at another item's",
      (w) =>
        w.store.db
          .updateTable('evidence_items')
          .set({ blurred_sha256: second(w).blurred_sha256 })
          .where('id', '=', first(w).id)
          .execute(),
      'view_pointer',
    ],
    [
      'the graphic flag cleared',
      (w) =>
        w.store.db.updateTable('evidence_items').set({ graphic: 0 }).where('id', '=', first(w).id).execute(),
      'graphic_changed',
    ],
    [
      'a PDQ hash changed',
      (w) =>
        w.store.db
          .updateTable('evidence_items')
          .set({ pdq: '0'.repeat(64) })
          .where('id', '=', first(w).id)
          .execute(),
      'derived_changed',
    ],
    [
      'a location path edited',
      (w) =>
        w.store.db
          .updateTable('evidence_locations')
          .set({ path: '/elsewhere/one.jpg' })
          .where('evidence_id', '=', first(w).id)
          .execute(),
      'location_changed',
    ],
    [
      'a location redirected to another path (bytes and key)',
      (w) => {
        const bytes = Buffer.from('/elsewhere/one.jpg');
        return w.store.db
          .updateTable('evidence_locations')
          .set({
            path: '/elsewhere/one.jpg',
            path_b64: bytes.toString('base64'),
            path_key: sql`${'x'}`,
          })
          .where('evidence_id', '=', first(w).id)
          .execute();
      },
      'location_changed',
    ],
    [
      'a run’s custodian edited',
      (w) => w.store.db.updateTable('ingest_runs').set({ custodian: 'someone else' }).execute(),
      'run_changed',
    ],
    [
      'a custody event’s ledger index edited',
      (w) =>
        w.store.db
          .updateTable('custody_events')
          .set({ ledger_index: 0 })
          .where('kind', '=', 'annotated')
          .execute(),
      'ledger_index',
    ],
    [
      'a record’s matching name edited',
      (w) =>
        w.store.db
          .updateTable('records')
          .set({ name_normalized: 'someone else' })
          .where('id', '=', (w.records[1] as { id: string }).id)
          .execute(),
      'derived_changed',
    ],
    [
      'a checkpoint deleted',
      async (w) => {
        await importRecords(w.store, 1);
        await w.sequencer.publish();
        const latest = (await new LedgerLog(w.store).latestCheckpoint()) as { size: number };
        await w.store.db.deleteFrom('ledger_checkpoints').where('size', '=', latest.size).execute();
      },
      'checkpoint_deleted',
    ],
    ['the key file removed', async (w) => fs.rmSync(ledgerKeyFile(w.ctx.config)), 'key_file_missing'],
    [
      'the recorded key removed',
      (w) => w.store.db.deleteFrom('meta').where('key', '=', 'ledger.vkey').execute(),
      'key_unrecorded',
    ],
  ];
  it.each(cases)('names %s', async (_title, tamper, code) => {
    const w = await world(dialect);
    await tamper(w);
    const report = await verify(w);
    expect(report.ok).toBe(false);
    expect(codes(report)).toContain(code);
  });

  it('notes stray blobs without failing', async () => {
    const w = await world(dialect);
    await w.ctx.blobs.put(Buffer.from('a synthetic blob no item names'));
    const report = await verify(w);
    expect(report.ok).toBe(true);
    expect(report.blobs.stray).toBe(1);
    expect(report.notes.join(' ')).toContain('belong to no evidence item');
  });

  it('with a checkpoint kept elsewhere, fails a database rolled back to an older state', async () => {
    const w = await world(dialect);
    const older = (await new LedgerLog(w.store).latestCheckpoint()) as { note: string; size: number };
    await importRecords(w.store, 2);
    const newer = await w.sequencer.publish();
    // The newer checkpoint proves the log as it stands.
    expect((await verify(w, { checkpoint: newer.note })).problems).toEqual([]);
    expect((await verify(w, { checkpoint: older.note })).problems).toEqual([]);
    // Roll the log back to the older state: what a restore of an older backup gives.
    await w.store.transaction(async (trx) => {
      await trx.deleteFrom('ledger_entries').where('idx', '>=', older.size).execute();
      await trx.deleteFrom('ledger_checkpoints').where('size', '>', older.size).execute();
      await trx.updateTable('ledger_state').set({ size: older.size }).execute();
      await trx
        .updateTable('meta')
        .set({ value: JSON.stringify({ count: 1, latest: older.size }) })
        .where('key', '=', 'ledger.checkpoints')
        .execute();
      await trx.deleteFrom('ledger_rows').where('idx', '>=', older.size).execute();
      await trx
        .deleteFrom('records')
        .where('created_at', '>', w.records.at(-1)?.created_at as string)
        .execute();
    });
    const rolled = await verify(w, { checkpoint: newer.note });
    expect(codes(rolled)).toContain('checkpoint_rollback');
    // A forged checkpoint file is refused.
    const forged = newer.note.replace(/\n\n— .*/s, '\n\n— athar.test/log AAAA\n');
    expect(codes(await verify(w, { checkpoint: forged }))).toContain('checkpoint_signature');
  });
});
