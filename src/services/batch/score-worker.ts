/**
 * A worker thread that scores candidate pairs: it rebuilds the prepared records from shared memory, then takes
 * chunk after chunk from a shared counter, sleeping while blocking has not yet published the chunk's pairs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RecordFeatures } from '../../linkage/features.js';
import { CompiledModel } from '../../linkage/model.js';
import { Scorer } from '../../linkage/scorer.js';
import { TermFrequencies } from '../../linkage/term-frequencies.js';
import {
  type ScoreJob,
  STATE_CLOSED,
  STATE_GENERATION,
  STATE_NEXT_CHUNK,
  STATE_PUBLISHED,
  scoreChunk,
} from './score-pool.js';

const job = workerData as ScoreJob;
const features = RecordFeatures.fromSnapshot(job.features);
const scorer = new Scorer(features, new CompiledModel(job.model), new TermFrequencies(job.tf));
scorer.records = job.records;
const state = new Int32Array(job.state);
for (;;) {
  const from = Atomics.add(state, STATE_NEXT_CHUNK, 1) * job.chunk;
  let published: number;
  for (;;) {
    // Generation first, then closed, then published (the publisher writes them in the reverse order): a
    // publication after this read changes the generation, so the wait below returns at once.
    const generation = Atomics.load(state, STATE_GENERATION);
    const closed = Atomics.load(state, STATE_CLOSED) === 1;
    published = Atomics.load(state, STATE_PUBLISHED);
    if (closed || published >= from + job.chunk) break;
    Atomics.wait(state, STATE_GENERATION, generation);
  }
  if (from >= published) break;
  const n = Math.min(published, from + job.chunk) - from;
  scoreChunk(scorer, job, from, n);
  parentPort?.postMessage({ done: n });
}
parentPort?.postMessage({ finished: true });
