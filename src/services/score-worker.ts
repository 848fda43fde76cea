/**
 * A worker thread that scores shards of candidate pairs: it rebuilds the prepared records from shared memory, then
 * takes chunk after chunk from a shared counter until none is left.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RecordFeatures } from '../linkage/features.js';
import { scoreRange } from '../linkage/link.js';
import { CompiledModel } from '../linkage/model.js';
import { Scorer } from '../linkage/scorer.js';
import { TermFrequencies } from '../linkage/term-frequencies.js';
import type { ScoreJob } from './score-pool.js';

const job = workerData as ScoreJob;
const features = RecordFeatures.fromSnapshot(job.features);
const scorer = new Scorer(features, new CompiledModel(job.model), new TermFrequencies(job.tf));
scorer.records = job.records;
const next = new Int32Array(job.counter);
for (;;) {
  const chunk = Atomics.add(next, 0, 1);
  const from = chunk * job.chunk;
  if (from >= job.count) break;
  const to = Math.min(job.count, from + job.chunk);
  scoreRange(scorer, job.a, job.b, from, to, job.out);
  parentPort?.postMessage({ done: to - from });
}
parentPort?.postMessage({ finished: true });
