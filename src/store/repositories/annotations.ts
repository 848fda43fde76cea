import { newId, nowIso } from '../../ids.js';
import type { AnnotationTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

export interface Annotation {
  id: string;
  evidenceId: string;
  kind: string;
  value: string;
  valueKey: string;
  readFrom: string | null;
  recordId: string | null;
  createdAt: string;
  createdBy: string | null;
}

function toAnnotation(row: AnnotationTable): Annotation {
  return {
    id: row.id,
    evidenceId: row.evidence_id,
    kind: row.kind,
    value: row.value,
    valueKey: row.value_key,
    readFrom: row.read_from,
    recordId: row.record_id,
    createdAt: row.created_at,
    createdBy: row.created_by,
  };
}

/** What people read on an item (card identifiers, notes), kept as written beside a search key. */
export class AnnotationRepository {
  constructor(private readonly db: Db) {}

  async create(input: {
    evidenceId: string;
    kind: string;
    value: string;
    valueKey: string;
    readFrom: string | null;
    recordId?: string | null;
    createdBy: string | null;
  }): Promise<Annotation> {
    const row: AnnotationTable = {
      id: newId(),
      evidence_id: input.evidenceId,
      kind: input.kind,
      value: input.value,
      value_key: input.valueKey,
      read_from: input.readFrom,
      record_id: input.recordId ?? null,
      created_at: nowIso(),
      created_by: input.createdBy,
    };
    await this.db.insertInto('annotations').values(row).execute();
    return toAnnotation(row);
  }

  async get(id: string): Promise<Annotation | undefined> {
    const row = await this.db.selectFrom('annotations').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAnnotation(row) : undefined;
  }

  async listForEvidence(evidenceId: string): Promise<Annotation[]> {
    const rows = await this.db
      .selectFrom('annotations')
      .selectAll()
      .where('evidence_id', '=', evidenceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toAnnotation);
  }

  /** Annotations whose key equals the given key, optionally of one kind. */
  /** Which of these value keys an annotation of this kind carries (500 a query). */
  async keysAmong(valueKeys: readonly string[], kind: string): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of slices(valueKeys, 500)) {
      const rows = await this.db
        .selectFrom('annotations')
        .select('value_key')
        .distinct()
        .where('kind', '=', kind)
        .where('value_key', 'in', part)
        .execute();
      for (const r of rows) if (r.value_key) found.add(r.value_key);
    }
    return found;
  }

  async findByKey(valueKey: string, kind?: string, limit = 200): Promise<Annotation[]> {
    let q = this.db.selectFrom('annotations').selectAll().where('value_key', '=', valueKey);
    if (kind) q = q.where('kind', '=', kind);
    const rows = await q.orderBy('created_at').orderBy('id').limit(limit).execute();
    return rows.map(toAnnotation);
  }

  async listForRecord(recordId: string): Promise<Annotation[]> {
    const rows = await this.db
      .selectFrom('annotations')
      .selectAll()
      .where('record_id', '=', recordId)
      .orderBy('created_at')
      .execute();
    return rows.map(toAnnotation);
  }

  async setRecord(id: string, recordId: string | null): Promise<void> {
    await this.db.updateTable('annotations').set({ record_id: recordId }).where('id', '=', id).execute();
  }
}
