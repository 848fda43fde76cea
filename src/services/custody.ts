import { custodyEntry } from '../ledger/entries.js';
import {
  type CustodyEvent,
  type CustodyEventInput,
  CustodyRepository,
  toCustodyEvent,
} from '../store/repositories/custody.js';
import type { Db } from '../store/store.js';
import { appendLogEntry } from './ledger.js';

export type { CustodyEvent, CustodyEventInput, CustodyKind } from '../store/repositories/custody.js';

/**
 * The one way custody is recorded. Callers pass the transaction that writes the row the event is about, so the
 * event and its subject commit together or not at all; the tamper-evident log hooks in here (one entry per
 * event, staged in the same transaction). Every caller has already written the evidence item the event names within
 * this transaction (or it was committed before), so the hook can read the item's row through `trx`.
 */
export async function recordCustody(trx: Db, event: CustodyEventInput): Promise<CustodyEvent> {
  if (!event.actor.trim()) throw new Error('a custody event needs an actor');
  const row = await new CustodyRepository(trx).append(event);
  const item = row.evidence_id
    ? await trx
        .selectFrom('evidence_items')
        .selectAll()
        .where('id', '=', row.evidence_id)
        .executeTakeFirstOrThrow()
    : null;
  await appendLogEntry(trx, custodyEntry(row, item));
  return toCustodyEvent(row);
}
