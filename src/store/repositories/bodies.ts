import { newId } from '../../ids.js';
import type { BodyLabelTable, BodyTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

export interface BodyKey {
  collection: string;
  branchKey: string;
  detaineeKey: string;
  examinationKey: string;
}

export interface Body extends BodyKey {
  id: string;
  branch: string | null;
  detaineeNumber: string | null;
  examinationNumber: string | null;
  createdAt: string;
  createdBy: string | null;
}

export interface BodyLabel {
  id: string;
  bodyId: string;
  evidenceId: string;
  part: string;
  value: string;
  valueKey: string;
  readFrom: string;
  createdAt: string;
  createdBy: string | null;
}

function toBody(row: BodyTable): Body {
  return {
    id: row.id,
    collection: row.collection,
    branchKey: row.branch_key,
    detaineeKey: row.detainee_key,
    examinationKey: row.examination_key,
    branch: row.branch,
    detaineeNumber: row.detainee_number,
    examinationNumber: row.examination_number,
    createdAt: row.created_at,
    createdBy: row.created_by,
  };
}

function toLabel(row: BodyLabelTable): BodyLabel {
  return {
    id: row.id,
    bodyId: row.body_id,
    evidenceId: row.evidence_id,
    part: row.part,
    value: row.value,
    valueKey: row.value_key,
    readFrom: row.read_from,
    createdAt: row.created_at,
    createdBy: row.created_by,
  };
}

/** Bodies (by their four-part key) and the labels read for them on evidence items. Append-only. */
export class BodyRepository {
  constructor(private readonly db: Db) {}

  /** The body with this key, made when new (the first caller's display values win). */
  async findOrCreate(
    key: BodyKey,
    display: { branch: string | null; detaineeNumber: string | null; examinationNumber: string | null },
    at: string,
    by: string | null,
  ): Promise<{ body: Body; created: boolean }> {
    const inserted = await this.db
      .insertInto('bodies')
      .values({
        id: newId(),
        collection: key.collection,
        branch_key: key.branchKey,
        detainee_key: key.detaineeKey,
        examination_key: key.examinationKey,
        branch: display.branch,
        detainee_number: display.detaineeNumber,
        examination_number: display.examinationNumber,
        created_at: at,
        created_by: by,
      })
      .onConflict((oc) =>
        oc.columns(['collection', 'branch_key', 'detainee_key', 'examination_key']).doNothing(),
      )
      .executeTakeFirst();
    const row = await this.db
      .selectFrom('bodies')
      .selectAll()
      .where('collection', '=', key.collection)
      .where('branch_key', '=', key.branchKey)
      .where('detainee_key', '=', key.detaineeKey)
      .where('examination_key', '=', key.examinationKey)
      .executeTakeFirstOrThrow();
    return { body: toBody(row), created: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 };
  }

  async get(id: string): Promise<Body | undefined> {
    const row = await this.db.selectFrom('bodies').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toBody(row) : undefined;
  }

  async getMany(ids: readonly string[]): Promise<Body[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('bodies').selectAll().where('id', 'in', ids).execute();
    return rows.map(toBody);
  }

  /** Bodies whose detainee number has this key, in any branch or collection (a search, never an identity). */
  /** Which of these detainee keys some body carries (500 a query): the tracing loop asks it for a whole batch. */
  async detaineeKeysAmong(keys: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of slices(keys, 500)) {
      const rows = await this.db
        .selectFrom('bodies')
        .select('detainee_key')
        .distinct()
        .where('detainee_key', 'in', part)
        .execute();
      for (const r of rows) if (r.detainee_key) found.add(r.detainee_key);
    }
    return found;
  }

  async withDetaineeKey(detaineeKey: string): Promise<Body[]> {
    const rows = await this.db
      .selectFrom('bodies')
      .selectAll()
      .where('detainee_key', '=', detaineeKey)
      .orderBy('id')
      .execute();
    return rows.map(toBody);
  }

  async addLabels(labels: readonly Omit<BodyLabel, 'id'>[]): Promise<BodyLabel[]> {
    const rows: BodyLabelTable[] = labels.map((l) => ({
      id: newId(),
      body_id: l.bodyId,
      evidence_id: l.evidenceId,
      part: l.part,
      value: l.value,
      value_key: l.valueKey,
      read_from: l.readFrom,
      created_at: l.createdAt,
      created_by: l.createdBy,
    }));
    if (rows.length > 0) await this.db.insertInto('body_labels').values(rows).execute();
    return rows.map(toLabel);
  }

  async labelsForEvidence(evidenceId: string): Promise<BodyLabel[]> {
    const rows = await this.db
      .selectFrom('body_labels')
      .selectAll()
      .where('evidence_id', '=', evidenceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toLabel);
  }

  async labelsForBody(bodyId: string): Promise<BodyLabel[]> {
    const rows = await this.db
      .selectFrom('body_labels')
      .selectAll()
      .where('body_id', '=', bodyId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toLabel);
  }
}
