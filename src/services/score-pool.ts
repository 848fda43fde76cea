import os from 'node:os';
import type { CandidatePairs } from '../linkage/blocking.js';
import type { FeatureSnapshot, RecordFeatures } from '../linkage/features.js';
import type { LinkageModel } from '../linkage/model.js';
import type { TermFrequencies, TermFrequencySnapshot } from '../linkage/term-frequencies.js';
import { startWorker } from '../worker-entry.js';

/** What each scoring worker receives (all arrays on shared memory). */
export interface ScoreJob {
  features: FeatureSnapshot;
  tf: TermFrequencySnapshot;
  model: LinkageModel;
  records: number;
  a: Int32Array;
  b: Int32Array;
  out: Float32Array;
  count: number;
  chunk: number;
  counter: SharedArrayBuffer;
}

/** How many scoring threads to use by default: one per core. */
export function defaultWorkers(): number {
  return Math.max(
    1,
    typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length,
  );
}

/**
 * Scores every candidate pair on `workers` threads over shared memory; the threads take chunks from a shared
 * counter, so a slow shard does not hold the others back.
 */
export async function scoreInWorkers(
  f: RecordFeatures,
  tf: TermFrequencies,
  model: LinkageModel,
  candidates: CandidatePairs,
  workers: number,
  onProgress?: (done: number, total: number) => void,
): Promise<Float32Array> {
  const { a, b, length } = candidates.pairs.shared();
  const out = new Float32Array(new SharedArrayBuffer(Math.max(4, length * 4)));
  if (length === 0) return out;
  const job: ScoreJob = {
    features: f.snapshot(),
    tf: tf.snapshot(),
    model,
    records: f.size,
    a,
    b,
    out,
    count: length,
    chunk: 1 << 15,
    counter: new SharedArrayBuffer(4),
  };
  let done = 0;
  const threads = Math.max(1, Math.min(workers, Math.ceil(length / job.chunk)));
  await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = startWorker(import.meta.url, 'score-worker', { workerData: job });
          worker.on('message', (message: { done?: number; finished?: boolean }) => {
            if (message.done) {
              done += message.done;
              onProgress?.(done, length);
            }
            if (message.finished) resolve();
          });
          worker.on('error', reject);
          worker.on('exit', (code) => {
            if (code !== 0) reject(new Error(`a scoring thread stopped with code ${code}`));
            else resolve();
          });
        }),
    ),
  );
  return out;
}
