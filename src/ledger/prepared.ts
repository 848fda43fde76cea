import { encodeEntry, type LogEntry, publicEntry, type RowRef, vouchedRows } from './entries.js';
import { type Hash, leafHash } from './hash.js';

/** An entry ready to be appended to the log: its text, its leaf hash and the rows it vouches for. */
export interface PreparedEntry {
  entry: string;
  leaf: Hash;
  rows: readonly RowRef[];
}

/**
 * An entry encoded as the public log holds it (docs/decisions.md "What the public log says"), hashed, its rows
 * listed. Throws EntryError on a malformed entry.
 */
export function prepareEntry(entry: LogEntry): PreparedEntry {
  const shown = publicEntry(entry);
  const bytes = encodeEntry(shown);
  return { entry: bytes.toString('utf8'), leaf: leafHash(bytes), rows: shown.rows };
}

/** Entries prepared at once. */
export function prepareEntries(entries: Iterable<LogEntry>): PreparedEntry[] {
  return Array.from(entries, (entry) => prepareEntry(entry));
}

/** Staged or logged texts, prepared for appending (the rows read from each text). */
export function prepareTexts(entries: readonly string[]): PreparedEntry[] {
  return entries.map((entry) => ({
    entry,
    leaf: leafHash(Buffer.from(entry, 'utf8')),
    // Staged entries were checked when staged; one that no longer reads is still logged as it is (a sequencer
    // that stopped at it would stop the log) and `athar verify` names it.
    rows: vouchedRows(entry),
  }));
}
