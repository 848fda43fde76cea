import { linkEntries } from '../../ledger/entries.js';
import { type AuditEntry, AuditRepository } from '../../store/repositories/audit.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import { TracingRepository } from '../../store/repositories/tracing.js';
import type { ModelLinkTable, RecordLinkTable } from '../../store/schema.js';
import { slices } from '../../store/slices.js';
import type { Db, Store } from '../../store/store.js';
import { appendLogEntries } from '../ledger/ledger.js';
import { settlePersons } from '../registry/person-settling.js';

export interface ModelMerge {
  /** The person whose records move. */
  from: string;
  /** The person they join. */
  into: string;
  /** The pair it rests on: a record of `from` and the record of `into` it matched. */
  record: string;
  matched: string;
  probability: number;
  matchWeight: number;
  explanation: unknown;
  modelVersion: string;
  runId: string;
}

/** Rows nothing in the batch reads again: written once, after all of its merges. */
interface Deferred {
  modelLinks: ModelLinkTable[];
  closed: RecordLinkTable[];
  opened: RecordLinkTable[];
  audit: { entry: AuditEntry; at: string }[];
}

/**
 * The model links persons, merge after merge in one transaction: every record of `from` moves into `into` (its
 * links closed, new ones opened with basis `model` and the model's provenance), `from` is marked merged into
 * `into`, with the log entries and an audit row. Answers how many records moved. Links and persons are written
 * merge by merge (the next merge and the settling read them); the provenance, log entries and audit rows of the
 * whole batch at the end, a few statements instead of four per merge (a round trip each on PostgreSQL).
 */
export async function mergeByModel(store: Store, merges: readonly ModelMerge[], at: string): Promise<number> {
  return store.transaction(async (trx) => {
    const deferred: Deferred = { modelLinks: [], closed: [], opened: [], audit: [] };
    let moved = 0;
    for (const merge of merges) moved += await mergeOne(trx, store, merge, at, deferred);
    await new TracingRepository(trx, store.capabilities).addModelLinks(deferred.modelLinks);
    await appendLogEntries(trx, linkEntries(deferred.closed, deferred.opened), at);
    const audit = new AuditRepository(trx);
    for (const part of slices(deferred.audit, 500)) await audit.insertMany(part).execute();
    return moved;
  });
}

async function mergeOne(
  trx: Db,
  store: Store,
  merge: ModelMerge,
  at: string,
  deferred: Deferred,
): Promise<number> {
  const links = new RecordLinkRepository(trx);
  const moving = await links.activeOfPerson(merge.from);
  if (merge.from === merge.into || moving.length === 0) return 0;
  const reason = `model run ${merge.runId}`;
  const closed = await links.closeReturning(
    moving.map((l) => l.id),
    at,
    null,
    reason,
  );
  const opened = await links.openMany(
    store.capabilities,
    closed.map((l) => ({
      recordId: l.record_id,
      personId: merge.into,
      at,
      by: null,
      basis: 'model',
      note: reason,
    })),
  );
  for (const l of opened) {
    deferred.modelLinks.push({
      link_id: l.id,
      run_id: merge.runId,
      model_version: merge.modelVersion,
      matched_record: l.record_id === merge.record ? merge.matched : merge.record,
      probability: merge.probability,
      match_weight: merge.matchWeight,
      explanation: l.record_id === merge.record ? JSON.stringify(merge.explanation) : null,
    });
  }
  deferred.closed.push(...closed);
  deferred.opened.push(...opened);
  await settlePersons(trx, [merge.from, merge.into], at);
  deferred.audit.push({
    entry: {
      actorId: null,
      actorRole: null,
      action: 'tracing.linked',
      subjectType: 'person',
      subjectId: merge.into,
      details: { from: merge.from, moved: opened.length, probability: merge.probability, run: merge.runId },
    },
    at,
  });
  return opened.length;
}
