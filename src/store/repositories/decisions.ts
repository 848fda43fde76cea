import type { DecisionKind } from '../../domain/review.js';
import { newId } from '../../ids.js';
import type { DecisionTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';
import { orderedPair } from './candidate-pairs.js';

export interface Decision {
  id: string;
  recordA: string;
  recordB: string;
  decision: DecisionKind;
  reviewerId: string;
  decidedAt: string;
  modelVersion: string | null;
  note: string | null;
  /** A later decision on the same pair that replaced this one. */
  supersededBy: string | null;
}

function toDecision(row: DecisionTable): Decision {
  return {
    id: row.id,
    recordA: row.record_a,
    recordB: row.record_b,
    decision: row.decision as DecisionKind,
    reviewerId: row.reviewer_id,
    decidedAt: row.decided_at,
    modelVersion: row.model_version,
    note: row.note,
    supersededBy: row.superseded_by,
  };
}

/** Decisions are appended and superseded, never changed otherwise or deleted. */
export class DecisionRepository {
  constructor(private readonly db: Db) {}

  async insert(input: {
    recordA: string;
    recordB: string;
    decision: DecisionKind;
    reviewerId: string;
    decidedAt: string;
    modelVersion?: string | null;
    note?: string | null;
  }): Promise<Decision> {
    const [a, b] = orderedPair(input.recordA, input.recordB);
    const row: DecisionTable = {
      id: newId(),
      record_a: a,
      record_b: b,
      decision: input.decision,
      reviewer_id: input.reviewerId,
      decided_at: input.decidedAt,
      model_version: input.modelVersion ?? null,
      note: input.note ?? null,
      superseded_by: null,
    };
    await this.db.insertInto('decisions').values(row).execute();
    return toDecision(row);
  }

  /** A decision's stored row, and the rows it supersedes (what the log vouches for). */
  async rowsForLog(id: string): Promise<{ row: DecisionTable; superseded: DecisionTable[] }> {
    const row = await this.db
      .selectFrom('decisions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const superseded = await this.db
      .selectFrom('decisions')
      .selectAll()
      .where('superseded_by', '=', id)
      .execute();
    return { row, superseded };
  }

  async get(id: string): Promise<Decision | undefined> {
    const row = await this.db.selectFrom('decisions').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toDecision(row) : undefined;
  }

  /** The pair's decision in force (not superseded), if any. */
  async current(a: string, b: string): Promise<Decision | undefined> {
    const [x, y] = orderedPair(a, b);
    const row = await this.db
      .selectFrom('decisions')
      .selectAll()
      .where('record_a', '=', x)
      .where('record_b', '=', y)
      .where('superseded_by', 'is', null)
      .orderBy('decided_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row ? toDecision(row) : undefined;
  }

  /** Every decision ever made on the pair, oldest first. */
  async history(a: string, b: string): Promise<Decision[]> {
    const [x, y] = orderedPair(a, b);
    const rows = await this.db
      .selectFrom('decisions')
      .selectAll()
      .where('record_a', '=', x)
      .where('record_b', '=', y)
      .orderBy('decided_at')
      .orderBy('id')
      .execute();
    return rows.map(toDecision);
  }

  async supersede(id: string, by: string): Promise<void> {
    await this.db
      .updateTable('decisions')
      .set({ superseded_by: by })
      .where('id', '=', id)
      .where('superseded_by', 'is', null)
      .execute();
  }

  /** Pairs whose decision in force is of this kind (e.g. the rejected pairs, never to be proposed again). */
  async pairsDecided(kind: DecisionKind): Promise<[string, string][]> {
    const rows = await this.db
      .selectFrom('decisions')
      .select(['record_a', 'record_b'])
      .where('decision', '=', kind)
      .where('superseded_by', 'is', null)
      .execute();
    return rows.map((r) => [r.record_a, r.record_b]);
  }

  /** The decisions in force among these pairs (chunked lookups; for filtering proposals). */
  /** Pairs rejected by a decision in force that involve one of these records. */
  async rejectedAmong(recordIds: readonly string[]): Promise<[string, string][]> {
    const out: [string, string][] = [];
    for (const ids of slices(recordIds, 250)) {
      const rows = await this.db
        .selectFrom('decisions')
        .select(['record_a', 'record_b'])
        .where('decision', '=', 'non_match')
        .where('superseded_by', 'is', null)
        .where((eb) => eb.or([eb('record_a', 'in', ids), eb('record_b', 'in', ids)]))
        .execute();
      for (const r of rows) out.push([r.record_a, r.record_b]);
    }
    return out;
  }

  async currentAmong(pairs: readonly [string, string][]): Promise<Map<string, Decision>> {
    const out = new Map<string, Decision>();
    const ordered = pairs.map(([a, b]) => orderedPair(a, b));
    for (const chunk of slices(ordered, 400)) {
      const rows = await this.db
        .selectFrom('decisions')
        .selectAll()
        .where('superseded_by', 'is', null)
        .where((eb) => eb.or(chunk.map(([a, b]) => eb.and([eb('record_a', '=', a), eb('record_b', '=', b)]))))
        .execute();
      for (const row of rows) out.set(`${row.record_a}\u0000${row.record_b}`, toDecision(row));
    }
    return out;
  }
}
