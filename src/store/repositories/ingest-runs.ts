import type { IngestRunStatus } from '../../domain/evidence.js';
import type { IngestRunTable } from '../schema.js';
import type { Db } from '../store.js';

export interface IngestRun {
  id: string;
  startedAt: string;
  finishedAt: string | null;
  status: IngestRunStatus;
  actor: string;
  custodian: string | null;
  sourceId: string | null;
  note: string | null;
  roots: { path: string; pathB64: string }[];
  atharVersion: string;
  host: string;
  pid: number;
  counts: Record<string, unknown> | null;
}

function toRun(row: IngestRunTable): IngestRun {
  return {
    id: row.id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status as IngestRunStatus,
    actor: row.actor,
    custodian: row.custodian,
    sourceId: row.source_id,
    note: row.note,
    roots: JSON.parse(row.roots) as IngestRun['roots'],
    atharVersion: row.athar_version,
    host: row.host,
    pid: Number(row.pid),
    counts: row.counts ? (JSON.parse(row.counts) as Record<string, unknown>) : null,
  };
}

export class IngestRunRepository {
  constructor(private readonly db: Db) {}

  async create(run: Omit<IngestRun, 'finishedAt' | 'counts' | 'status'>): Promise<void> {
    await this.db
      .insertInto('ingest_runs')
      .values({
        id: run.id,
        started_at: run.startedAt,
        finished_at: null,
        status: 'running',
        actor: run.actor,
        custodian: run.custodian,
        source_id: run.sourceId,
        note: run.note,
        roots: JSON.stringify(run.roots),
        athar_version: run.atharVersion,
        host: run.host,
        pid: run.pid,
        counts: null,
      })
      .execute();
  }

  async finish(
    id: string,
    status: Exclude<IngestRunStatus, 'running'>,
    at: string,
    counts: Record<string, unknown> | null,
  ): Promise<void> {
    await this.db
      .updateTable('ingest_runs')
      .set({ status, finished_at: at, counts: counts ? JSON.stringify(counts) : null })
      .where('id', '=', id)
      .execute();
  }

  async get(id: string): Promise<IngestRun | undefined> {
    const row = await this.db.selectFrom('ingest_runs').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRun(row) : undefined;
  }

  /** Runs still marked running on this host (their process may have died). */
  async runningOn(host: string): Promise<IngestRun[]> {
    const rows = await this.db
      .selectFrom('ingest_runs')
      .selectAll()
      .where('status', '=', 'running')
      .where('host', '=', host)
      .execute();
    return rows.map(toRun);
  }

  async list(limit = 50): Promise<IngestRun[]> {
    const rows = await this.db
      .selectFrom('ingest_runs')
      .selectAll()
      .orderBy('started_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRun);
  }
}
