/**
 * Simulated populations with a known total, for testing and benchmarking the estimators (every figure they give is
 * SYNTHETIC). A scenario says how many lists there are, how many people each stratum holds, and how people come to
 * be on lists:
 *
 * - `loglinear`: the capture pattern of each person is drawn from a log-linear model — list log-odds plus pairwise
 *   log odds ratios (positive: two lists tend to find the same people; negative: they avoid each other). The
 *   log-linear family contains the truth.
 * - `classes`: latent classes (a share of the population each), within which lists are independent with their own
 *   probabilities — LCMCR's model, and heterogeneity the log-linear models can only approximate.
 * - `continuous`: each person has a visibility θ ~ Normal(0, 1) and is on list j with probability
 *   logistic(logit_j + spread·θ) (a Rasch model): heterogeneity no finite mixture contains exactly.
 */
import { Rng } from './random.js';
import type { CaptureHistory, StratumTable } from './tables.js';

export type CaptureModel =
  | { kind: 'loglinear'; logits: number[]; pairs?: { lists: [number, number]; logOddsRatio: number }[] }
  | { kind: 'classes'; classes: { share: number; probabilities: number[] }[] }
  | { kind: 'continuous'; logits: number[]; spread: number };

export interface Scenario {
  name: string;
  lists: number;
  strata: { name: string; size: number }[];
  capture: CaptureModel;
}

export interface SimulatedTables {
  /** Observed tables (cell 0 empty, as the estimators see them). */
  tables: StratumTable[];
  /** The true size of each stratum, and how many of them no list saw. */
  truth: { stratum: string; size: number; unobserved: number }[];
}

/** Draws each stratum's full table (cell 0 included) and returns the observed part and the truth. */
export function simulateTables(scenario: Scenario, seed: number | string): SimulatedTables {
  const root = new Rng(seed);
  const k = scenario.lists;
  const tables: StratumTable[] = [];
  const truth: SimulatedTables['truth'] = [];
  for (const stratum of scenario.strata) {
    const rng = root.fork(stratum.name);
    const full = drawFullTable(k, stratum.size, scenario.capture, rng);
    truth.push({ stratum: stratum.name, size: stratum.size, unobserved: full[0]! });
    full[0] = 0;
    tables.push({ stratum: stratum.name, lists: k, counts: full });
  }
  return { tables, truth };
}

/** One history per observed person (masks in random order), for code that works person by person. */
export function simulatePeople(
  scenario: Scenario,
  seed: number | string,
): { histories: CaptureHistory[]; truth: SimulatedTables['truth'] } {
  const { tables, truth } = simulateTables(scenario, seed);
  const rng = new Rng(`${seed}\u0000people`);
  const histories: CaptureHistory[] = [];
  for (const t of tables) {
    const start = histories.length;
    for (let mask = 1; mask < t.counts.length; mask++) {
      for (let c = 0; c < t.counts[mask]!; c++) histories.push({ mask, stratum: t.stratum });
    }
    // Shuffle within the stratum so that nothing downstream can lean on the order.
    for (let i = histories.length - 1; i > start; i--) {
      const j = start + Math.floor(rng.uniform() * (i - start + 1));
      [histories[i], histories[j]] = [histories[j]!, histories[i]!];
    }
  }
  return { histories, truth };
}

function drawFullTable(k: number, size: number, capture: CaptureModel, rng: Rng): Float64Array {
  const cells = 1 << k;
  const counts = new Float64Array(cells);
  if (capture.kind === 'loglinear') {
    const weights = new Float64Array(cells);
    for (let mask = 0; mask < cells; mask++) {
      let s = 0;
      for (let j = 0; j < k; j++) if (mask & (1 << j)) s += capture.logits[j]!;
      for (const p of capture.pairs ?? []) {
        const [a, b] = p.lists;
        if (mask & (1 << a) && mask & (1 << b)) s += p.logOddsRatio;
      }
      weights[mask] = Math.exp(s);
    }
    rng.multinomial(size, weights, counts);
    return counts;
  }
  if (capture.kind === 'classes') {
    const shares = capture.classes.map((c) => c.share);
    const perClass = new Float64Array(shares.length);
    rng.multinomial(size, shares, perClass);
    const weights = new Float64Array(cells);
    const part = new Float64Array(cells);
    capture.classes.forEach((c, ci) => {
      for (let mask = 0; mask < cells; mask++) {
        let w = 1;
        for (let j = 0; j < k; j++) w *= mask & (1 << j) ? c.probabilities[j]! : 1 - c.probabilities[j]!;
        weights[mask] = w;
      }
      rng.multinomial(perClass[ci]!, weights, part);
      for (let mask = 0; mask < cells; mask++) counts[mask] = counts[mask]! + part[mask]!;
    });
    return counts;
  }
  for (let i = 0; i < size; i++) {
    const theta = capture.spread * rng.normal();
    let mask = 0;
    for (let j = 0; j < k; j++) {
      const p = 1 / (1 + Math.exp(-(capture.logits[j]! + theta)));
      if (rng.uniform() < p) mask |= 1 << j;
    }
    counts[mask] = counts[mask]! + 1;
  }
  return counts;
}

/** Splits a total into `count` strata of unequal sizes (a gentle spread, the largest about 3× the smallest). */
export function strataOf(total: number, count: number, prefix = 'stratum'): { name: string; size: number }[] {
  const weights = Array.from({ length: count }, (_, i) => 1 + (2 * i) / Math.max(1, count - 1));
  const sum = weights.reduce((s, w) => s + w, 0);
  const sizes = weights.map((w) => Math.floor((total * w) / sum));
  sizes[count - 1]! += total - sizes.reduce((s, v) => s + v, 0);
  return sizes.map((size, i) => ({ name: `${prefix} ${String(i + 1).padStart(2, '0')}`, size }));
}

export const syntheticLabel = 'SYNTHETIC population (athar estimate simulator): no real person';
