import { formatCheckpoint } from '../../ledger/checkpoint.js';
import { toBase64 } from '../../ledger/hash.js';
import { type NoteSigner, signNote } from '../../ledger/note.js';
import { type PreparedEntry, prepareTexts } from '../../ledger/prepared.js';
import { edgeTiles, TreeBuilder } from '../../ledger/tiles.js';
import { consistencyPlan, resolvePlan, verifyConsistency } from '../../ledger/tree.js';
import { reclaimDeleted } from '../../store/bulk-rows.js';
import { type CheckpointRow, LedgerRepository } from '../../store/repositories/ledger.js';
import type { LedgerEntryTable, LedgerRowTable } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { checkpointRoot, LedgerLog } from './log.js';

export interface SequencerOptions {
  /** Entries per sequencing transaction. */
  batchSize?: number;
  /** The least time between two checkpoints signed on the sequencer's own schedule. */
  checkpointIntervalMs?: number;
  clock?: () => number;
  /** Where the background loop reports failures (the server's logger). */
  onError?: (error: unknown) => void;
}

/** The stored tree does not extend the last checkpoint: the sequencer refuses to sign (and says why). */
export class LedgerIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerIntegrityError';
  }
}

/**
 * Gives `entries` the log's next indexes after `size` in the caller's sequencing transaction (it holds
 * LedgerRepository.lockForSequencing): appends them, grows the tiles, records which entry now vouches for each
 * covered row, and sets the new size.
 */
export async function appendToLog(
  repo: LedgerRepository,
  size: number,
  entries: readonly PreparedEntry[],
): Promise<void> {
  const edge = new Map((await repo.tiles(edgeTiles(size))).map((t) => [t.level, t.hashes]));
  const builder = new TreeBuilder(size, edge);
  const rows: LedgerEntryTable[] = [];
  const latest = new Map<string, LedgerRowTable>();
  const custody = new Set<string>();
  entries.forEach(({ entry, leaf, rows: vouched }, i) => {
    const idx = size + i;
    builder.append(leaf);
    rows.push({ idx, entry });
    for (const row of vouched) {
      latest.set(`${row.table}\u0000${row.id}`, {
        table_name: row.table,
        row_id: row.id,
        idx,
        sha256: row.sha256,
      });
      if (row.table === 'custody_events') custody.add(row.id);
    }
  });
  await repo.insertEntries(rows);
  await repo.upsertTiles(builder.takeChanged());
  await repo.upsertRows([...latest.values()]);
  await repo.noteCustodyIndexes([...custody]);
  await repo.setSize(size + entries.length);
}

/**
 * Sequences up to `limit` staged entries, in staging order, after `size` in the caller's sequencing transaction;
 * answers how many.
 */
export async function sequenceQueued(repo: LedgerRepository, size: number, limit: number): Promise<number> {
  const queued = await repo.queued(limit);
  if (queued.length === 0) return 0;
  await appendToLog(repo, size, prepareTexts(queued.map((q) => q.entry)));
  await repo.unqueue(queued.map((q) => q.id));
  return queued.length;
}

/**
 * Moves staged entries into the log, one writer at a time: each batch runs in one transaction that first makes
 * itself the log's only writer (LedgerRepository.lockForSequencing), gives the entries the next indexes, grows
 * the tiles, records which entry now vouches for each covered row, and removes them from the queue. Checkpoints
 * are signed at most once per interval on the sequencer's own schedule, and whenever `publish` is called; before
 * signing, the sequencer proves the new tree consistent with the last checkpoint from the stored tiles, so
 * tampered tiles are never signed over.
 */
export class LedgerSequencer {
  private readonly batchSize: number;
  private readonly interval: number;
  private readonly clock: () => number;
  private readonly log: LedgerLog;
  private loop: Promise<void> | undefined;
  private stopped = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly signer: NoteSigner | null,
    private readonly options: SequencerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 5000;
    this.interval = options.checkpointIntervalMs ?? 1000;
    this.clock = options.clock ?? Date.now;
    this.log = new LedgerLog(store);
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  /** Sequences up to one batch of staged entries; returns how many. */
  async sequenceBatch(batchSize = this.batchSize): Promise<number> {
    // An idle log costs a read, not a write: the lock is taken only when something waits.
    if (!(await new LedgerRepository(this.store.db, this.store.capabilities).hasQueued())) return 0;
    return this.store.transaction(async (trx) => {
      const repo = new LedgerRepository(trx, this.store.capabilities);
      const now = this.now();
      const size = await repo.lockForSequencing(now);
      return sequenceQueued(repo, size, batchSize);
    });
  }

  /** Sequences everything staged so far (`batchSize` entries a transaction; the sequencer's own by default). */
  async flush(batchSize = this.batchSize): Promise<{ sequenced: number; size: number }> {
    let sequenced = 0;
    for (;;) {
      const n = await this.sequenceBatch(batchSize);
      sequenced += n;
      if (n < batchSize) break;
    }
    await reclaimDeleted(this.store.db, this.store.capabilities, 'ledger_queue', sequenced);
    return { sequenced, size: await this.log.size() };
  }

  /**
   * Signs a checkpoint of the current tree when it grew since the last one; on its own schedule (`force` false)
   * only when the last is at least the interval old. Returns the checkpoint signed, or the latest when nothing
   * new was due.
   */
  async checkpoint(options: { force?: boolean } = {}): Promise<CheckpointRow | undefined> {
    const signer = this.signer;
    if (!signer) throw new LedgerIntegrityError('no log key loaded: checkpoints cannot be signed');
    return this.store.transaction(async (trx) => {
      const repo = new LedgerRepository(trx, this.store.capabilities);
      const size = await repo.lockForSequencing(this.now());
      const last = await repo.latestCheckpoint();
      if (last && last.size === size) return last;
      if (last && !options.force && this.clock() - Date.parse(last.created_at) < this.interval) return last;
      if (last && last.size > size)
        throw new LedgerIntegrityError(`the log shrank from ${last.size} to ${size} entries`);
      const root = await this.log.root(size, trx);
      if (last) {
        const lastRoot = checkpointRoot(last.note);
        const plan = consistencyPlan(last.size, size);
        const tiles = await this.log.tilesFor(plan, size, trx);
        const proof = resolvePlan(plan, tiles.read);
        if (!lastRoot || !verifyConsistency(last.size, size, lastRoot, root, proof)) {
          throw new LedgerIntegrityError(
            `refusing to sign: the stored tree of ${size} entries does not extend checkpoint ${last.size} (run athar verify)`,
          );
        }
      }
      const note = signNote(formatCheckpoint({ origin: signer.name, size, root }), [signer]);
      const row = { size, root: toBase64(root), note, created_at: this.now() };
      await repo.insertCheckpoint(row);
      return row;
    });
  }

  /**
   * Sequences everything staged and signs a checkpoint now (`athar ledger checkpoint`, and a command's end). A
   * command that staged a great many entries and waits for nothing else may take them in larger transactions
   * (`batchSize`): an import of 1M records stages ~2M, and each transaction's commit costs.
   */
  async publish(batchSize = this.batchSize): Promise<CheckpointRow> {
    await this.flush(batchSize);
    return (await this.checkpoint({ force: true })) as CheckpointRow;
  }

  /** Runs in the background: sequences whatever is staged every `pollMs`, and checkpoints on schedule. */
  start(pollMs = 100): void {
    if (this.loop) return;
    this.stopped = false;
    this.loop = (async () => {
      while (!this.stopped) {
        try {
          const { sequenced } = await this.flush();
          if (sequenced > 0 || (await this.due())) await this.checkpoint();
        } catch (error) {
          this.options.onError?.(error);
        }
        if (this.stopped) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          timer.unref();
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    })();
  }

  /** Whether entries sequenced since the last checkpoint still wait for one. */
  private async due(): Promise<boolean> {
    const [size, last] = await Promise.all([this.log.size(), this.log.latestCheckpoint()]);
    return !last || last.size !== size;
  }

  /** Stops the background loop after its current round; what was staged stays staged. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }
}
