import type { Db } from '../store.js';

export interface EvidenceFilter {
  sourceId?: string;
  /** Items found by this ingest run (first or again). */
  ingestRunId?: string;
  decodeStatus?: string;
  hasAnnotations?: boolean;
  /** Only items with at least one near-duplicate (another member in their group). */
  nearDuplicates?: boolean;
  /** Only the members of this near-duplicate group. */
  groupId?: string;
  /** Stored at or after / before these ids (UUIDv7 bounds of a date range: see idAtTime). */
  fromId?: string;
  untilId?: string;
  /** Newest first: items with an id below this one. */
  beforeId?: string;
  limit: number;
}

export interface EvidenceListRow {
  id: string;
  sha256: string;
  sizeBytes: number;
  mediaType: string;
  originalName: string | null;
  sourceId: string | null;
  width: number | null;
  height: number | null;
  graphic: boolean;
  decodeStatus: string | null;
  ingestRunId: string | null;
  createdAt: string;
  annotations: number;
  /** Its near-duplicate group and the group's size (1: no near-duplicate), when the item has a PDQ hash. */
  groupId: string | null;
  groupSize: number;
}

/** Evidence items as lists and pages show them: filtered, newest first, with their annotation counts. */
export class EvidenceCatalogueRepository {
  constructor(private readonly db: Db) {}

  async list(filter: EvidenceFilter): Promise<EvidenceListRow[]> {
    let q = this.db.selectFrom('evidence_items as e').select([
      'e.id',
      'e.sha256',
      'e.size_bytes',
      'e.media_type',
      'e.original_name',
      'e.source_id',
      'e.width',
      'e.height',
      'e.graphic',
      'e.decode_status',
      'e.ingest_run_id',
      'e.created_at',
      (eb) =>
        eb
          .selectFrom('annotations as a')
          .select((x) => x.fn.countAll<string | number>().as('n'))
          .whereRef('a.evidence_id', '=', 'e.id')
          .as('annotations'),
      (eb) =>
        eb
          .selectFrom('evidence_groups as g')
          .select('g.group_id')
          .whereRef('g.evidence_id', '=', 'e.id')
          .as('group_id'),
      (eb) =>
        eb
          .selectFrom('evidence_groups as g')
          .innerJoin('evidence_groups as h', 'h.group_id', 'g.group_id')
          .select((x) => x.fn.countAll<string | number>().as('n'))
          .whereRef('g.evidence_id', '=', 'e.id')
          .as('group_size'),
    ]);
    if (filter.sourceId) q = q.where('e.source_id', '=', filter.sourceId);
    if (filter.decodeStatus) q = q.where('e.decode_status', '=', filter.decodeStatus);
    if (filter.ingestRunId) {
      const run = filter.ingestRunId;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('evidence_locations as l')
            .select('l.id')
            .whereRef('l.evidence_id', '=', 'e.id')
            .where('l.ingest_run_id', '=', run),
        ),
      );
    }
    if (filter.hasAnnotations !== undefined) {
      const has = filter.hasAnnotations;
      q = q.where((eb) => {
        const annotated = eb.exists(
          eb.selectFrom('annotations as a').select('a.id').whereRef('a.evidence_id', '=', 'e.id'),
        );
        const labelled = eb.exists(
          eb.selectFrom('body_labels as b').select('b.id').whereRef('b.evidence_id', '=', 'e.id'),
        );
        return has ? eb.or([annotated, labelled]) : eb.and([eb.not(annotated), eb.not(labelled)]);
      });
    }
    if (filter.groupId) {
      const group = filter.groupId;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('evidence_groups as g')
            .select('g.evidence_id')
            .whereRef('g.evidence_id', '=', 'e.id')
            .where('g.group_id', '=', group),
        ),
      );
    }
    if (filter.nearDuplicates !== undefined) {
      const wanted = filter.nearDuplicates;
      q = q.where((eb) => {
        const near = eb.exists(
          eb
            .selectFrom('evidence_groups as g')
            .innerJoin('evidence_groups as h', 'h.group_id', 'g.group_id')
            .select('h.evidence_id')
            .whereRef('g.evidence_id', '=', 'e.id')
            .whereRef('h.evidence_id', '<>', 'g.evidence_id'),
        );
        return wanted ? near : eb.not(near);
      });
    }
    if (filter.fromId) q = q.where('e.id', '>=', filter.fromId);
    if (filter.untilId) q = q.where('e.id', '<', filter.untilId);
    if (filter.beforeId) q = q.where('e.id', '<', filter.beforeId);
    const rows = await q.orderBy('e.id', 'desc').limit(filter.limit).execute();
    return rows.map((r) => ({
      id: r.id,
      sha256: r.sha256,
      sizeBytes: Number(r.size_bytes),
      mediaType: r.media_type,
      originalName: r.original_name,
      sourceId: r.source_id,
      width: r.width,
      height: r.height,
      graphic: r.graphic === 1,
      decodeStatus: r.decode_status,
      ingestRunId: r.ingest_run_id,
      createdAt: r.created_at,
      annotations: Number(r.annotations ?? 0),
      groupId: r.group_id ?? null,
      groupSize: Number(r.group_size ?? 0) || 1,
    }));
  }

  /** How many places each ingest run found (its progress while it runs). */
  async locationsPerRun(runIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (runIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('evidence_locations')
      .select(['ingest_run_id', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('ingest_run_id', 'in', runIds)
      .groupBy('ingest_run_id')
      .execute();
    for (const r of rows) out.set(r.ingest_run_id, Number(r.n));
    return out;
  }
}
