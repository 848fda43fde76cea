import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { FeatureSnapshot, RecordFeatures } from '../../linkage/features.js';
import type { PairScoring } from '../../linkage/link.js';
import type { LinkageModel } from '../../linkage/model.js';
import { MAX_SHARED_PAIRS, SharedPairBuffer } from '../../linkage/pairs.js';
import type { TermFrequencies, TermFrequencySnapshot } from '../../linkage/term-frequencies.js';
import { startWorker } from '../../worker-entry.js';

/** What each scoring worker receives (all arrays on shared memory; pairs and weights grow while blocking runs). */
export interface ScoreJob {
  features: FeatureSnapshot;
  tf: TermFrequencySnapshot;
  model: LinkageModel;
  records: number;
  a: SharedArrayBuffer;
  b: SharedArrayBuffer;
  out: SharedArrayBuffer;
  /** Int32 cells, indexed by the STATE_* constants. */
  state: SharedArrayBuffer;
  chunk: number;
}

/** How many pairs are final (readable). */
export const STATE_PUBLISHED = 0;
/** 1 once blocking is over: STATE_PUBLISHED is then the count of all pairs. */
export const STATE_CLOSED = 1;
/** Bumped on every publication: the cell workers sleep on, so that no wake-up is lost. */
export const STATE_GENERATION = 2;
/** The next chunk a worker may take. */
export const STATE_NEXT_CHUNK = 3;

/**
 * Below this many records one thread scores alone: each scoring thread prepares every name it meets again (the
 * prepared names live in the thread that read them), which on two cores costs more than the second core saves
 * until about 300k records (measured: 180k records 8–11 s alone, 11 s on two threads; 300k even; 1M 73 s alone
 * against 52–56 s).
 */
export const SCORING_THREADS_FROM = 250_000;

/** How many scoring threads to use by default: one per core. */
export function defaultWorkers(): number {
  return Math.max(
    1,
    typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length,
  );
}

/**
 * Scores candidate pairs on `workers` threads over shared memory while blocking still finds them: blocking writes
 * into the returned `pairs`, the threads take chunks of published pairs from a shared counter (a slow chunk does
 * not hold the others back) and sleep until more are published. On two cores, the threads use the core that
 * blocking leaves idle.
 */
export function scoreInWorkers(
  f: RecordFeatures,
  tf: TermFrequencies,
  model: LinkageModel,
  workers: number,
  onProgress?: (done: number, total: number) => void,
  /** Pairs per publication and per chunk a thread takes (small in tests, to exercise growth and waiting). */
  sizes: { publishEvery?: number; chunk?: number } = {},
): PairScoring {
  const state = new Int32Array(new SharedArrayBuffer(16));
  const out = new SharedArrayBuffer(1 << 22, { maxByteLength: MAX_SHARED_PAIRS * 4 });
  const pairs = new SharedPairBuffer((length, closed) => {
    if (out.byteLength < length * 4)
      out.grow(Math.min(MAX_SHARED_PAIRS * 4, Math.max(length * 4, out.byteLength * 2)));
    Atomics.store(state, STATE_PUBLISHED, length);
    if (closed) Atomics.store(state, STATE_CLOSED, 1);
    Atomics.add(state, STATE_GENERATION, 1);
    Atomics.notify(state, STATE_GENERATION);
  }, sizes.publishEvery);
  const job: ScoreJob = {
    features: f.snapshot(),
    tf: tf.snapshot(),
    model,
    records: f.size,
    a: pairs.bufferA,
    b: pairs.bufferB,
    out,
    state: state.buffer as SharedArrayBuffer,
    chunk: sizes.chunk ?? 1 << 15,
  };
  let done = 0;
  const threads: Worker[] = [];
  const finished = Promise.all(
    Array.from(
      { length: Math.max(1, workers) },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = startWorker(import.meta.url, 'score-worker', { workerData: job });
          threads.push(worker);
          worker.on('message', (message: { done?: number; finished?: boolean }) => {
            if (message.done) {
              done += message.done;
              onProgress?.(done, pairs.length);
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
  // Awaited only once blocking is over; until then a failed thread must not count as an unhandled rejection.
  finished.catch(() => undefined);
  return {
    pairs,
    async weights() {
      await finished;
      return new Float32Array(out, 0, pairs.length);
    },
    async abort() {
      await Promise.all(threads.map((w) => w.terminate()));
    },
  };
}
