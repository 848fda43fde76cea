/** Pairwise quality of a clustering against the truth. */
export interface PairwiseQuality {
  truePairs: number;
  predictedPairs: number;
  truePositives: number;
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Pairwise precision, recall and F1 from two labellings of the same records (cluster and true person), counted
 * through the contingency table: O(records), no pair enumerated.
 */
export function pairwiseQuality(predicted: ArrayLike<number>, truth: ArrayLike<number>): PairwiseQuality {
  const pairsIn = (counts: Map<number, number>) => {
    let total = 0;
    for (const c of counts.values()) total += (c * (c - 1)) / 2;
    return total;
  };
  const byCluster = new Map<number, number>();
  const byPerson = new Map<number, number>();
  const byBoth = new Map<number, number>();
  for (let i = 0; i < predicted.length; i++) {
    const c = predicted[i] as number;
    const p = truth[i] as number;
    byCluster.set(c, (byCluster.get(c) ?? 0) + 1);
    byPerson.set(p, (byPerson.get(p) ?? 0) + 1);
    const both = c * 4294967296 + p;
    byBoth.set(both, (byBoth.get(both) ?? 0) + 1);
  }
  const predictedPairs = pairsIn(byCluster);
  const truePairs = pairsIn(byPerson);
  const truePositives = pairsIn(byBoth);
  const precision = predictedPairs === 0 ? 1 : truePositives / predictedPairs;
  const recall = truePairs === 0 ? 1 : truePositives / truePairs;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { truePairs, predictedPairs, truePositives, precision, recall, f1 };
}
