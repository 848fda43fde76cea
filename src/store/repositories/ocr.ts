import { newId } from '../../ids.js';
import type { OcrProposalTable, OcrReadTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

export const ocrOutcomes = [
  'proposed',
  'no_card',
  'no_numbers',
  'unclear_numbers',
  'not_image',
  'failed',
] as const;
export type OcrOutcome = (typeof ocrOutcomes)[number];
export const proposalStatuses = ['proposed', 'confirmed', 'corrected', 'rejected'] as const;
export type ProposalStatus = (typeof proposalStatuses)[number];

export interface OcrProposal {
  id: string;
  evidenceId: string;
  part: string;
  value: string;
  valueKey: string;
  confidence: number;
  readFrom: string;
  box: { x: number; y: number; width: number; height: number };
  engine: string;
  createdAt: string;
  status: ProposalStatus;
  correctedValue: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  bodyLabelId: string | null;
}

function toProposal(r: OcrProposalTable): OcrProposal {
  return {
    id: r.id,
    evidenceId: r.evidence_id,
    part: r.part,
    value: r.value,
    valueKey: r.value_key,
    confidence: Number(r.confidence),
    readFrom: r.read_from,
    box: { x: Number(r.box_x), y: Number(r.box_y), width: Number(r.box_width), height: Number(r.box_height) },
    engine: r.engine,
    createdAt: r.created_at,
    status: r.status as ProposalStatus,
    correctedValue: r.corrected_value,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at,
    bodyLabelId: r.body_label_id,
  };
}

export type NewProposal = Omit<
  OcrProposal,
  'id' | 'status' | 'correctedValue' | 'decidedBy' | 'decidedAt' | 'bodyLabelId'
>;

/** What OCR read (migration 0015): one row per item and engine version, and the numbers it proposed. */
export class OcrRepository {
  constructor(private readonly db: Db) {}

  /** Of these items, those already read by this engine version. */
  async readAlready(evidenceIds: readonly string[], engine: string): Promise<Set<string>> {
    const out = new Set<string>();
    for (const part of slices(evidenceIds, 500)) {
      const rows = await this.db
        .selectFrom('ocr_reads')
        .select('evidence_id')
        .where('engine', '=', engine)
        .where('evidence_id', 'in', part)
        .execute();
      for (const r of rows) out.add(r.evidence_id);
    }
    return out;
  }

  /**
   * Records one item's read and its proposals. A second read of the same item by the same engine (two processes
   * at once) leaves the first: nothing is added twice.
   */
  async recordRead(
    read: Omit<OcrReadTable, 'outcome'> & { outcome: OcrOutcome },
    proposals: readonly NewProposal[],
  ): Promise<boolean> {
    const inserted = await this.db
      .insertInto('ocr_reads')
      .values(read)
      .onConflict((oc) => oc.columns(['evidence_id', 'engine']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    if (proposals.length > 0) {
      await this.db
        .insertInto('ocr_proposals')
        .values(
          proposals.map((p) => ({
            id: newId(),
            evidence_id: p.evidenceId,
            part: p.part,
            value: p.value,
            value_key: p.valueKey,
            confidence: p.confidence,
            read_from: p.readFrom,
            box_x: p.box.x,
            box_y: p.box.y,
            box_width: p.box.width,
            box_height: p.box.height,
            engine: p.engine,
            created_at: p.createdAt,
            status: 'proposed',
            corrected_value: null,
            decided_by: null,
            decided_at: null,
            body_label_id: null,
          })),
        )
        .execute();
    }
    return true;
  }

  async proposalsFor(evidenceId: string): Promise<OcrProposal[]> {
    const rows = await this.db
      .selectFrom('ocr_proposals')
      .selectAll()
      .where('evidence_id', '=', evidenceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toProposal);
  }

  async get(id: string): Promise<OcrProposal | undefined> {
    const row = await this.db.selectFrom('ocr_proposals').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toProposal(row) : undefined;
  }

  /** Proposals waiting for a reviewer, least confident first (where the errors are). */
  async waiting(limit: number): Promise<OcrProposal[]> {
    const rows = await this.db
      .selectFrom('ocr_proposals')
      .selectAll()
      .where('status', '=', 'proposed')
      .orderBy('confidence')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toProposal);
  }

  async decide(
    id: string,
    decision: {
      status: ProposalStatus;
      correctedValue: string | null;
      by: string;
      at: string;
      bodyLabelId: string | null;
    },
  ): Promise<void> {
    await this.db
      .updateTable('ocr_proposals')
      .set({
        status: decision.status,
        corrected_value: decision.correctedValue,
        decided_by: decision.by,
        decided_at: decision.at,
        body_label_id: decision.bodyLabelId,
      })
      .where('id', '=', id)
      .where('status', '=', 'proposed')
      .execute();
  }

  /** Decoded images no read by this engine version covers yet, oldest first. */
  async unread(
    engine: string,
    limit: number,
    ingestRunId?: string,
  ): Promise<{ id: string; sha256: string }[]> {
    let q = this.db
      .selectFrom('evidence_items as e')
      .select(['e.id', 'e.sha256'])
      .where('e.decode_status', '=', 'decoded')
      .where('e.media_type', 'like', 'image/%')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('ocr_reads as r')
              .select('r.evidence_id')
              .whereRef('r.evidence_id', '=', 'e.id')
              .where('r.engine', '=', engine),
          ),
        ),
      )
      // An item read as a scanned registry page is no body photo: the card loop leaves it (docs/ocr.md).
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('ocr_page_reads as p')
              .select('p.evidence_id')
              .whereRef('p.evidence_id', '=', 'e.id')
              .where('p.outcome', 'in', ['proposed', 'no_rows']),
          ),
        ),
      );
    if (ingestRunId) {
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('evidence_locations as l')
            .select('l.id')
            .whereRef('l.evidence_id', '=', 'e.id')
            .where('l.ingest_run_id', '=', ingestRunId),
        ),
      );
    }
    return q.orderBy('e.created_at').orderBy('e.id').limit(limit).execute();
  }

  /** Outcomes of this engine's reads, counted. */
  async outcomes(engine: string): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('ocr_reads')
      .select(['outcome', (eb) => eb.fn.countAll<number>().as('n')])
      .where('engine', '=', engine)
      .groupBy('outcome')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.outcome, Number(r.n)]));
  }
}
