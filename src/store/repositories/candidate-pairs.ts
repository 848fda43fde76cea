import type { OnConflictBuilder } from 'kysely';
import { type CandidateStatus, reviewPriority } from '../../domain/review.js';
import { newId, nowIso } from '../../ids.js';
import { columnsOf, jsonChunk, rowsFromJson, sqliteInserts } from '../bulk-rows.js';
import type { Capabilities } from '../capabilities.js';
import type { CandidatePairTable, Database } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';
import { withdrawnRecords } from './reports.js';

export interface CandidatePair {
  id: string;
  /** record_a < record_b. */
  recordA: string;
  recordB: string;
  probability: number;
  matchWeight: number;
  modelVersion: string;
  /** The explanation (waterfall) as stored, JSON. */
  explanation: unknown;
  status: CandidateStatus;
  createdAt: string;
  /** How much deciding it does (docs/tracing.md "Review order"); the queue serves higher first. */
  priority: number;
}

export interface NewCandidatePair {
  recordA: string;
  recordB: string;
  probability: number;
  matchWeight: number;
  modelVersion: string;
  explanation?: unknown;
  priority?: number;
}

/** A pair's two ids in stored order (record_a < record_b). */
export function orderedPair(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}

function toPair(row: CandidatePairTable): CandidatePair {
  return {
    id: row.id,
    recordA: row.record_a,
    recordB: row.record_b,
    probability: row.probability,
    matchWeight: row.match_weight,
    modelVersion: row.model_version,
    explanation: row.explanation ? JSON.parse(row.explanation) : null,
    status: row.status as CandidateStatus,
    createdAt: row.created_at,
    priority: row.priority,
  };
}

/** The review queue's pairs: one row per pair, rescored in place while open. */
export class CandidatePairRepository {
  constructor(
    private readonly db: Db,
    private readonly caps: Capabilities,
  ) {}

  /**
   * Adds pairs to the queue; a pair already queued and still open gets the new score and explanation, a decided one
   * is left as it is. Returns how many rows were inserted or rescored.
   */
  async upsert(pairs: readonly NewCandidatePair[], at = nowIso()): Promise<number> {
    const rows: CandidatePairTable[] = pairs.map((p) => {
      const [a, b] = orderedPair(p.recordA, p.recordB);
      return {
        id: newId(),
        record_a: a,
        record_b: b,
        probability: p.probability,
        match_weight: p.matchWeight,
        model_version: p.modelVersion,
        explanation: p.explanation === undefined ? null : JSON.stringify(p.explanation),
        status: 'open',
        created_at: at,
        priority: p.priority ?? reviewPriority(p),
      };
    });
    let changed = 0;
    // A pair already in the queue takes the newer model's figures while it is open; a decided pair is left.
    const update = <C extends OnConflictBuilder<Database, 'candidate_pairs'>>(oc: C) =>
      oc
        .columns(['record_a', 'record_b'])
        .doUpdateSet((eb) => ({
          probability: eb.ref('excluded.probability'),
          match_weight: eb.ref('excluded.match_weight'),
          model_version: eb.ref('excluded.model_version'),
          explanation: eb.ref('excluded.explanation'),
          priority: eb.ref('excluded.priority'),
        }))
        .where('candidate_pairs.status', '=', 'open');
    if (this.caps.dialect === 'postgres') {
      // One JSON parameter per statement (bulk-rows.ts).
      for (const part of slices(rows, jsonChunk)) {
        const result = await this.db
          .insertInto('candidate_pairs')
          .columns(columnsOf(part))
          .expression(rowsFromJson('candidate_pairs', part))
          .onConflict(update)
          .executeTakeFirst();
        changed += Number(result.numInsertedOrUpdatedRows ?? 0n);
      }
      return changed;
    }
    for (const statement of sqliteInserts(this.db, this.caps, 'candidate_pairs', rows)) {
      const result = await statement.onConflict(update).executeTakeFirst();
      changed += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return changed;
  }

  async get(id: string): Promise<CandidatePair | undefined> {
    const row = await this.db
      .selectFrom('candidate_pairs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toPair(row) : undefined;
  }

  async findPair(a: string, b: string): Promise<CandidatePair | undefined> {
    const [x, y] = orderedPair(a, b);
    const row = await this.db
      .selectFrom('candidate_pairs')
      .selectAll()
      .where('record_a', '=', x)
      .where('record_b', '=', y)
      .executeTakeFirst();
    return row ? toPair(row) : undefined;
  }

  /**
   * Pairs with the given status, those whose decision does most first (priority); pages with `after` (the last
   * pair of the previous page). `withoutWithdrawn` leaves out pairs either of whose records comes from a family
   * report that does not (or no longer) consent to internal use, in the query, so pages come back full.
   */
  async list(
    status: CandidateStatus,
    limit: number,
    after?: { priority: number; id: string },
    options: { withoutWithdrawn?: boolean } = {},
  ): Promise<CandidatePair[]> {
    let q = this.db.selectFrom('candidate_pairs').selectAll().where('status', '=', status);
    if (options.withoutWithdrawn) {
      q = q
        .where('record_a', 'not in', withdrawnRecords(this.db, 'internal_use'))
        .where('record_b', 'not in', withdrawnRecords(this.db, 'internal_use'));
    }
    if (after) {
      q = q.where((eb) =>
        eb.or([
          eb('priority', '<', after.priority),
          eb.and([eb('priority', '=', after.priority), eb('id', '>', after.id)]),
        ]),
      );
    }
    const rows = await q
      .orderBy('priority', 'desc')
      .orderBy('id', 'asc')
      .limit(Math.max(1, Math.min(limit, 1000)))
      .execute();
    return rows.map(toPair);
  }

  async setStatus(id: string, status: CandidateStatus): Promise<void> {
    await this.db.updateTable('candidate_pairs').set({ status }).where('id', '=', id).execute();
  }

  async countByStatus(): Promise<Record<CandidateStatus, number>> {
    const rows = await this.db
      .selectFrom('candidate_pairs')
      .select(['status', (eb) => eb.fn.countAll<string | number>().as('n')])
      .groupBy('status')
      .execute();
    const out: Record<CandidateStatus, number> = { open: 0, decided: 0, unsure: 0 };
    for (const r of rows) out[r.status as CandidateStatus] = Number(r.n);
    return out;
  }
}
