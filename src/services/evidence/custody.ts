import { custodyEntry } from '../../ledger/entries.js';
import {
  type CustodyEvent,
  type CustodyEventInput,
  CustodyRepository,
  toCustodyEvent,
} from '../../store/repositories/custody.js';
import { EvidenceRepository } from '../../store/repositories/evidence.js';
import type { Db } from '../../store/store.js';
import { appendLogEntries } from '../ledger/ledger.js';

export type { CustodyEvent, CustodyEventInput, CustodyKind } from '../../store/repositories/custody.js';

/**
 * The one way custody is recorded. Callers pass the transaction that writes the row the event is about, so the
 * event and its subject commit together or not at all; the tamper-evident log hooks in here (one entry per
 * event, staged in the same transaction). Every caller has already written the evidence item the event names within
 * this transaction (or it was committed before), so the hook can read the item's row through `trx`.
 */
export async function recordCustody(trx: Db, event: CustodyEventInput): Promise<CustodyEvent> {
  const [recorded] = await recordCustodyEvents(trx, [event]);
  return recorded as CustodyEvent;
}

/**
 * Several custody events at once, as `recordCustody` records each (one event and one log entry apiece, staged
 * in order), with one statement per table instead of one per event: an ingest records one per file.
 */
export async function recordCustodyEvents(
  trx: Db,
  events: readonly CustodyEventInput[],
): Promise<CustodyEvent[]> {
  if (events.length === 0) return [];
  for (const event of events) if (!event.actor.trim()) throw new Error('a custody event needs an actor');
  const rows = await new CustodyRepository(trx).appendMany(events);
  const ids = [...new Set(rows.flatMap((r) => (r.evidence_id ? [r.evidence_id] : [])))];
  const items = new Map((await new EvidenceRepository(trx).rows(ids)).map((item) => [item.id, item]));
  await appendLogEntries(
    trx,
    rows.map((row) => {
      const item = row.evidence_id ? items.get(row.evidence_id) : null;
      if (row.evidence_id && !item)
        throw new Error(`custody event ${row.id} names evidence ${row.evidence_id}, which is not stored`);
      return custodyEntry(row, item);
    }),
  );
  return rows.map(toCustodyEvent);
}
