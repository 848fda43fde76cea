import { describe, expect, it } from 'vitest';
import { pairwiseQuality } from './evaluate.js';

describe('pairwise quality', () => {
  it('counts pairs through the contingency table', () => {
    // Truth: {0,1,2} {3,4}; prediction: {0,1} {2,3,4}.
    const q = pairwiseQuality([0, 0, 2, 2, 2], [7, 7, 7, 8, 8]);
    expect(q.truePairs).toBe(4);
    expect(q.predictedPairs).toBe(4);
    expect(q.truePositives).toBe(2);
    expect(q.precision).toBe(0.5);
    expect(q.recall).toBe(0.5);
    expect(q.f1).toBe(0.5);
  });

  it('is perfect on identical labellings and defined when there are no pairs', () => {
    expect(pairwiseQuality([1, 1, 2], [5, 5, 6]).f1).toBe(1);
    expect(pairwiseQuality([1, 2], [1, 2])).toMatchObject({ precision: 1, recall: 1, f1: 1 });
  });
});
