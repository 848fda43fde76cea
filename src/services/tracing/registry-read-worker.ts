import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../config/config.js';
import { RecordFeatures } from '../../linkage/features.js';
import { MatchRecordRepository } from '../../store/repositories/match-records.js';
import { openStore } from '../../store/store.js';
import type { WorkerAnswer } from '../../worker-entry.js';
import { readRegistryRange } from './registry-reading.js';

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
 * The second part of a registry-wide run's reading, on its own thread and connection: preparing a million records'
 * features is most of the reading, and `athar link` splits its file the same way (read-worker.ts).
 */
const job = workerData as RegistryReadJob;
let answer: WorkerAnswer<RegistryReadResult>;
try {
  const store = await openStore(job.database, { migrate: false, readOnly: true });
  try {
    const read = {
      features: new RecordFeatures(1 << 16),
      reports: [],
      externalIds: [],
      sources: [],
      sourceIds: new Map(),
    };
    await readRegistryRange(
      new MatchRecordRepository(store.db),
      read,
      { after: job.after, until: job.until },
      job.pageSize,
      job.withExternalIds,
    );
    answer = {
      result: {
        features: read.features.exportAll(),
        reports: Int32Array.from(read.reports),
        externalIds: read.externalIds,
        sources: read.sources,
      },
    };
  } finally {
    await store.close();
  }
} catch (error) {
  answer = { error: { name: (error as Error).name, message: (error as Error).message } };
}
parentPort?.postMessage(answer);
