import { linkEntry, recordEntry } from '../../ledger/entries.js';
import type { Capabilities } from '../../store/capabilities.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import { RecordRepository } from '../../store/repositories/records.js';
import { TracingRepository } from '../../store/repositories/tracing.js';
import type { RecordNameKeyTable, RecordTable } from '../../store/schema.js';
import type { Db, Store } from '../../store/store.js';
import { appendLogEntries } from '../ledger/ledger.js';

/** The basis of the link a record is stored with: its own person, of one record, until something links it. */
export const ownPersonBasis = 'record';

/**
 * Stores new records as the registry keeps every record, in the caller's transaction: the rows and their name keys,
 * a person of one for each (every record belongs to a person, always), the link, the log entries of both, and a
 * place in the tracing queue, so the loop links and matches it even if this process stops right after.
 */
export async function storeNewRecords(
  trx: Db,
  caps: Capabilities,
  rows: readonly RecordTable[],
  keys: readonly RecordNameKeyTable[],
  options: {
    logKind: 'record.created' | 'record.imported';
    at: string;
    by: string | null;
    importId?: string | null;
    stagedAt?: string;
  },
): Promise<void> {
  if (rows.length === 0) return;
  await new RecordRepository(trx, caps).insert(rows, keys);
  const links = new RecordLinkRepository(trx);
  const persons = await links.createPersons(caps, rows.length, options.at, options.by);
  const opened = await links.openMany(
    caps,
    rows.map((r, i) => ({
      recordId: r.id,
      personId: persons[i] as string,
      at: options.at,
      by: options.by,
      basis: ownPersonBasis,
    })),
  );
  await appendLogEntries(
    trx,
    rows.flatMap((r, i) => [
      recordEntry(options.logKind, r),
      linkEntry(opened[i] as (typeof opened)[number]),
    ]),
    options.stagedAt,
  );
  await new TracingRepository(trx, caps).enqueue(
    rows.map((r) => ({ kind: 'record' as const, subjectId: r.id, importId: options.importId ?? null })),
    options.at,
  );
}

/**
 * Gives every record that has no person (stored before every record had one) a person of one, with its link, log
 * entry and a place in the tracing queue; batch by batch, resumable. Runs at every start; nothing to do once done.
 */
export async function givePersonsToAllRecords(store: Store, at: string): Promise<number> {
  let given = 0;
  for (;;) {
    const orphans = await new RecordRepository(store.db, store.capabilities).withoutPerson(2000);
    if (orphans.length === 0) return given;
    await store.transaction(async (trx) => {
      const links = new RecordLinkRepository(trx);
      const persons = await links.createPersons(store.capabilities, orphans.length, at, null);
      const opened = await links.openMany(
        store.capabilities,
        orphans.map((r, i) => ({
          recordId: r.id,
          personId: persons[i] as string,
          at,
          by: null,
          basis: ownPersonBasis,
        })),
      );
      await appendLogEntries(
        trx,
        opened.map((l) => linkEntry(l)),
      );
      await new TracingRepository(trx, store.capabilities).enqueue(
        orphans.map((r) => ({ kind: 'record' as const, subjectId: r.id })),
        at,
      );
    });
    given += orphans.length;
  }
}
