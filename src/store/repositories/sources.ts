import type { SourceKind } from '../../domain/registry.js';
import { newId, nowIso } from '../../ids.js';
import type { SourceTable } from '../schema.js';
import type { Db } from '../store.js';

export interface Source {
  id: string;
  name: string;
  kind: string;
  description: string | null;
  reliabilityNotes: string | null;
  createdAt: string;
  createdBy: string | null;
}

function toSource(row: SourceTable): Source {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    description: row.description,
    reliabilityNotes: row.reliability_notes,
    createdAt: row.created_at,
    createdBy: row.created_by,
  };
}

export class SourceRepository {
  constructor(private readonly db: Db) {}

  async create(input: {
    name: string;
    kind: SourceKind;
    description?: string | null;
    reliabilityNotes?: string | null;
    createdBy?: string | null;
    /** Its id and time, when the caller has them already (a report's source is made in the report's time). */
    id?: string;
    at?: string;
  }): Promise<Source> {
    const row: SourceTable = {
      id: input.id ?? newId(),
      name: input.name,
      kind: input.kind,
      description: input.description ?? null,
      reliability_notes: input.reliabilityNotes ?? null,
      created_at: input.at ?? nowIso(),
      created_by: input.createdBy ?? null,
    };
    await this.db.insertInto('sources').values(row).execute();
    return toSource(row);
  }

  /** The source with this name, made on first use (imports name their source). */
  async findOrCreate(name: string, kind: SourceKind, createdBy: string | null = null): Promise<Source> {
    const existing = await this.findByName(name);
    if (existing) return existing;
    await this.db
      .insertInto('sources')
      .values({
        id: newId(),
        name,
        kind,
        description: null,
        reliability_notes: null,
        created_at: nowIso(),
        created_by: createdBy,
      })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return (await this.findByName(name)) as Source;
  }

  async findByName(name: string): Promise<Source | undefined> {
    const row = await this.db.selectFrom('sources').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toSource(row) : undefined;
  }

  async get(id: string): Promise<Source | undefined> {
    const row = await this.db.selectFrom('sources').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSource(row) : undefined;
  }

  async list(): Promise<Source[]> {
    const rows = await this.db.selectFrom('sources').selectAll().orderBy('name').execute();
    return rows.map(toSource);
  }
}
