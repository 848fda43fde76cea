import { linkEntry } from '../../ledger/entries.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import { TracingRepository } from '../../store/repositories/tracing.js';
import type { RecordLinkTable } from '../../store/schema.js';
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

/**
 * The model links persons, merge after merge in one transaction: every record of `from` moves into `into` (its
 * links closed, new ones opened with basis `model` and the model's provenance), `from` is marked merged into
 * `into`, with the log entries and an audit row. Answers how many records moved.
 */
export async function mergeByModel(store: Store, merges: readonly ModelMerge[], at: string): Promise<number> {
  return store.transaction(async (trx) => {
    let moved = 0;
    for (const merge of merges) moved += await mergeOne(trx, store, merge, at);
    return moved;
  });
}

async function mergeOne(trx: Db, store: Store, merge: ModelMerge, at: string): Promise<number> {
  {
    const links = new RecordLinkRepository(trx);
    const moving = await links.activeOfPerson(merge.from);
    if (merge.from === merge.into || moving.length === 0) return 0;
    const reason = `model run ${merge.runId}`;
    const closed = await links.closeMany(
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
    await new TracingRepository(trx, store.capabilities).addModelLinks(
      opened.map((l) => ({
        link_id: l.id,
        run_id: merge.runId,
        model_version: merge.modelVersion,
        matched_record: l.record_id === merge.record ? merge.matched : merge.record,
        probability: merge.probability,
        match_weight: merge.matchWeight,
        explanation: l.record_id === merge.record ? JSON.stringify(merge.explanation) : null,
      })),
    );
    await appendLogEntries(
      trx,
      [...closed, ...opened].map((row: RecordLinkTable) => linkEntry(row)),
      at,
    );
    await settlePersons(trx, [merge.from, merge.into], at);
    await new AuditRepository(trx).append(
      {
        actorId: null,
        actorRole: null,
        action: 'tracing.linked',
        subjectType: 'person',
        subjectId: merge.into,
        details: { from: merge.from, moved: opened.length, probability: merge.probability, run: merge.runId },
      },
      at,
    );
    return opened.length;
  }
}
