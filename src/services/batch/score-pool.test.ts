import { describe, expect, it } from 'vitest';
import { RecordFeatures } from '../../linkage/features.js';
import { linkFeatures } from '../../linkage/link.js';
import { CompiledModel } from '../../linkage/model.js';
import { SharedPairBuffer } from '../../linkage/pairs.js';
import type { Scorer } from '../../linkage/scorer.js';
import { generate } from '../../linkage/synth/generator.js';
import { shippedModel } from '../../linkage/test-fixtures.js';
import { scoreInWorkers } from './score-pool.js';

// Synthetic records only (the generator's).
const data = generate({ people: 1500, seed: 5 });
function features(): RecordFeatures {
  const f = new RecordFeatures(data.records.length);
  for (const r of data.records) f.add(r.fields.record_id, r.fields);
  return f;
}

describe('SharedPairBuffer', () => {
  it('publishes every step and on close, and keeps every pair through growth', () => {
    const published: Array<[number, boolean]> = [];
    const pairs = new SharedPairBuffer((length, closed) => published.push([length, closed]), 100, 16);
    for (let i = 0; i < 250; i++) pairs.push(i + 1, i);
    pairs.close();
    expect(published).toEqual([
      [100, false],
      [200, false],
      [250, true],
    ]);
    expect(pairs.length).toBe(250);
    expect(pairs.bufferA.byteLength).toBeGreaterThanOrEqual(250 * 4);
    // Stored smaller first, and readable through the shared memory another thread sees.
    const a = new Int32Array(pairs.bufferA, 0, 250);
    const b = new Int32Array(pairs.bufferB, 0, 250);
    expect(Array.from(a.subarray(0, 3))).toEqual([0, 1, 2]);
    expect(Array.from(b.subarray(247))).toEqual([248, 249, 250]);
  });
});

describe('scoring on worker threads while blocking runs', () => {
  // Two threads: one worker beside blocking and the calling thread after it; three: two workers, and the weights
  // asked for without a scorer, so that the workers alone score what is left.
  it.each([
    { threads: 2, caller: true },
    { threads: 3, caller: false },
  ])(
    'gives every pair the weight one thread gives it, and the same clusters ($threads threads)',
    async ({ threads, caller }) => {
      const model = new CompiledModel(shippedModel());
      const alone = await linkFeatures(features(), model);
      const f = features();
      const streamed = await linkFeatures(f, model, {
        scoring: (tf) => {
          // Small publications and chunks: the threads wait for pairs, and the shared memory grows many times.
          const scoring = scoreInWorkers(f, tf, model.model, threads, undefined, {
            publishEvery: 997,
            chunk: 256,
          });
          // Let the threads start and fall asleep before the first pair is published.
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
          return caller ? scoring : { ...scoring, weights: () => scoring.weights() };
        },
      });
      // Enough pairs for several publications (every 997): the linkage-worlds blocking makes fewer candidates.
      expect(alone.candidates.pairs.length).toBeGreaterThan(2000);
      expect(streamed.candidates.pairs.length).toBe(alone.candidates.pairs.length);
      const n = alone.candidates.pairs.length;
      expect(Array.from(streamed.candidates.pairs.a.subarray(0, n))).toEqual(
        Array.from(alone.candidates.pairs.a.subarray(0, n)),
      );
      expect(Array.from(streamed.weights)).toEqual(Array.from(alone.weights));
      expect(Array.from(streamed.clusterOf)).toEqual(Array.from(alone.clusterOf));
    },
  );

  it('lets the calling thread score, beside the worker, what is left once blocking is over', async () => {
    const model = new CompiledModel(shippedModel());
    const f = features();
    let byCaller = 0;
    const result = await linkFeatures(f, model, {
      scoring: (tf) => {
        // Every pair published only at close, in small chunks: the caller takes chunks as soon as blocking is over
        // (a worker thread takes far longer to start than blocking 2,500 records does).
        const scoring = scoreInWorkers(f, tf, model.model, 2, undefined, {
          publishEvery: 1 << 30,
          chunk: 64,
        });
        return {
          ...scoring,
          weights: (scorer) => {
            if (!scorer) throw new Error('linkFeatures gives its scorer');
            const counting = Object.create(scorer) as Scorer;
            counting.score = (a: number, b: number) => {
              byCaller++;
              return scorer.score(a, b);
            };
            return scoring.weights(counting);
          },
        };
      },
    });
    expect(byCaller).toBeGreaterThan(0);
    expect(byCaller).toBeLessThanOrEqual(result.candidates.pairs.length);
    const alone = await linkFeatures(features(), model);
    expect(Array.from(result.weights)).toEqual(Array.from(alone.weights));
  });

  it('stops its threads when blocking fails, and reports the failure', async () => {
    const model = new CompiledModel(shippedModel());
    const f = features();
    const run = linkFeatures(f, model, {
      scoring: (tf) => scoreInWorkers(f, tf, model.model, 2),
      onStage: (stage) => {
        if (stage === 'blocking') throw new Error('blocking failed on purpose');
      },
    });
    await expect(run).rejects.toThrow('blocking failed on purpose');
  });
});
