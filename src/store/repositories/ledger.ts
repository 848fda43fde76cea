import { type OnConflictBuilder, sql } from 'kysely';
import { insertRows, sqliteInserts } from '../bulk-rows.js';
import { type Capabilities, chunkRows } from '../capabilities.js';
import type { Database, LedgerCheckpointTable, LedgerEntryTable, LedgerRowTable } from '../schema.js';
import { slices } from '../slices.js';
import { type Db, getMeta, setMeta } from '../store.js';

const checkpointTallyMeta = 'ledger.checkpoints';

export interface StagedEntry {
  id: number;
  entry: string;
  stagedAt: string;
}

export interface StoredTile {
  level: number;
  index: number;
  hashes: Buffer;
}

export type CheckpointRow = LedgerCheckpointTable;

/** Entries per staging insert: two parameters each, well under either dialect's limit. */
const stageChunk = 10_000;

/**
 * Stages log entries (canonical JSON text) in the caller's transaction, in order; given the store's capabilities,
 * in fewer statements on PostgreSQL (bulk-rows.ts).
 */
export async function stageLogEntries(
  db: Db,
  entries: readonly string[],
  stagedAt: string,
  caps?: Capabilities,
): Promise<void> {
  if (caps) {
    await insertRows(
      db,
      caps,
      'ledger_queue',
      entries.map((entry) => ({ entry, staged_at: stagedAt })),
    );
    return;
  }
  for (const part of slices(entries, stageChunk)) {
    const rows = part.map((entry) => ({ entry, staged_at: stagedAt }));
    await db.insertInto('ledger_queue').values(rows).execute();
  }
}

/**
 * The log's tables. Dialect differences stay here: how a sequencing transaction becomes the only writer
 * (PostgreSQL: a transaction-scoped advisory lock; SQLite: its database write lock, taken by writing first).
 */
export class LedgerRepository {
  constructor(
    private readonly db: Db,
    private readonly caps: Capabilities,
  ) {}

  /**
   * Makes the current transaction the log's only writer until it ends, and returns the tree size. Call first in
   * the transaction: on SQLite the update takes the write lock before anything is read.
   */
  async lockForSequencing(now: string): Promise<number> {
    if (this.caps.advisoryLocks) {
      // Scoped to the schema, so separate athar databases in one PostgreSQL cluster do not wait on each other.
      await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '/athar.ledger'))`.execute(this.db);
    }
    await this.db.updateTable('ledger_state').set({ updated_at: now }).where('id', '=', 1).execute();
    return this.size();
  }

  async size(): Promise<number> {
    const row = await this.db
      .selectFrom('ledger_state')
      .select('size')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.size);
  }

  async setSize(size: number): Promise<void> {
    await this.db.updateTable('ledger_state').set({ size }).where('id', '=', 1).execute();
  }

  async queued(limit: number): Promise<StagedEntry[]> {
    const rows = await this.db
      .selectFrom('ledger_queue')
      .select(['id', 'entry', 'staged_at'])
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), entry: r.entry, stagedAt: r.staged_at }));
  }

  /** Whether anything waits in the queue (a read: no lock taken). */
  async hasQueued(): Promise<boolean> {
    return (await this.db.selectFrom('ledger_queue').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  async unqueue(ids: readonly number[]): Promise<void> {
    const size = this.caps.maxParameters - 1;
    for (const part of slices(ids, size)) {
      await this.db.deleteFrom('ledger_queue').where('id', 'in', part).execute();
    }
  }

  async insertEntries(rows: readonly LedgerEntryTable[]): Promise<void> {
    await insertRows(this.db, this.caps, 'ledger_entries', rows);
  }

  async upsertTiles(tiles: readonly StoredTile[]): Promise<void> {
    const rows = tiles.map((t) => ({ level: t.level, idx: t.index, hashes: t.hashes }));
    for (const chunk of chunkRows(this.caps, rows)) {
      await this.db
        .insertInto('ledger_tiles')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['level', 'idx']).doUpdateSet((eb) => ({ hashes: eb.ref('excluded.hashes') })),
        )
        .execute();
    }
  }

  /**
   * Records the latest entry for each row (one row per key in `rows`: the caller keeps the last). On PostgreSQL the
   * batch goes as four array parameters: a VALUES list of 5,000 rows × 4 parameters took ~35% longer
   * (bench/RESULTS.md, 2026-11-30). Not for ledger_entries: escaping JSON text into an array literal costs more.
   */
  async upsertRows(rows: readonly LedgerRowTable[]): Promise<void> {
    if (this.caps.dialect === 'postgres') {
      if (rows.length === 0) return;
      await sql`insert into ledger_rows (table_name, row_id, idx, sha256)
        select * from unnest(${rows.map((r) => r.table_name)}::text[], ${rows.map((r) => r.row_id)}::text[],
          ${rows.map((r) => r.idx)}::bigint[], ${rows.map((r) => r.sha256)}::text[])
        on conflict (table_name, row_id) do update set idx = excluded.idx, sha256 = excluded.sha256`.execute(
        this.db,
      );
      return;
    }
    const latest = <C extends OnConflictBuilder<Database, 'ledger_rows'>>(oc: C) =>
      oc.columns(['table_name', 'row_id']).doUpdateSet((eb) => ({
        idx: eb.ref('excluded.idx'),
        sha256: eb.ref('excluded.sha256'),
      }));
    for (const statement of sqliteInserts(this.db, this.caps, 'ledger_rows', rows))
      await statement.onConflict(latest).execute();
  }

  /** Fills custody_events.ledger_index for these events from the entries just sequenced. */
  async noteCustodyIndexes(eventIds: readonly string[]): Promise<void> {
    const size = this.caps.maxParameters - 1;
    for (const part of slices(eventIds, size)) {
      await this.db
        .updateTable('custody_events')
        .set((eb) => ({
          ledger_index: eb
            .selectFrom('ledger_rows')
            .select('ledger_rows.idx')
            .where('ledger_rows.table_name', '=', 'custody_events')
            .whereRef('ledger_rows.row_id', '=', 'custody_events.id'),
        }))
        .where('id', 'in', part)
        .execute();
    }
  }

  async tiles(refs: readonly { level: number; index: number }[]): Promise<StoredTile[]> {
    if (refs.length === 0) return [];
    const byLevel = new Map<number, number[]>();
    for (const r of refs) byLevel.set(r.level, [...(byLevel.get(r.level) ?? []), r.index]);
    const out: StoredTile[] = [];
    for (const [level, indexes] of byLevel) {
      const rows = await this.db
        .selectFrom('ledger_tiles')
        .select(['level', 'idx', 'hashes'])
        .where('level', '=', level)
        .where('idx', 'in', indexes)
        .execute();
      for (const r of rows) out.push({ level: r.level, index: Number(r.idx), hashes: Buffer.from(r.hashes) });
    }
    return out;
  }

  async tile(level: number, index: number): Promise<Buffer | undefined> {
    const row = await this.db
      .selectFrom('ledger_tiles')
      .select('hashes')
      .where('level', '=', level)
      .where('idx', '=', index)
      .executeTakeFirst();
    return row ? Buffer.from(row.hashes) : undefined;
  }

  /** Entries with from ≤ idx < to, in order. */
  async entries(from: number, to: number): Promise<{ idx: number; entry: string }[]> {
    const rows = await this.db
      .selectFrom('ledger_entries')
      .select(['idx', 'entry'])
      .where('idx', '>=', from)
      .where('idx', '<', to)
      .orderBy('idx')
      .execute();
    return rows.map((r) => ({ idx: Number(r.idx), entry: r.entry }));
  }

  async entryCount(): Promise<number> {
    const row = await this.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async rowsFor(table: string, ids: readonly string[]): Promise<LedgerRowTable[]> {
    const out: LedgerRowTable[] = [];
    const size = this.caps.maxParameters - 2;
    for (const part of slices(ids, size)) {
      const rows = await this.db
        .selectFrom('ledger_rows')
        .selectAll()
        .where('table_name', '=', table)
        .where('row_id', 'in', part)
        .execute();
      out.push(...rows.map((r) => ({ ...r, idx: Number(r.idx) })));
    }
    return out;
  }

  async rowCount(): Promise<number> {
    const row = await this.db
      .selectFrom('ledger_rows')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Index rows of one table after `afterId`, in id order (verification sweeps). */
  async rowsPage(table: string, afterId: string | null, limit: number): Promise<LedgerRowTable[]> {
    let q = this.db.selectFrom('ledger_rows').selectAll().where('table_name', '=', table);
    if (afterId !== null) q = q.where('row_id', '>', afterId);
    const rows = await q.orderBy('row_id').limit(limit).execute();
    return rows.map((r) => ({ ...r, idx: Number(r.idx) }));
  }

  async insertCheckpoint(row: CheckpointRow): Promise<void> {
    await this.db
      .insertInto('ledger_checkpoints')
      .values(row)
      .onConflict((oc) => oc.column('size').doNothing())
      .execute();
    // How many checkpoints there are and the latest one, beside them: `athar verify` names checkpoints deleted.
    const counted = await this.db
      .selectFrom('ledger_checkpoints')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('size').as('latest')])
      .executeTakeFirstOrThrow();
    await setMeta(
      this.db,
      checkpointTallyMeta,
      JSON.stringify({ count: Number(counted.n), latest: Number(counted.latest) }),
    );
  }

  /** The tally insertCheckpoint keeps (absent on logs whose checkpoints predate it). */
  async checkpointTally(): Promise<{ count: number; latest: number } | undefined> {
    const text = await getMeta(this.db, checkpointTallyMeta);
    if (!text) return undefined;
    try {
      const v = JSON.parse(text) as { count?: unknown; latest?: unknown };
      return typeof v.count === 'number' && typeof v.latest === 'number'
        ? { count: v.count, latest: v.latest }
        : { count: Number.NaN, latest: Number.NaN };
    } catch {
      return { count: Number.NaN, latest: Number.NaN };
    }
  }

  async latestCheckpoint(): Promise<CheckpointRow | undefined> {
    const row = await this.db
      .selectFrom('ledger_checkpoints')
      .selectAll()
      .orderBy('size', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { ...row, size: Number(row.size) } : undefined;
  }

  async checkpoint(size: number): Promise<CheckpointRow | undefined> {
    const row = await this.db
      .selectFrom('ledger_checkpoints')
      .selectAll()
      .where('size', '=', size)
      .executeTakeFirst();
    return row ? { ...row, size: Number(row.size) } : undefined;
  }

  async checkpoints(): Promise<CheckpointRow[]> {
    const rows = await this.db.selectFrom('ledger_checkpoints').selectAll().orderBy('size').execute();
    return rows.map((r) => ({ ...r, size: Number(r.size) }));
  }
}
