import { AuditRepository } from '../store/repositories/audit.js';
import type { Decision } from '../store/repositories/decisions.js';
import type { RecordLink } from '../store/repositories/record-links.js';
import type { Db } from '../store/store.js';

/**
 * Every registry change the linkage services make goes through one of these three functions, inside the transaction
 * that makes it: the one place where the tamper-evident log (issue 6) is hooked in. Today each change is written
 * to the audit log; `addLinkageChangeSink` lets the ledger append its entry in the same transaction.
 */
export type LinkageChange =
  | { kind: 'decision_recorded'; decision: Decision }
  | { kind: 'record_linked'; link: RecordLink }
  | { kind: 'record_unlinked'; link: RecordLink };

export type LinkageChangeSink = (db: Db, change: LinkageChange) => Promise<void>;

const sinks: LinkageChangeSink[] = [];

/** Registers a consumer of linkage changes (the ledger); it runs inside each change's transaction. */
export function addLinkageChangeSink(sink: LinkageChangeSink): () => void {
  sinks.push(sink);
  return () => {
    const at = sinks.indexOf(sink);
    if (at >= 0) sinks.splice(at, 1);
  };
}

async function emit(
  db: Db,
  change: LinkageChange,
  audit: Parameters<AuditRepository['append']>[0],
  at: string,
) {
  await new AuditRepository(db).append(audit, at);
  for (const sink of sinks) await sink(db, change);
}

/** A reviewer's decision on a pair (match, non-match, unsure, or the undoing of one). */
export async function decisionRecorded(db: Db, decision: Decision): Promise<void> {
  await emit(
    db,
    { kind: 'decision_recorded', decision },
    {
      actorId: decision.reviewerId,
      actorRole: null,
      action: decision.decision === 'undone' ? 'review.undone' : 'review.decided',
      subjectType: 'decision',
      subjectId: decision.id,
      details: {
        recordA: decision.recordA,
        recordB: decision.recordB,
        decision: decision.decision,
        modelVersion: decision.modelVersion,
      },
    },
    decision.decidedAt,
  );
}

/** A record linked to a person (a new link row). */
export async function recordLinked(db: Db, link: RecordLink): Promise<void> {
  await emit(
    db,
    { kind: 'record_linked', link },
    {
      actorId: link.linkedBy,
      actorRole: null,
      action: 'record.linked',
      subjectType: 'record',
      subjectId: link.recordId,
      details: { linkId: link.id, personId: link.personId, basis: link.basis, decisionId: link.decisionId },
    },
    link.linkedAt,
  );
}

/** A link closed (the row as it now stands). */
export async function recordUnlinked(db: Db, link: RecordLink): Promise<void> {
  await emit(
    db,
    { kind: 'record_unlinked', link },
    {
      actorId: link.unlinkedBy,
      actorRole: null,
      action: 'record.unlinked',
      subjectType: 'record',
      subjectId: link.recordId,
      details: { linkId: link.id, personId: link.personId, reason: link.unlinkReason },
    },
    link.unlinkedAt ?? link.linkedAt,
  );
}
