import { AuditRepository } from '../../store/repositories/audit.js';
import { type Decision, DecisionRepository } from '../../store/repositories/decisions.js';
import { type RecordLink, RecordLinkRepository } from '../../store/repositories/record-links.js';
import type { Db } from '../../store/store.js';
import { appendLogEntry, decisionEntry, type LogEntry, linkEntry } from '../ledger/ledger.js';

/**
 * Every registry change the linkage services make goes through one of these three functions, inside the transaction
 * that makes it: each writes the audit log and stages the tamper-evident log's entry for the rows as they now
 * stand, so the change, its audit row and its log entry commit together or not at all.
 */
async function emit(db: Db, entry: LogEntry, audit: Parameters<AuditRepository['append']>[0], at: string) {
  await new AuditRepository(db).append(audit, at);
  await appendLogEntry(db, entry);
}

function linkRow(db: Db, id: string) {
  return new RecordLinkRepository(db).row(id);
}

/** A reviewer's decision on a pair (match, non-match, unsure, or the undoing of one). */
export async function decisionRecorded(db: Db, decision: Decision): Promise<void> {
  const { row, superseded } = await new DecisionRepository(db).rowsForLog(decision.id);
  await emit(
    db,
    decisionEntry(row, superseded),
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
    linkEntry(await linkRow(db, link.id)),
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
    linkEntry(await linkRow(db, link.id)),
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
