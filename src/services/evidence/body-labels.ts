import { DomainError } from '../../domain/errors.js';
import { isReadFrom, readFromPlaces } from '../../domain/evidence.js';
import { identifierKey } from '../../evidence/identifiers.js';
import { nowIso } from '../../ids.js';
import { type Body, type BodyLabel, BodyRepository } from '../../store/repositories/bodies.js';
import { TracingRepository } from '../../store/repositories/tracing.js';
import type { AppContext } from '../context.js';
import { tracingQueued } from '../tracing/signal.js';
import { recordCustody } from './custody.js';
import type { EvidenceCatalogue } from './evidence.js';

export const bodyLabelParts = ['branch', 'detainee_number', 'examination_number', 'other'] as const;
export type BodyLabelPart = (typeof bodyLabelParts)[number];

export interface BodyLabelInput {
  part: BodyLabelPart;
  /** Exactly as read. */
  value: string;
  readFrom: string;
}

export interface RecordBodyLabelsInput {
  evidence: string;
  /** The collection the photo belongs to: numbers are only unique within one. */
  collection: string;
  /** The body's key parts; a part left out is taken from the first label of that part. */
  branch?: string | null;
  detaineeNumber?: string | null;
  examinationNumber?: string | null;
  labels: readonly BodyLabelInput[];
  actor: string;
}

export interface RecordedBodyLabels {
  body: Body;
  labels: BodyLabel[];
}

/**
 * The body key of a set of labels: (collection, branch, detainee number, examination number), each number part as
 * its identifier key ('' when unknown). Pure. A detainee number alone never makes a key: branches reuse them, so
 * it must come with a branch or an examination number.
 */
export function bodyKeyOf(input: Omit<RecordBodyLabelsInput, 'evidence' | 'actor'>): {
  collection: string;
  parts: { branch: string | null; detaineeNumber: string | null; examinationNumber: string | null };
  keys: { branchKey: string; detaineeKey: string; examinationKey: string };
} {
  const collection = input.collection.trim().normalize('NFC');
  if (!collection) throw new DomainError('invalid', 'collection: name the collection the photo belongs to');
  const first = (part: BodyLabelPart) => input.labels.find((l) => l.part === part)?.value ?? null;
  const pick = (given: string | null | undefined, part: BodyLabelPart) => {
    const value = (given === undefined ? first(part) : given)?.trim() || null;
    return value;
  };
  const parts = {
    branch: pick(input.branch, 'branch'),
    detaineeNumber: pick(input.detaineeNumber, 'detainee_number'),
    examinationNumber: pick(input.examinationNumber, 'examination_number'),
  };
  const keys = {
    branchKey: parts.branch ? identifierKey(parts.branch) : '',
    detaineeKey: parts.detaineeNumber ? identifierKey(parts.detaineeNumber) : '',
    examinationKey: parts.examinationNumber ? identifierKey(parts.examinationNumber) : '',
  };
  for (const [name, value, key] of [
    ['branch', parts.branch, keys.branchKey],
    ['detaineeNumber', parts.detaineeNumber, keys.detaineeKey],
    ['examinationNumber', parts.examinationNumber, keys.examinationKey],
  ] as const) {
    if (value && !key)
      throw new DomainError('invalid', `${name}: ${JSON.stringify(value)} has no letters or digits`);
  }
  if (!keys.detaineeKey && !keys.examinationKey) {
    throw new DomainError('invalid', 'give a detainee number or an examination number for the body');
  }
  if (keys.detaineeKey && !keys.branchKey && !keys.examinationKey) {
    throw new DomainError(
      'invalid',
      'a detainee number alone does not name a body (branches reuse numbers): give the branch or the examination number too',
    );
  }
  return { collection, parts, keys };
}

/** Body labels (design.md "Body labels"): the numbers read for a body, keyed on all four parts. */
export class BodyLabels {
  constructor(
    private readonly ctx: AppContext,
    private readonly catalogue: EvidenceCatalogue,
  ) {}

  /**
   * Records the labels read on one evidence item for one body: finds or makes the body by its four-part key, keeps
   * every label exactly as read with where it was read, and records the annotating as a custody event (which also
   * goes to the log), all in one transaction.
   */
  async record(input: RecordBodyLabelsInput): Promise<RecordedBodyLabels> {
    if (!input.actor.trim()) throw new DomainError('invalid', 'an actor is required');
    if (input.labels.length === 0)
      throw new DomainError('invalid', 'labels: give at least one label as read');
    input.labels.forEach((label, i) => {
      if (!(bodyLabelParts as readonly string[]).includes(label.part)) {
        throw new DomainError('invalid', `labels.${i}.part: one of ${bodyLabelParts.join(', ')}`);
      }
      if (!isReadFrom(label.readFrom)) {
        throw new DomainError('invalid', `labels.${i}.readFrom: one of ${readFromPlaces.join(', ')}`);
      }
      if (!label.value.trim() || !identifierKey(label.value)) {
        throw new DomainError(
          'invalid',
          `labels.${i}.value: ${JSON.stringify(label.value)} has no letters or digits`,
        );
      }
    });
    const { collection, parts, keys } = bodyKeyOf(input);
    const item = await this.catalogue.resolve(input.evidence);
    const done = await this.ctx.store.transaction(async (trx) => {
      const at = nowIso(() => this.ctx.clock());
      const repo = new BodyRepository(trx);
      const { body } = await repo.findOrCreate({ collection, ...keys }, parts, at, input.actor);
      const labels = await repo.addLabels(
        input.labels.map((l) => ({
          bodyId: body.id,
          evidenceId: item.id,
          part: l.part,
          value: l.value.trim(),
          valueKey: identifierKey(l.value),
          readFrom: l.readFrom,
          createdAt: at,
          createdBy: input.actor,
        })),
      );
      await new TracingRepository(trx, this.ctx.store.capabilities).enqueue(
        [{ kind: 'label', subjectId: item.id }],
        at,
      );
      await recordCustody(trx, {
        evidenceId: item.id,
        kind: 'annotated',
        actor: input.actor,
        at,
        details: { body: body.id, body_labels: labels.map((l) => l.id) },
      });
      return { body, labels };
    });
    tracingQueued(this.ctx.store);
    return done;
  }

  /** The bodies labelled on an item, each with the labels read on this item. */
  async of(evidenceId: string): Promise<EvidenceBodyLabels[]> {
    const repo = new BodyRepository(this.ctx.store.db);
    const labels = await repo.labelsForEvidence(evidenceId);
    const bodies = await repo.getMany([...new Set(labels.map((l) => l.bodyId))]);
    return bodies
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map((body) => ({ body, labels: labels.filter((l) => l.bodyId === body.id) }));
  }
}

export interface EvidenceBodyLabels {
  body: Body;
  labels: BodyLabel[];
}
