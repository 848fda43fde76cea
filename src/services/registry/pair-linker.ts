import { type RecordLink, RecordLinkRepository } from '../../store/repositories/record-links.js';
import type { Db } from '../../store/store.js';
import { recordLinked, recordUnlinked } from './linkage-journal.js';
import { settlePersons } from './person-settling.js';

/**
 * What the review service needs from the registry's person links: put a confirmed pair under one person with the
 * decision as provenance, and take back everything a decision did. Both run inside the decision's transaction.
 */
export interface PairLinker {
  linkPair(db: Db, recordA: string, recordB: string, decision: LinkingDecision): Promise<void>;
  /** A rejected pair in one person: one of the two leaves it (to a person of its own). */
  separate(db: Db, recordA: string, recordB: string, decision: LinkingDecision): Promise<void>;
  undoDecision(db: Db, decisionId: string, by: string, at: string): Promise<void>;
}

export interface LinkingDecision {
  id: string;
  reviewerId: string;
  at: string;
}

/** The reason written on links a decision closed when it moved records to another person. */
export function movedBy(decisionId: string): string {
  return `moved by decision ${decisionId}`;
}

/** Reopens a link that a move closed, as it was (same person, basis and decision), and journals it. */
export async function reopenMovedLink(
  db: Db,
  moved: RecordLink,
  at: string,
  by: string,
  note: string,
): Promise<RecordLink> {
  const restored = await new RecordLinkRepository(db).open({
    recordId: moved.recordId,
    personId: moved.personId,
    at,
    by,
    basis: moved.basis,
    decisionId: moved.decisionId,
    note,
  });
  await recordLinked(db, restored);
  return restored;
}

/**
 * A PairLinker over the record_links and persons tables alone. Records without a person get one; when both records
 * already belong to different persons, the smaller person's records move to the larger (their links are closed and
 * reopened there); nothing is deleted, and records themselves are never touched. Every link opened or closed goes
 * through the linkage journal.
 */
export class RecordLinkLinker implements PairLinker {
  async linkPair(db: Db, recordA: string, recordB: string, decision: LinkingDecision): Promise<void> {
    const links = new RecordLinkRepository(db);
    const [la, lb] = [await links.active(recordA), await links.active(recordB)];
    if (la && lb && la.personId === lb.personId) return;
    const open = async (recordId: string, personId: string) =>
      recordLinked(
        db,
        await links.open({
          recordId,
          personId,
          at: decision.at,
          by: decision.reviewerId,
          basis: 'review_decision',
          decisionId: decision.id,
        }),
      );
    if (!la && !lb) {
      const person = await links.createPerson(decision.at, decision.reviewerId);
      await open(recordA, person);
      await open(recordB, person);
      return;
    }
    if (!la || !lb) {
      const existing = (la ?? lb)!;
      await open(la ? recordB : recordA, existing.personId);
      return;
    }
    const [membersA, membersB] = [
      await links.activeOfPerson(la.personId),
      await links.activeOfPerson(lb.personId),
    ];
    const [from, into] =
      membersA.length > membersB.length || (membersA.length === membersB.length && la.personId < lb.personId)
        ? [membersB, la.personId]
        : [membersA, lb.personId];
    for (const link of from) {
      const closed = await links.close(link.id, decision.at, decision.reviewerId, movedBy(decision.id));
      if (closed) await recordUnlinked(db, closed);
      await open(link.recordId, into);
    }
    await settlePersons(db, [la.personId, lb.personId], decision.at);
  }

  async separate(db: Db, recordA: string, recordB: string, decision: LinkingDecision): Promise<void> {
    const links = new RecordLinkRepository(db);
    const [la, lb] = [await links.active(recordA), await links.active(recordB)];
    if (!la || !lb || la.personId !== lb.personId) return;
    // The one the model or its own record put there leaves, never one a person linked; of two alike, the later.
    const byPerson = (l: RecordLink) => l.basis === 'manual' || l.basis === 'review_decision';
    const leaving =
      byPerson(la) === byPerson(lb) ? (la.linkedAt > lb.linkedAt ? la : lb) : byPerson(la) ? lb : la;
    const closed = await links.close(leaving.id, decision.at, decision.reviewerId, movedBy(decision.id));
    if (closed) await recordUnlinked(db, closed);
    const personId = await links.createPerson(decision.at, decision.reviewerId);
    const own = await links.open({
      recordId: leaving.recordId,
      personId,
      at: decision.at,
      by: decision.reviewerId,
      basis: 'review_decision',
      decisionId: decision.id,
      note: 'kept apart by a reviewer',
    });
    await recordLinked(db, own);
    await settlePersons(db, [la.personId, personId], decision.at);
  }

  async undoDecision(db: Db, decisionId: string, by: string, at: string): Promise<void> {
    const links = new RecordLinkRepository(db);
    const touched = new Set<string>();
    const released: string[] = [];
    for (const link of await links.activeByDecision(decisionId)) {
      const closed = await links.close(link.id, at, by, `decision ${decisionId} undone`);
      if (closed) await recordUnlinked(db, closed);
      touched.add(link.personId);
      released.push(link.recordId);
    }
    for (const moved of await links.closedWithReason(movedBy(decisionId))) {
      if (await links.active(moved.recordId)) continue;
      await reopenMovedLink(db, moved, at, by, `restored: decision ${decisionId} undone`);
      touched.add(moved.personId);
    }
    // Every record belongs to a person: one the decision had linked and nothing restored goes back to the person
    // it was in before the decision (reopened above) or, failing that, to a person of its own.
    for (const recordId of released) {
      if (await links.active(recordId)) continue;
      const personId = await links.createPerson(at, by);
      const own = await links.open({
        recordId,
        personId,
        at,
        by,
        basis: 'manual',
        note: `decision ${decisionId} undone`,
      });
      await recordLinked(db, own);
      touched.add(personId);
    }
    await settlePersons(db, touched, at);
  }
}
