import { newId } from '../../ids.js';
import type { RowFields } from '../../ocr/registry-rows.js';
import type { OcrPageReadTable, OcrRowTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

export const pageOutcomes = [
  'proposed',
  'no_rows',
  'not_image',
  'body_photo',
  'unavailable',
  'failed',
] as const;
export type PageOutcome = (typeof pageOutcomes)[number];
export const rowStatuses = ['proposed', 'accepted', 'corrected', 'rejected'] as const;
export type RowStatus = (typeof rowStatuses)[number];

export interface PageRead {
  evidenceId: string;
  engine: string;
  outcome: PageOutcome;
  reason: string | null;
  rows: number;
  pageWidth: number | null;
  pageHeight: number | null;
  skew: number | null;
  dateColumn: string | null;
  seconds: number;
  readAt: string;
  readBy: string | null;
  /** Pages read: 1 for an image, n for a PDF or multi-page TIFF (1 on reads made before migration 0023). */
  pages: number;
  /** Each page's size, the boxes of its rows are in (null before migration 0023: the one page's is above). */
  pageSizes: { width: number; height: number }[] | null;
}

export interface ScannedRow {
  id: string;
  evidenceId: string;
  page: number;
  index: number;
  box: { x: number; y: number; width: number; height: number };
  text: string;
  fields: RowFields;
  fieldConfidence: Partial<Record<keyof RowFields, number>>;
  confidence: number;
  engine: string;
  createdAt: string;
  status: RowStatus;
  correctedFields: RowFields | null;
  decidedBy: string | null;
  decidedAt: string | null;
  recordId: string | null;
  sourceId: string | null;
}

export type NewRow = Omit<
  ScannedRow,
  'id' | 'status' | 'correctedFields' | 'decidedBy' | 'decidedAt' | 'recordId' | 'sourceId'
>;

function toRead(r: OcrPageReadTable): PageRead {
  return {
    evidenceId: r.evidence_id,
    engine: r.engine,
    outcome: r.outcome as PageOutcome,
    reason: r.reason,
    rows: Number(r.rows),
    pageWidth: r.page_width === null ? null : Number(r.page_width),
    pageHeight: r.page_height === null ? null : Number(r.page_height),
    skew: r.skew === null ? null : Number(r.skew),
    dateColumn: r.date_column,
    seconds: Number(r.seconds),
    readAt: r.read_at,
    readBy: r.read_by,
    pages: r.pages === null ? 1 : Number(r.pages),
    pageSizes: r.page_sizes
      ? (JSON.parse(r.page_sizes) as [number, number][]).map(([width, height]) => ({ width, height }))
      : null,
  };
}

function toRow(r: OcrRowTable): ScannedRow {
  return {
    id: r.id,
    evidenceId: r.evidence_id,
    page: Number(r.page),
    index: Number(r.row_index),
    box: { x: Number(r.box_x), y: Number(r.box_y), width: Number(r.box_width), height: Number(r.box_height) },
    text: r.text,
    fields: JSON.parse(r.fields) as RowFields,
    fieldConfidence: JSON.parse(r.field_confidence) as ScannedRow['fieldConfidence'],
    confidence: Number(r.confidence),
    engine: r.engine,
    createdAt: r.created_at,
    status: r.status as RowStatus,
    correctedFields: r.corrected_fields ? (JSON.parse(r.corrected_fields) as RowFields) : null,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at,
    recordId: r.record_id,
    sourceId: r.source_id,
  };
}

/** Scanned registry pages read (migration 0019): one row per item and engine version, and the rows proposed. */
export class OcrRowRepository {
  constructor(private readonly db: Db) {}

  /** Records one page's read and its rows; a second read by the same engine (two at once) leaves the first. */
  async recordRead(read: PageRead, rows: readonly NewRow[]): Promise<boolean> {
    const inserted = await this.db
      .insertInto('ocr_page_reads')
      .values({
        evidence_id: read.evidenceId,
        engine: read.engine,
        outcome: read.outcome,
        reason: read.reason,
        rows: read.rows,
        page_width: read.pageWidth,
        page_height: read.pageHeight,
        skew: read.skew,
        date_column: read.dateColumn,
        seconds: read.seconds,
        read_at: read.readAt,
        read_by: read.readBy,
        pages: read.pages,
        page_sizes: read.pageSizes ? JSON.stringify(read.pageSizes.map((p) => [p.width, p.height])) : null,
      })
      .onConflict((oc) => oc.columns(['evidence_id', 'engine']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    for (const part of slices(rows, 200)) {
      await this.db
        .insertInto('ocr_rows')
        .values(
          part.map((r) => ({
            id: newId(),
            evidence_id: r.evidenceId,
            page: r.page,
            row_index: r.index,
            box_x: r.box.x,
            box_y: r.box.y,
            box_width: r.box.width,
            box_height: r.box.height,
            text: r.text,
            fields: JSON.stringify(r.fields),
            field_confidence: JSON.stringify(r.fieldConfidence),
            confidence: r.confidence,
            engine: r.engine,
            created_at: r.createdAt,
            status: 'proposed',
            corrected_fields: null,
            decided_by: null,
            decided_at: null,
            record_id: null,
            source_id: null,
          })),
        )
        .execute();
    }
    return true;
  }

  async readOf(evidenceId: string, engine: string): Promise<PageRead | undefined> {
    const row = await this.db
      .selectFrom('ocr_page_reads')
      .selectAll()
      .where('evidence_id', '=', evidenceId)
      .where('engine', '=', engine)
      .executeTakeFirst();
    return row ? toRead(row) : undefined;
  }

  /** Every read of an item as a page, newest first. */
  async readsOf(evidenceId: string): Promise<PageRead[]> {
    const rows = await this.db
      .selectFrom('ocr_page_reads')
      .selectAll()
      .where('evidence_id', '=', evidenceId)
      .orderBy('read_at', 'desc')
      .execute();
    return rows.map(toRead);
  }

  /** Of these items, those read as scanned pages (by any engine, whatever came of it). */
  async readAsPages(evidenceIds: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const part of slices(evidenceIds, 500)) {
      const rows = await this.db
        .selectFrom('ocr_page_reads')
        .select('evidence_id')
        .where('evidence_id', 'in', part)
        .where('outcome', 'in', ['proposed', 'no_rows'])
        .execute();
      for (const r of rows) out.add(r.evidence_id);
    }
    return out;
  }

  async rowsOf(evidenceId: string): Promise<ScannedRow[]> {
    const rows = await this.db
      .selectFrom('ocr_rows')
      .selectAll()
      .where('evidence_id', '=', evidenceId)
      .orderBy('engine')
      .orderBy('page')
      .orderBy('row_index')
      .execute();
    return rows.map(toRow);
  }

  /**
   * One row's decision; only a row still proposed is decided (false when another documenter decided it first).
   */
  async decide(
    id: string,
    decision: {
      status: RowStatus;
      correctedFields: RowFields | null;
      by: string;
      at: string;
      recordId: string | null;
      sourceId: string | null;
    },
  ): Promise<boolean> {
    const done = await this.db
      .updateTable('ocr_rows')
      .set({
        status: decision.status,
        corrected_fields: decision.correctedFields ? JSON.stringify(decision.correctedFields) : null,
        decided_by: decision.by,
        decided_at: decision.at,
        record_id: decision.recordId,
        source_id: decision.sourceId,
      })
      .where('id', '=', id)
      .where('status', '=', 'proposed')
      .executeTakeFirst();
    return Number(done.numUpdatedRows ?? 0) > 0;
  }
}
