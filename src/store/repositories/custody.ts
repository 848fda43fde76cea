import { newId, nowIso } from '../../ids.js';
import type { CustodyKind } from '../../ledger/entries.js';
import type { CustodyEventTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

// The kinds are the log's: every custody event becomes one log entry of kind `custody.<kind>`.
export { type CustodyKind, custodyKinds } from '../../ledger/entries.js';

export interface CustodyEventInput {
  evidenceId: string | null;
  kind: CustodyKind;
  actor: string;
  reason?: string | null;
  details?: Record<string, unknown> | null;
  /** When it happened; now when absent. */
  at?: string;
}

export interface CustodyEvent {
  id: string;
  evidenceId: string | null;
  kind: string;
  actor: string;
  at: string;
  reason: string | null;
  details: Record<string, unknown> | null;
  ledgerIndex: number | null;
}

export function toCustodyEvent(row: CustodyEventTable): CustodyEvent {
  return {
    id: row.id,
    evidenceId: row.evidence_id,
    kind: row.kind,
    actor: row.actor,
    at: row.at,
    reason: row.reason,
    details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
    ledgerIndex: row.ledger_index === null ? null : Number(row.ledger_index),
  };
}

/** Custody events, append-only. Services write them through src/services/evidence/custody.ts, never directly. */
export class CustodyRepository {
  constructor(private readonly db: Db) {}

  /** Writes the event and returns the row as stored (what the log entry vouches for). */
  async append(input: CustodyEventInput): Promise<CustodyEventTable> {
    const [row] = await this.appendMany([input]);
    return row as CustodyEventTable;
  }

  /** Writes several events, in order, in one statement per 500; the rows as stored. */
  async appendMany(inputs: readonly CustodyEventInput[]): Promise<CustodyEventTable[]> {
    const rows = inputs.map(
      (input): CustodyEventTable => ({
        id: newId(),
        evidence_id: input.evidenceId,
        kind: input.kind,
        actor: input.actor,
        at: input.at ?? nowIso(),
        reason: input.reason ?? null,
        details: input.details ? JSON.stringify(input.details) : null,
        ledger_index: null,
      }),
    );
    for (const part of slices(rows, 500)) {
      await this.db.insertInto('custody_events').values(part).execute();
    }
    return rows;
  }

  async listForEvidence(evidenceId: string): Promise<CustodyEvent[]> {
    const rows = await this.db
      .selectFrom('custody_events')
      .selectAll()
      .where('evidence_id', '=', evidenceId)
      .orderBy('at')
      .orderBy('id')
      .execute();
    return rows.map(toCustodyEvent);
  }

  async count(filter: { evidenceId?: string; kind?: CustodyKind } = {}): Promise<number> {
    let q = this.db.selectFrom('custody_events').select((eb) => eb.fn.countAll<number>().as('n'));
    if (filter.evidenceId) q = q.where('evidence_id', '=', filter.evidenceId);
    if (filter.kind) q = q.where('kind', '=', filter.kind);
    const row = await q.executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
