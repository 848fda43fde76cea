import { encodeEntry, type LogEntry, publicEntry } from '../../ledger/entries.js';
import { type PreparedEntry, prepareEntry } from '../../ledger/prepared.js';
import type { Capabilities } from '../../store/capabilities.js';
import { LedgerRepository, stageLogEntries } from '../../store/repositories/ledger.js';
import type { Db } from '../../store/store.js';
import { appendToLog, sequenceQueued } from './sequencer.js';

/**
 * Appending to the log: the one call other services make. Stage the entry in the same transaction that writes
 * the row it describes, and both commit or neither does:
 *
 *   await store.transaction(async (trx) => {
 *     await trx.insertInto('custody_events').values(event).execute();
 *     await appendLogEntry(trx, custodyEntry(event, item));
 *   });
 *
 * Staging is one insert into ledger_queue and takes no log-wide lock, so writers never wait on each other for
 * the log. The sequencer (ledger-sequencer.ts) then gives staged entries their index in staging order, grows the
 * tiles and signs checkpoints: one writer at a time, in batches. Build entries with the helpers re-exported
 * below; an entry that is malformed (unknown kind, a row lacking a covered column, …) throws here, inside the
 * caller's transaction, so the row it describes is not written either. docs/ledger.md says why.
 */
export async function appendLogEntry(trx: Db, entry: LogEntry): Promise<void> {
  await appendLogEntries(trx, [entry]);
}

/** Stages several entries at once (imports), in order. */
export async function appendLogEntries(
  trx: Db,
  entries: readonly LogEntry[],
  stagedAt = new Date().toISOString(),
  caps?: Capabilities,
): Promise<void> {
  if (entries.length === 0) return;
  await stageLogEntries(
    trx,
    // What the public may read of each entry (docs/decisions.md "What the public log says").
    entries.map((e) => encodeEntry(publicEntry(e)).toString('utf8')),
    stagedAt,
    caps,
  );
}

/** Entries of the queue sequenced per round when `sequenceLogEntries` finds some waiting. */
const queuedRound = 50_000;

/**
 * Appends entries to the log in the caller's transaction, sequenced at once rather than staged: for a writer of
 * a great many entries that waits for nothing else (`registry link` at 1M records writes ~160k), where staging
 * them, reading them back and unqueueing them cost more than sequencing. It makes the transaction the log's only
 * writer until it ends (the sequencer waits), so keep such transactions short; entries already waiting in the
 * queue are sequenced first, so the log keeps the order in which entries were written.
 */
export async function sequenceLogEntries(
  trx: Db,
  caps: Capabilities,
  entries: readonly LogEntry[],
  at = new Date().toISOString(),
): Promise<void> {
  await sequencePreparedEntries(trx, caps, entries.map(prepareEntry), at);
}

/**
 * `sequenceLogEntries` for entries prepared beforehand (prepareLogEntries): the encoding and hashing, most of its
 * computing, done while the caller's other statements run.
 */
export async function sequencePreparedEntries(
  trx: Db,
  caps: Capabilities,
  entries: readonly PreparedEntry[],
  at = new Date().toISOString(),
): Promise<void> {
  if (entries.length === 0) return;
  const repo = new LedgerRepository(trx, caps);
  let size = await repo.lockForSequencing(at);
  for (;;) {
    const sequenced = await sequenceQueued(repo, size, queuedRound);
    if (sequenced === 0) break;
    size += sequenced;
  }
  await appendToLog(repo, size, entries);
}

/**
 * Entries encoded as the public log holds them (docs/decisions.md "What the public log says"), hashed and their
 * rows listed, a slice at a time with a turn of the event loop before each: statements the caller has in flight on
 * another chain of promises go out and on meanwhile (on PostgreSQL the server works while this thread hashes).
 * Throws, as appendLogEntries does, on a malformed entry.
 */
export async function prepareLogEntries(entries: Iterable<LogEntry>, slice = 1000): Promise<PreparedEntry[]> {
  const out: PreparedEntry[] = [];
  for (const entry of entries) {
    if (out.length % slice === 0) await nextTurn();
    out.push(prepareEntry(entry));
  }
  return out;
}

export {
  type CoveredTable,
  coveredRow,
  custodyEntry,
  decisionEntry,
  EntryError,
  identificationEntry,
  type LogEntry,
  linkEntry,
  RowShapeError,
  recordEntry,
  rowDigest,
} from '../../ledger/entries.js';

import { nextTurn } from '../../event-loop.js';
