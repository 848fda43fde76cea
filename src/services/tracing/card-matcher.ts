import { identifierKey } from '../../evidence/identifiers.js';
import { branchesNest, resolveBranch } from '../../gazetteer/index.js';
import type { Capabilities } from '../../store/capabilities.js';
import { AnnotationRepository } from '../../store/repositories/annotations.js';
import { BodyRepository } from '../../store/repositories/bodies.js';
import { RecordRepository } from '../../store/repositories/records.js';
import type { Db } from '../../store/store.js';
import { detaineeKeyPrefix } from '../registry/record-fields.js';

/** The numbers read for one body on one item: as read, and as keys (digits in either script folded). */
export interface Card {
  branch: string | null;
  detaineeKey: string;
  examinationKey: string;
}

export interface CardMatch {
  recordId: string;
  personId: string | null;
  card: Card;
  /** What agreed, in words a reviewer reads. */
  basis: string;
  /** The same as data, for the proposal's explanation. */
  explanation: { detaineeNumber: string; branch?: string; examinationNumber?: string };
}

/**
 * The cards an evidence item carries: each body labelled on it (branch, detainee and examination numbers), and the
 * item's own annotations taken together as one card when they give a detainee number.
 */
export async function cardsOf(db: Db, evidenceId: string): Promise<Card[]> {
  const cards: Card[] = [];
  const bodies = new BodyRepository(db);
  const labels = await bodies.labelsForEvidence(evidenceId);
  for (const body of await bodies.getMany([...new Set(labels.map((l) => l.bodyId))])) {
    if (body.detaineeKey) {
      cards.push({ branch: body.branch, detaineeKey: body.detaineeKey, examinationKey: body.examinationKey });
    }
  }
  const notes = await new AnnotationRepository(db).listForEvidence(evidenceId);
  const first = (kind: string) => notes.find((a) => a.kind === kind);
  const detainee = first('detainee_number');
  if (detainee?.valueKey) {
    cards.push({
      branch: first('branch_number')?.value ?? null,
      detaineeKey: detainee.valueKey,
      examinationKey: first('forensic_report_number')?.valueKey ?? '',
    });
  }
  return cards;
}

/**
 * Registry records a card names: the same detainee number and, beside it, the same branch or the same examination
 * (forensic report) number — never the detainee number alone, which branches reuse (design.md "Body labels").
 */
export async function matchCard(db: Db, caps: Capabilities, card: Card): Promise<CardMatch[]> {
  const records = new RecordRepository(db, caps);
  const hits = await records.keyHits([`${detaineeKeyPrefix}${card.detaineeKey}`], {}, 200);
  if (hits.length === 0) return [];
  const branch = card.branch ? resolveBranch(card.branch) : undefined;
  const out: CardMatch[] = [];
  for (const record of await records.many(hits.map((h) => h.record_id))) {
    // A card names a branch by its number or by its agency alone (الجوية): the record's branch of that agency agrees.
    const recorded = record.arresting_branch_id ? resolveBranch(record.arresting_branch_id) : undefined;
    const sameBranch = branch !== undefined && recorded !== undefined && branchesNest(branch, recorded);
    const sameExamination =
      card.examinationKey !== '' &&
      record.forensic_report_number !== null &&
      identifierKey(record.forensic_report_number) === card.examinationKey;
    if (!sameBranch && !sameExamination) continue;
    const agreed = [
      `detainee number ${record.detainee_number}`,
      ...(sameBranch ? [`branch ${record.arresting_branch_id}`] : []),
      ...(sameExamination ? [`examination number ${record.forensic_report_number}`] : []),
    ];
    out.push({
      recordId: record.id,
      personId: record.person_id,
      card,
      basis: `card label matches the registry record: ${agreed.join(', ')} (proposed by the matcher)`,
      explanation: {
        detaineeNumber: record.detainee_number ?? '',
        ...(sameBranch ? { branch: record.arresting_branch_id as string } : {}),
        ...(sameExamination ? { examinationNumber: record.forensic_report_number as string } : {}),
      },
    });
  }
  return out;
}

/** Evidence items whose labels or annotations carry this detainee number (a key): where a new record may be named. */
export async function evidenceNamingDetainee(db: Db, detaineeKey: string): Promise<string[]> {
  const found = new Set<string>();
  const bodies = new BodyRepository(db);
  for (const body of await bodies.withDetaineeKey(detaineeKey)) {
    for (const label of await bodies.labelsForBody(body.id)) found.add(label.evidenceId);
  }
  for (const a of await new AnnotationRepository(db).findByKey(detaineeKey, 'detainee_number'))
    found.add(a.evidenceId);
  return [...found].sort();
}

/** The detainee keys among these that some label or annotation carries (a few queries for a batch of records). */
export async function detaineeKeysNamed(db: Db, keys: readonly string[]): Promise<Set<string>> {
  const distinct = [...new Set(keys)];
  if (distinct.length === 0) return new Set();
  const named = await new BodyRepository(db).detaineeKeysAmong(distinct);
  for (const key of await new AnnotationRepository(db).keysAmong(distinct, 'detainee_number')) named.add(key);
  return named;
}
