import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../config/config.js';
import { RecordFeatures } from '../../linkage/features.js';
import { MatchRecordRepository, type MatchRecordRow } from '../../store/repositories/match-records.js';
import { openStore } from '../../store/store.js';
import { recordFields } from '../review/registry-matcher.js';

/**
 * What a registry-wide run asks of its reading thread: the records with ids after `after` up to `until` (the last
 * record when the run started: one stored since has no open link in what the run read, and stays queued instead).
 */
export interface RegistryReadJob {
  database: Config['database'];
  after: string;
  until: string;
  pageSize: number;
  /** Keep each record's external id and source (the run writes `--out`). */
  withExternalIds: boolean;
}

export interface RegistryReadResult {
  features: ReturnType<RecordFeatures['exportAll']>;
  /** Positions (in `features`) of the family reports. */
  reports: Int32Array;
  externalIds: (string | null)[];
  sources: string[];
}

/**
 * The second half of a registry-wide run's reading, on its own thread and connection: preparing a million records'
 * features is most of the reading, and `athar link` splits its file the same way (read-worker.ts).
 */
const job = workerData as RegistryReadJob;
try {
  const store = await openStore(job.database, { migrate: false, readOnly: true });
  try {
    const repo = new MatchRecordRepository(store.db);
    const features = new RecordFeatures(1 << 16);
    const reports: number[] = [];
    const externalIds: (string | null)[] = [];
    const sources: string[] = [];
    let after = job.after;
    for (;;) {
      const page: (MatchRecordRow & { external_id?: string | null })[] = job.withExternalIds
        ? await repo.pageWithExternalIds(after, job.pageSize, job.until)
        : await repo.page(after, job.pageSize, job.until);
      for (const row of page) {
        const i = features.add(row.id, recordFields(row));
        if (row.kind === 'family_report') reports.push(i);
        if (job.withExternalIds) {
          externalIds[i] = row.external_id ?? null;
          sources[i] = row.source_id;
        }
      }
      if (page.length > 0) after = (page[page.length - 1] as MatchRecordRow).id;
      if (page.length < job.pageSize) break;
    }
    const result: RegistryReadResult = {
      features: features.exportAll(),
      reports: Int32Array.from(reports),
      externalIds,
      sources,
    };
    parentPort?.postMessage({ result });
  } finally {
    await store.close();
  }
} catch (error) {
  parentPort?.postMessage({ error: (error as Error).message });
}
