import type { EvidenceGroupTable, EvidenceItemTable, EvidenceLocationTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

export interface EvidenceItem {
  id: string;
  sha256: string;
  sizeBytes: number;
  mediaType: string;
  /** The file name as first found, exactly (base64 of its bytes). */
  originalNameB64: string | null;
  originalName: string | null;
  sourceId: string | null;
  width: number | null;
  height: number | null;
  orientation: number | null;
  pdq: string | null;
  pdqQuality: number | null;
  metadata: Record<string, unknown> | null;
  decodable: boolean;
  decodeStatus: string | null;
  decodeError: string | null;
  graphic: boolean;
  thumbnailSha256: string | null;
  blurredSha256: string | null;
  ingestRunId: string | null;
  createdAt: string;
  createdBy: string | null;
}

export interface EvidenceLocation {
  id: string;
  evidenceId: string;
  ingestRunId: string;
  sourceId: string | null;
  pathB64: string;
  path: string;
  sizeBytes: number;
  modifiedAt: string | null;
  foundAt: string;
}

export interface EvidenceGroup {
  evidenceId: string;
  groupId: string;
  nearestId: string | null;
  nearestDistance: number | null;
  assignedAt: string;
}

/** A PDQ-hashed item as the near-duplicate index needs it. */
export interface HashedItem {
  id: string;
  pdq: string;
  quality: number | null;
  groupId: string | null;
}

function toItem(row: EvidenceItemTable): EvidenceItem {
  return {
    id: row.id,
    sha256: row.sha256,
    sizeBytes: Number(row.size_bytes),
    mediaType: row.media_type,
    originalNameB64: row.original_name_b64,
    originalName: row.original_name,
    sourceId: row.source_id,
    width: row.width,
    height: row.height,
    orientation: row.orientation,
    pdq: row.pdq,
    pdqQuality: row.pdq_quality,
    metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : null,
    decodable: row.decodable === 1,
    decodeStatus: row.decode_status,
    decodeError: row.decode_error,
    graphic: row.graphic === 1,
    thumbnailSha256: row.thumbnail_sha256,
    blurredSha256: row.blurred_sha256,
    ingestRunId: row.ingest_run_id,
    createdAt: row.created_at,
    createdBy: row.created_by,
  };
}

function toLocation(row: EvidenceLocationTable): EvidenceLocation {
  return {
    id: row.id,
    evidenceId: row.evidence_id,
    ingestRunId: row.ingest_run_id,
    sourceId: row.source_id,
    pathB64: row.path_b64,
    path: row.path,
    sizeBytes: Number(row.size_bytes),
    modifiedAt: row.modified_at,
    foundAt: row.found_at,
  };
}

function toGroup(row: EvidenceGroupTable): EvidenceGroup {
  return {
    evidenceId: row.evidence_id,
    groupId: row.group_id,
    nearestId: row.nearest_id,
    nearestDistance: row.nearest_distance,
    assignedAt: row.assigned_at,
  };
}

/** Rows per multi-row statement: well under either dialect's parameter limit for these tables. */
const manyChunk = 500;

/**
 * Evidence items, where each was found, and their near-duplicate groups. Items are written once and never
 * changed here; their bytes live in the blob store under `sha256`.
 */
export class EvidenceRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the item unless its content is already stored; true when this call stored it. */
  async insert(row: EvidenceItemTable): Promise<boolean> {
    const result = await this.db
      .insertInto('evidence_items')
      .values(row)
      .onConflict((oc) => oc.column('sha256').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Inserts items whose content is not stored yet, in one statement per 500; the ids of those it stored. */
  async insertMany(rows: readonly EvidenceItemTable[]): Promise<Set<string>> {
    const stored = new Set<string>();
    for (const part of slices(rows, manyChunk)) {
      const inserted = await this.db
        .insertInto('evidence_items')
        .values(part)
        .onConflict((oc) => oc.column('sha256').doNothing())
        .returning('id')
        .execute();
      for (const r of inserted) stored.add(r.id);
    }
    return stored;
  }

  async get(id: string): Promise<EvidenceItem | undefined> {
    const row = await this.db
      .selectFrom('evidence_items')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toItem(row) : undefined;
  }

  async findBySha256(sha256: string): Promise<EvidenceItem | undefined> {
    const row = await this.db
      .selectFrom('evidence_items')
      .selectAll()
      .where('sha256', '=', sha256)
      .executeTakeFirst();
    return row ? toItem(row) : undefined;
  }

  async idBySha256(sha256: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('evidence_items')
      .select('id')
      .where('sha256', '=', sha256)
      .executeTakeFirst();
    return row?.id;
  }

  /** Items whose SHA-256 starts with the given hex (at least 8 digits), at most `limit`. */
  async findBySha256Prefix(prefix: string, limit = 2): Promise<EvidenceItem[]> {
    if (!/^[0-9a-f]{8,64}$/.test(prefix)) return [];
    const upper = `${prefix}g`;
    const rows = await this.db
      .selectFrom('evidence_items')
      .selectAll()
      .where('sha256', '>=', prefix)
      .where('sha256', '<', upper)
      .orderBy('sha256')
      .limit(limit)
      .execute();
    return rows.map(toItem);
  }

  /** Stored rows as they are (every column), 500 ids a statement: what the log vouches for. */
  async rows(ids: readonly string[]): Promise<EvidenceItemTable[]> {
    const out: EvidenceItemTable[] = [];
    for (const part of slices(ids, 500)) {
      out.push(...(await this.db.selectFrom('evidence_items').selectAll().where('id', 'in', part).execute()));
    }
    return out;
  }

  async getMany(ids: readonly string[]): Promise<EvidenceItem[]> {
    return (await this.rows(ids)).map(toItem);
  }

  /** Every item, in id order (small stores and checks only). */
  async listAll(): Promise<EvidenceItem[]> {
    const rows = await this.db.selectFrom('evidence_items').selectAll().orderBy('id').execute();
    return rows.map(toItem);
  }

  /** Every PDQ-hashed item with its group, in id order (for building the near-duplicate index). */
  async listHashed(): Promise<HashedItem[]> {
    const rows = await this.db
      .selectFrom('evidence_items')
      .leftJoin('evidence_groups', 'evidence_groups.evidence_id', 'evidence_items.id')
      .select([
        'evidence_items.id as id',
        'evidence_items.pdq as pdq',
        'evidence_items.pdq_quality as quality',
        'evidence_groups.group_id as groupId',
      ])
      .where('evidence_items.pdq', 'is not', null)
      .orderBy('evidence_items.id')
      .execute();
    return rows.map((r) => ({ id: r.id, pdq: r.pdq as string, quality: r.quality, groupId: r.groupId }));
  }

  /** Records where the item's bytes were found; false when this path was already recorded for it. */
  async addLocation(row: EvidenceLocationTable): Promise<boolean> {
    const result = await this.db
      .insertInto('evidence_locations')
      .values(row)
      .onConflict((oc) => oc.columns(['evidence_id', 'path_key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Records several places at once; the ids of those not already recorded for their item. */
  async addLocations(rows: readonly EvidenceLocationTable[]): Promise<Set<string>> {
    const added = new Set<string>();
    for (const part of slices(rows, manyChunk)) {
      const inserted = await this.db
        .insertInto('evidence_locations')
        .values(part)
        .onConflict((oc) => oc.columns(['evidence_id', 'path_key']).doNothing())
        .returning('id')
        .execute();
      for (const r of inserted) added.add(r.id);
    }
    return added;
  }

  async hasLocation(evidenceId: string, pathKey: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('evidence_locations')
      .select('id')
      .where('evidence_id', '=', evidenceId)
      .where('path_key', '=', pathKey)
      .executeTakeFirst();
    return row !== undefined;
  }

  async locations(evidenceId: string): Promise<EvidenceLocation[]> {
    const rows = await this.db
      .selectFrom('evidence_locations')
      .selectAll()
      .where('evidence_id', '=', evidenceId)
      .orderBy('found_at')
      .orderBy('id')
      .execute();
    return rows.map(toLocation);
  }

  async group(evidenceId: string): Promise<EvidenceGroup | undefined> {
    const row = await this.db
      .selectFrom('evidence_groups')
      .selectAll()
      .where('evidence_id', '=', evidenceId)
      .executeTakeFirst();
    return row ? toGroup(row) : undefined;
  }

  async groupMembers(groupId: string): Promise<EvidenceGroup[]> {
    const rows = await this.db
      .selectFrom('evidence_groups')
      .selectAll()
      .where('group_id', '=', groupId)
      .orderBy('evidence_id')
      .execute();
    return rows.map(toGroup);
  }

  async setGroup(group: EvidenceGroup): Promise<void> {
    const row: EvidenceGroupTable = {
      evidence_id: group.evidenceId,
      group_id: group.groupId,
      nearest_id: group.nearestId,
      nearest_distance: group.nearestDistance,
      assigned_at: group.assignedAt,
    };
    await this.db
      .insertInto('evidence_groups')
      .values(row)
      .onConflict((oc) =>
        oc.column('evidence_id').doUpdateSet({
          group_id: row.group_id,
          nearest_id: row.nearest_id,
          nearest_distance: row.nearest_distance,
          assigned_at: row.assigned_at,
        }),
      )
      .execute();
  }

  /** Sets the group of several items (each new to the groups table, or moved), in one statement per 500. */
  async setGroups(groups: readonly EvidenceGroup[]): Promise<void> {
    for (const part of slices(groups, manyChunk)) {
      await this.db
        .insertInto('evidence_groups')
        .values(
          part.map((group) => ({
            evidence_id: group.evidenceId,
            group_id: group.groupId,
            nearest_id: group.nearestId,
            nearest_distance: group.nearestDistance,
            assigned_at: group.assignedAt,
          })),
        )
        .onConflict((oc) =>
          oc.column('evidence_id').doUpdateSet((eb) => ({
            group_id: eb.ref('excluded.group_id'),
            nearest_id: eb.ref('excluded.nearest_id'),
            nearest_distance: eb.ref('excluded.nearest_distance'),
            assigned_at: eb.ref('excluded.assigned_at'),
          })),
        )
        .execute();
    }
  }

  /** Folds whole groups into another (a new item linked them). */
  async mergeGroups(from: readonly string[], into: string): Promise<void> {
    if (from.length === 0) return;
    await this.db
      .updateTable('evidence_groups')
      .set({ group_id: into })
      .where('group_id', 'in', from)
      .execute();
  }
}
