import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { FeatureSnapshot, RecordFeatures } from '../../linkage/features.js';
import { type PairScoring, scoreRange } from '../../linkage/link.js';
import type { LinkageModel } from '../../linkage/model.js';
import { MAX_SHARED_PAIRS, SharedPairBuffer } from '../../linkage/pairs.js';
import type { Scorer } from '../../linkage/scorer.js';
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
 * Scores the pairs [from, from + n) of the job's shared memory. Fixed-length views: views that track growable
 * memory read far slower.
 */
export function scoreChunk(
  scorer: Scorer,
  job: Pick<ScoreJob, 'a' | 'b' | 'out'>,
  from: number,
  n: number,
): void {
  const a = new Int32Array(job.a, from * 4, n);
  const b = new Int32Array(job.b, from * 4, n);
  scoreRange(scorer, a, b, 0, n, new Float32Array(job.out, from * 4, n));
}

/**
 * Below this many records one thread scores alone: each worker thread prepares every name it meets again (the
 * prepared names live in the thread that read them), which on two cores costs about what the worker saves until
 * about 250k records (measured with one worker beside blocking: 180k records 11–12 s either way; 300k 20–26 s
 * alone against 16–21 s).
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
 * Scores candidate pairs on `threads` threads over shared memory: `threads − 1` worker threads score while blocking
 * still finds the pairs, and the calling thread joins them once blocking is over. Blocking writes into the returned
 * `pairs`; every thread takes chunks of published pairs from a shared counter (a slow chunk does not hold the others
 * back) and the workers sleep until more are published. Blocking keeps a core to itself: on two cores a second
 * worker beside it only took turns with it (1M records: blocking 45 s with two workers beside it, 38 s with one;
 * the one kept up with it).
 */
export function scoreInWorkers(
  f: RecordFeatures,
  tf: TermFrequencies,
  model: LinkageModel,
  threads: number,
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
    features: f.snapshot(true),
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
  const started: Worker[] = [];
  const finished = Promise.all(
    Array.from(
      { length: Math.max(1, threads - 1) },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = startWorker(import.meta.url, 'score-worker', { workerData: job });
          started.push(worker);
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
    async weights(scorer) {
      // Blocking is over and `pairs` closed: this thread takes chunks too, until none is left.
      if (scorer) {
        const total = pairs.length;
        for (;;) {
          const from = Atomics.add(state, STATE_NEXT_CHUNK, 1) * job.chunk;
          if (from >= total) break;
          const n = Math.min(total, from + job.chunk) - from;
          scoreChunk(scorer, job, from, n);
          done += n;
          onProgress?.(done, total);
        }
      }
      await finished;
      return new Float32Array(out, 0, pairs.length);
    },
    async abort() {
      await Promise.all(started.map((w) => w.terminate()));
    },
  };
}
