import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/stores.js';
import { DomainError } from '../../domain/errors.js';
import { newId, nowIso } from '../../ids.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import { SourceRepository } from '../../store/repositories/sources.js';
import type { RecordTable } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { storeNewRecords } from '../registry/new-records.js';
import { ReviewService } from './review.js';

/** Stores synthetic records (labelled so) and returns their ids. */
async function storeRecords(
  store: Store,
  rows: { first?: string; father?: string; family?: string; birthYear?: number; detainee?: string }[],
): Promise<string[]> {
  const source = await new SourceRepository(store.db).findOrCreate('synthetic test source', 'other');
  const rowsToStore: RecordTable[] = rows.map((r) => ({
    id: newId(),
    source_id: source.id,
    external_id: null,
    kind: 'other',
    original: JSON.stringify({ synthetic: true }),
    full_name: null,
    first_name: r.first ?? null,
    father_name: r.father ?? null,
    grandfather_name: null,
    family_name: r.family ?? null,
    mother_name: null,
    name_normalized: null,
    name_script: 'ar',
    sex: null,
    birth_date: null,
    birth_year: r.birthYear ?? null,
    governorate_id: null,
    place_of_origin: null,
    arrest_date: null,
    arresting_branch_id: r.detainee ? 'branch-235' : null,
    detainee_number: r.detainee ?? null,
    death_date: null,
    forensic_report_number: null,
    notes: 'SYNTHETIC test record',
    created_at: nowIso(),
    created_by: null,
  }));
  // As the registry stores every record: with a person of its own.
  await store.transaction((trx) =>
    storeNewRecords(trx, store.capabilities, rowsToStore, [], {
      logKind: 'record.created',
      at: nowIso(),
      by: null,
    }),
  );
  const ids = rowsToStore.map((r) => r.id);
  return ids;
}

describeEachDialect('the review queue', (store) => {
  let review: ReviewService;
  let ids: string[];

  beforeAll(async () => {
    review = new ReviewService(store());
    ids = await storeRecords(store(), [
      { first: 'محمد', father: 'احمد', family: 'المصري', birthYear: 1980 },
      { first: 'Mohammad', father: 'Ahmad', family: 'Al-Masri', birthYear: 1980 },
      { first: 'خالد', family: 'العمر' },
      { first: 'Khaled', family: 'Al-Omar' },
      { first: 'سامر', family: 'الحلبي' },
      { first: 'Samer', family: 'Al-Halabi' },
    ]);
  });

  const pair = (a: number, b: number, probability = 0.9) => ({
    recordA: ids[a] as string,
    recordB: ids[b] as string,
    probability,
    matchWeight: 5,
    modelVersion: 'test-model',
    explanation: { note: 'synthetic' },
  });

  it('queues proposed pairs once per pair, the least certain first', async () => {
    const result = await review.propose([
      pair(0, 1, 0.8),
      pair(1, 0, 0.85),
      pair(2, 3, 0.95),
      pair(4, 5, 0.7),
    ]);
    expect(result).toEqual({ proposed: 3, skippedDecided: 0, skippedSamePerson: 0 });
    const open = await review.open(10);
    expect(open.map((p) => p.probability)).toEqual([0.7, 0.85, 0.95]);
    expect(open[0]?.explanation).toEqual({ note: 'synthetic' });
    expect(await review.open(1, { priority: open[0]!.priority, id: open[0]!.id })).toHaveLength(1);
  });

  it('a match links both records to one person, with the decision as provenance', async () => {
    const queued = (await review.open(10)).find((p) => p.probability === 0.85)!;
    const decision = await review.decide({ pairId: queued.id, decision: 'match', reviewerId: 'reviewer-1' });
    expect(decision).toMatchObject({
      decision: 'match',
      reviewerId: 'reviewer-1',
      modelVersion: 'test-model',
    });
    const links = new RecordLinkRepository(store().db);
    const [la, lb] = [await links.active(ids[0]!), await links.active(ids[1]!)];
    expect(la?.personId).toBe(lb?.personId);
    // Both were persons of one; the later one moved into the earlier one's person.
    expect(la).toMatchObject({ basis: 'record' });
    expect(lb).toMatchObject({ basis: 'review_decision', decisionId: decision.id, linkedBy: 'reviewer-1' });
    expect((await review.pair(queued.id))?.status).toBe('decided');
    const staged = await store().db.selectFrom('ledger_queue').select('entry').orderBy('id').execute();
    expect(staged.slice(-3).map((e) => JSON.parse(e.entry).kind)).toEqual([
      'decision.recorded',
      'link.closed',
      'link.created',
    ]);
    const audit = await new AuditRepository(store().db).query({ subjectId: decision.id });
    expect(audit[0]).toMatchObject({ action: 'review.decided', actorId: 'reviewer-1' });
  });

  it('a rejected pair is never proposed again, and a pair already one person is not proposed', async () => {
    await review.decide({
      recordA: ids[2],
      recordB: ids[3],
      decision: 'non_match',
      reviewerId: 'reviewer-2',
    });
    const again = await review.propose([pair(2, 3, 0.99), pair(0, 1, 0.99)]);
    expect(again).toEqual({ proposed: 0, skippedDecided: 2, skippedSamePerson: 0 });
    expect(await review.rejectedPairs()).toEqual([[ids[2], ids[3]].sort()]);
  });

  it('proposes more than a thousand pairs in rounds: each pair once, decided ones left out in any round', async () => {
    const many = await storeRecords(
      store(),
      Array.from({ length: 60 }, (_, i) => ({
        first: 'Synthetic',
        family: `Round ${i}`,
      })),
    );
    await review.decide({
      recordA: many[58],
      recordB: many[59],
      decision: 'non_match',
      reviewerId: 'reviewer-3',
    });
    const pairs = [];
    for (let a = 0; a < many.length; a++)
      for (let b = a + 1; b < many.length; b++)
        pairs.push({ ...pair(0, 1), recordA: many[a] as string, recordB: many[b] as string });
    // 1,770 pairs, each also given the other way round: three rounds of a thousand.
    const result = await review.propose([
      ...pairs,
      ...pairs.map((p) => ({ ...p, recordA: p.recordB, recordB: p.recordA })),
    ]);
    expect(result).toEqual({ proposed: 1769, skippedDecided: 1, skippedSamePerson: 0 });
  });

  it('undoing a match closes the links it made (never deletes them) and reopens the pair', async () => {
    const decision = (await review.history(ids[0]!, ids[1]!)).at(-1)!;
    const undone = await review.undo(decision.id, 'reviewer-3', 'wrong person');
    expect(undone).toMatchObject({ decision: 'undone', note: 'wrong person' });
    const links = new RecordLinkRepository(store().db);
    // The moved record is back in its own person; the other never left its own.
    const [la, lb] = [await links.active(ids[0]!), await links.active(ids[1]!)];
    expect(la?.personId).not.toBe(lb?.personId);
    expect(la).toMatchObject({ basis: 'record' });
    const history = await links.history(ids[1]!);
    expect(history.map((l) => [l.basis, l.unlinkReason])).toEqual([
      ['record', `moved by decision ${decision.id}`],
      ['review_decision', `decision ${decision.id} undone`],
      ['record', null],
    ]);
    expect(history[1]).toMatchObject({ unlinkedBy: 'reviewer-3' });
    expect((await review.history(ids[0]!, ids[1]!)).map((d) => [d.decision, d.supersededBy])).toEqual([
      ['match', undone.id],
      ['undone', null],
    ]);
    expect((await review.open(10)).some((p) => p.recordA === [ids[0], ids[1]].sort()[0])).toBe(true);
    await expect(review.undo(decision.id, 'reviewer-3')).rejects.toThrow(/already superseded/);
  });

  it('a match between two persons moves the smaller one, and undoing it puts everything back', async () => {
    await review.decide({ recordA: ids[0], recordB: ids[1], decision: 'match', reviewerId: 'r' });
    await review.decide({ recordA: ids[4], recordB: ids[5], decision: 'match', reviewerId: 'r' });
    const links = new RecordLinkRepository(store().db);
    const before = (await links.active(ids[4]!))!.personId;
    const joining = await review.decide({
      recordA: ids[1],
      recordB: ids[4],
      decision: 'match',
      reviewerId: 'r',
    });
    const person = (await links.active(ids[0]!))!.personId;
    for (const i of [1, 4, 5]) expect((await links.active(ids[i]!))?.personId).toBe(person);
    await review.undo(joining.id, 'r', 'two people after all');
    for (const i of [4, 5]) expect((await links.active(ids[i]!))?.personId).toBe(before);
    expect((await links.active(ids[1]!))?.personId).toBe(person);
  });

  it('a later decision supersedes the earlier one and takes back its links', async () => {
    const links = new RecordLinkRepository(store().db);
    await review.decide({ recordA: ids[0], recordB: ids[1], decision: 'non_match', reviewerId: 'r2' });
    expect((await links.active(ids[0]!))?.personId).not.toBe((await links.active(ids[1]!))?.personId);
    expect((await review.history(ids[0]!, ids[1]!)).at(-1)).toMatchObject({
      decision: 'non_match',
      supersededBy: null,
    });
  });

  it('refuses bad decisions with stable codes', async () => {
    await expect(review.decide({ pairId: 'nope', decision: 'match', reviewerId: 'r' })).rejects.toMatchObject(
      {
        kind: 'not_found',
      },
    );
    await expect(
      review.decide({ recordA: ids[0], recordB: ids[0], decision: 'match', reviewerId: 'r' }),
    ).rejects.toBeInstanceOf(DomainError);
    await expect(
      review.decide({ recordA: ids[0], recordB: ids[1], decision: 'maybe' as 'match', reviewerId: 'r' }),
    ).rejects.toMatchObject({ kind: 'invalid' });
  });
});
