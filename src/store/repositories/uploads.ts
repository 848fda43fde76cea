import type { UploadTable } from '../schema.js';
import type { Db } from '../store.js';

export type UploadStatus = 'receiving' | 'ingesting' | 'finished' | 'failed';

export interface UploadOutcome {
  /** The file's path inside the upload (its folder and name as the browser sent them). */
  path: string;
  /** stored | already_present | undecodable | too_large | refused | skipped | unpacked */
  outcome: string;
  evidenceId?: string;
  reason?: string;
}

export interface Upload {
  id: string;
  createdBy: string;
  createdAt: string;
  status: UploadStatus;
  files: number;
  bytes: number;
  sourceName: string | null;
  note: string | null;
  runId: string | null;
  outcomes: UploadOutcome[] | null;
  failure: string | null;
  finishedAt: string | null;
}

function toUpload(row: UploadTable): Upload {
  return {
    id: row.id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    status: row.status as UploadStatus,
    files: Number(row.files),
    bytes: Number(row.bytes),
    sourceName: row.source_name,
    note: row.note,
    runId: row.run_id,
    outcomes: row.outcomes ? (JSON.parse(row.outcomes) as UploadOutcome[]) : null,
    failure: row.failure,
    finishedAt: row.finished_at,
  };
}

/** Browser uploads (migration 0013) and where their ingest run put each file. */
export class UploadRepository {
  constructor(private readonly db: Db) {}

  async create(row: Pick<UploadTable, 'id' | 'created_by' | 'created_at'>): Promise<void> {
    await this.db
      .insertInto('uploads')
      .values({ ...row, status: 'receiving', files: 0, bytes: 0 })
      .execute();
  }

  async get(id: string): Promise<Upload | undefined> {
    const row = await this.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUpload(row) : undefined;
  }

  /** One user's uploads, newest first. */
  async listBy(userId: string, limit: number): Promise<Upload[]> {
    const rows = await this.db
      .selectFrom('uploads')
      .selectAll()
      .where('created_by', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toUpload);
  }

  /**
   * Counts a received file, if the upload is still receiving and stays within `maxBytes`: one conditional update,
   * so two files arriving at once cannot both pass the limit.
   */
  async addFile(id: string, bytes: number, maxBytes: number): Promise<boolean> {
    const result = await this.db
      .updateTable('uploads')
      .set((eb) => ({ files: eb('files', '+', 1), bytes: eb('bytes', '+', bytes) }))
      .where('id', '=', id)
      .where('status', '=', 'receiving')
      .where((eb) => eb(eb('bytes', '+', bytes), '<=', maxBytes))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Moves a receiving upload to ingesting, once (a second click answers false). */
  async startIngest(id: string, run: { sourceName: string | null; note: string | null }): Promise<boolean> {
    const result = await this.db
      .updateTable('uploads')
      .set({ status: 'ingesting', source_name: run.sourceName, note: run.note })
      .where('id', '=', id)
      .where('status', '=', 'receiving')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The run exists once ingest has created it; only then may the upload name it. */
  async setRun(id: string, runId: string): Promise<void> {
    await this.db.updateTable('uploads').set({ run_id: runId }).where('id', '=', id).execute();
  }

  async finish(
    id: string,
    end: {
      status: 'finished' | 'failed';
      outcomes: UploadOutcome[] | null;
      failure: string | null;
      at: string;
    },
  ): Promise<void> {
    await this.db
      .updateTable('uploads')
      .set({
        status: end.status,
        outcomes: end.outcomes ? JSON.stringify(end.outcomes) : null,
        failure: end.failure,
        finished_at: end.at,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Every place an ingest run recorded, with whether that run stored the item or found it already present. */
  async runLocations(
    runId: string,
  ): Promise<{ path: string; evidenceId: string; storedByRun: boolean; decodeStatus: string | null }[]> {
    const rows = await this.db
      .selectFrom('evidence_locations as l')
      .innerJoin('evidence_items as e', 'e.id', 'l.evidence_id')
      .select(['l.path', 'l.evidence_id', 'e.ingest_run_id', 'e.decode_status'])
      .where('l.ingest_run_id', '=', runId)
      .execute();
    return rows.map((r) => ({
      path: r.path,
      evidenceId: r.evidence_id,
      storedByRun: r.ingest_run_id === runId,
      decodeStatus: r.decode_status,
    }));
  }
}
