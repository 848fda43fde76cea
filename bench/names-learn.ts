/**
 * Learns the spelling costs of src/names from labelled name pairs and writes them to src/names/learned-costs.ts (a
 * data module: no I/O at run time). `npx tsx bench/names-learn.ts [--out FILE] [--epochs N]`; deterministic.
 *
 * The model is the one compareTokens runs: a weighted alignment of sound units (src/names/units.ts) with
 * similarity = 1 − cost / max(mass of either side), a mass being the sum of the costs of leaving each unit
 * unmatched. The costs are fitted discriminatively: the alignment's minimum is replaced by a soft minimum
 * (temperature TAU) so that the similarity is differentiable in every cost, and a logistic loss centred on the
 * match threshold is minimised over positives (two spellings of one name) and blocked negatives (spellings of
 * different names that share a blocking key — the pairs linkage actually scores), with an L2 pull towards the
 * hand-set costs of units.ts (the prior). Costs are kept in [0, 1].
 *
 * Two fits:
 * - Arabic × Latin (how each Arabic unit is written, which Arabic units go unwritten, which Latin units stand for no
 *   Arabic letter, by position): the ar2en train file minus its fixed evaluation sample (names-quality.ts
 *   `splitAr2enTrain`) and the Arabic × dev-Latin spellings of the labelled Syrian set's dev groups.
 * - Latin × Latin (unit pairs, and Latin units left unmatched by position): pairs of dev-Latin spellings of the
 *   Syrian set's dev groups (ar2en has almost no Latin variants of one Arabic name).
 * Nothing held out is read: held-out groups and held-out spellings stay out, as do ar2en-eval and the sample.
 * A generative alternative (EM on a stochastic edit distance, Ristad & Yianilos) was measured first and scored
 * below the hand-set costs on the Syrian set; see docs/names.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { normalize, type PreparedToken, prepareToken } from '../src/names/index.js';
import {
  BIGRAM,
  BIGRAM_COST,
  FIXED_CROSS,
  FIXED_LATIN_UNWRITTEN,
  HAND_ARABIC_DELETE,
  HAND_LATIN_DELETE,
  HAND_LATIN_INSERT,
  HAND_SUB,
  LATIN_POSITIONS,
  latinPosition,
  Side,
  UNIT_COUNT,
  unitName,
  unitSide,
} from '../src/names/units.js';
import { AR2EN_DIR, loadAr2en, loadSyrianSet, prng, splitAr2enTrain } from './names-quality.js';

const args = process.argv.slice(2);
const option = (flag: string, fallback: string) =>
  args.includes(flag) ? (args[args.indexOf(flag) + 1] as string) : fallback;
const outFile = option('--out', path.resolve(import.meta.dirname, '../src/names/learned-costs.ts'));
const EPOCHS = Number(option('--epochs', '15'));
/** Soft-minimum temperature. */
const TAU = 0.03;
/** Logistic loss: slope and centre (the token match threshold). */
const SLOPE = 25;
const CENTRE = 0.9;
const LEARNING_RATE = 0.01;
const BATCH = 256;
/** One Syrian dev pair weighs as much as this many ar2en pairs (the Syrian set is the domain). */
const SYRIAN_WEIGHT = Number(option('--syrian', '3'));
/** Blocked negatives drawn per ar2en Arabic word. */
const AR2EN_NEGATIVES = 4;

const N = UNIT_COUNT;
const P = LATIN_POSITIONS;
const arabicUnits: number[] = [];
const latinUnits: number[] = [];
for (let u = 0; u < N; u++) (unitSide[u] === Side.Arabic ? arabicUnits : latinUnits).push(u);

/** One labelled pair of unit sequences; positions are Latin position classes (0 for Arabic units). */
interface Example {
  x: Uint8Array;
  y: Uint8Array;
  px: Uint8Array;
  py: Uint8Array;
  label: 1 | -1;
  weight: number;
}

/** Parameter layout: substitutions N×N, then x-side deletions P×N, then y-side deletions P×N. */
const DEL_X = N * N;
const DEL_Y = DEL_X + P * N;
const PARAMS = DEL_Y + P * N;

interface Fit {
  name: string;
  theta: Float64Array;
  prior: Float64Array;
  trainable: Uint8Array;
  /** Latin × Latin: substitutions are symmetric and both sides share one deletion table. */
  symmetric: boolean;
  l2: number;
  examples: Example[];
}

const positions = (units: Uint8Array, side: Side) =>
  Uint8Array.from(units, (_, j) => (side === Side.Latin ? latinPosition(units, j, 0) : 0));

/** A pair as the alignment sees it: a glued article kept on both sides or dropped from the one that has it. */
function example(a: PreparedToken, b: PreparedToken, label: 1 | -1, weight: number): Example | undefined {
  if (a.length === 0 || b.length === 0) return undefined;
  const both = a.articleUnits > 0 && b.articleUnits > 0;
  const x = a.units.slice(both ? 0 : a.articleUnits);
  const y = b.units.slice(both ? 0 : b.articleUnits);
  if (x.length === 0 || y.length === 0 || x.length > 40 || y.length > 40) return undefined;
  for (const u of x) if (unitSide[u] !== a.side) return undefined;
  for (const u of y) if (unitSide[u] !== b.side) return undefined;
  return { x, y, px: positions(x, a.side), py: positions(y, b.side), label, weight };
}

const prep = (text: string) => prepareToken(text, { lexicon: false });
// The skeleton without the lexicon: the training pairs must not depend on the costs being learned (the phonetic key
// and the lexicon's inference do, through the nearest listed spelling).
const blockingKeys = (text: string) => [prep(text).key];
const rand = prng(11);
function shuffle<T>(xs: T[]): T[] {
  for (let k = xs.length - 1; k > 0; k--) {
    const r = Math.floor(rand() * (k + 1));
    [xs[k], xs[r]] = [xs[r] as T, xs[k] as T];
  }
  return xs;
}

// --- training pairs ---------------------------------------------------------------------------------------------
const ar2enTrain = loadAr2en(`${AR2EN_DIR}/ar2en-train.txt`);
const ar2enEval = loadAr2en(`${AR2EN_DIR}/ar2en-eval.txt`);
const { learn } = splitAr2enTrain(ar2enTrain);
const listedPairs = new Set(
  [...ar2enTrain, ...ar2enEval].map(([a, l]) => `${normalize(a)}\t${normalize(l)}`),
);
const devGroups = loadSyrianSet().filter((g) => g.split === 'dev');

/**
 * Arabic × Latin examples from [arabic, latin, group] triples: every triple is a positive; each distinct Arabic
 * spelling is paired with up to `negatives` Latin spellings of other groups that share a blocking key.
 */
function crossExamples(
  triples: Array<[string, string, number]>,
  negatives: number,
  weight: number,
): Example[] {
  const out: Example[] = [];
  const byKey = new Map<string, number[]>();
  triples.forEach(([, latin], j) => {
    for (const k of blockingKeys(latin)) {
      const list = byKey.get(k);
      if (list) list.push(j);
      else byKey.set(k, [j]);
    }
  });
  for (const [arabic, latin] of triples) {
    const e = example(prep(arabic), prep(latin), 1, weight);
    if (e) out.push(e);
  }
  const arabicSpellings = new Map<string, [string, number]>();
  for (const [arabic, , group] of triples) arabicSpellings.set(`${group}|${arabic}`, [arabic, group]);
  for (const [arabic, group] of arabicSpellings.values()) {
    const others = new Map<string, number>();
    for (const k of blockingKeys(arabic)) {
      for (const j of byKey.get(k) ?? []) {
        const [, latin, g] = triples[j] as [string, string, number];
        if (g !== group && !listedPairs.has(`${normalize(arabic)}\t${normalize(latin)}`))
          others.set(normalize(latin), j);
      }
    }
    for (const j of shuffle([...others.values()]).slice(0, negatives)) {
      const e = example(prep(arabic), prep((triples[j] as [string, string, number])[1]), -1, weight);
      if (e) out.push(e);
    }
  }
  return out;
}

function latinExamples(): Example[] {
  const items: Array<[string, number, string[]]> = [];
  for (const g of devGroups)
    for (const l of g.latin) if (l.split === 'dev') items.push([l.text, g.id, blockingKeys(l.text)]);
  const out: Example[] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const [ta, ga, ka] = items[i] as [string, number, string[]];
      const [tb, gb, kb] = items[j] as [string, number, string[]];
      if (normalize(ta) === normalize(tb)) continue;
      const positive = ga === gb;
      if (!positive && !ka.some((k) => kb.includes(k))) continue;
      const e = example(prep(ta), prep(tb), positive ? 1 : -1, 1);
      if (e) out.push(e);
    }
  }
  return out;
}

/** Negatives weigh in total as much as positives. */
function balance(examples: Example[]): Example[] {
  let positive = 0;
  let negative = 0;
  for (const e of examples) {
    if (e.label > 0) positive += e.weight;
    else negative += e.weight;
  }
  for (const e of examples) if (e.label < 0) e.weight *= positive / negative;
  return examples;
}

// --- the two fits -------------------------------------------------------------------------------------------------
function crossFit(): Fit {
  const theta = new Float64Array(PARAMS);
  const trainable = new Uint8Array(PARAMS);
  for (const a of arabicUnits) {
    for (const l of latinUnits) {
      theta[a * N + l] = Math.min(1, HAND_SUB[a * N + l] as number);
      trainable[a * N + l] = 1;
    }
    theta[DEL_X + a] = HAND_ARABIC_DELETE[a] as number;
    trainable[DEL_X + a] = 1;
  }
  for (let p = 0; p < P; p++) {
    for (const l of latinUnits) {
      theta[DEL_Y + p * N + l] = HAND_LATIN_INSERT[p * N + l] as number;
      trainable[DEL_Y + p * N + l] = 1;
    }
  }
  for (const [l, p, c] of FIXED_LATIN_UNWRITTEN) {
    theta[DEL_Y + p * N + l] = c;
    trainable[DEL_Y + p * N + l] = 0;
  }
  for (const [a, l, c] of FIXED_CROSS) {
    theta[a * N + l] = c;
    trainable[a * N + l] = 0;
  }
  const ar2en = crossExamples(
    learn.map(([a, l], i) => [a, l, i] as [string, string, number]),
    AR2EN_NEGATIVES,
    1,
  );
  const syrian = crossExamples(
    devGroups.flatMap((g) =>
      g.arabic.flatMap((a) =>
        g.latin
          .filter((l) => l.split === 'dev')
          .map((l) => [a.text, l.text, g.id] as [string, string, number]),
      ),
    ),
    Number.POSITIVE_INFINITY,
    SYRIAN_WEIGHT,
  );
  return {
    name: 'Arabic × Latin',
    theta,
    prior: Float64Array.from(theta),
    trainable,
    symmetric: false,
    l2: 0.02,
    examples: balance([...ar2en, ...syrian]),
  };
}

function latinFit(): Fit {
  const theta = new Float64Array(PARAMS);
  const trainable = new Uint8Array(PARAMS);
  for (const x of latinUnits) {
    for (const y of latinUnits) {
      if (x > y) continue;
      theta[x * N + y] = Math.min(1, HAND_SUB[x * N + y] as number);
      trainable[x * N + y] = x < y ? 1 : 0;
    }
  }
  for (let p = 0; p < P; p++) {
    for (const l of latinUnits) {
      theta[DEL_X + p * N + l] = HAND_LATIN_DELETE[p * N + l] as number;
      trainable[DEL_X + p * N + l] = 1;
    }
  }
  return {
    name: 'Latin × Latin',
    theta,
    prior: Float64Array.from(theta),
    trainable,
    symmetric: true,
    // Few names (the dev groups only): a strong pull towards the prior keeps the fit from memorising them.
    l2: 0.5,
    examples: balance(latinExamples()),
  };
}

// --- soft alignment, its gradient, and the optimiser -------------------------------------------------------------
const MAX = 42;
const F = new Float64Array(MAX * MAX);
const G = new Float64Array(MAX * MAX);
const incoming = new Float64Array(4);

function train(fit: Fit): void {
  const { theta, prior, trainable, symmetric } = fit;
  const grad = new Float64Array(PARAMS);
  const cost = (i: number) => theta[i] as number;
  const subIndex = (x: number, y: number) => (symmetric && x > y ? y * N + x : x * N + y);
  const bigramRow = (e: Example, i: number) =>
    !symmetric && i >= 2 ? (BIGRAM[(e.x[i - 2] as number) * N + (e.x[i - 1] as number)] as number) : -1;

  /** Loss of one example; adds its gradient to `grad`. */
  function step(e: Example): number {
    const { x, y, px, py } = e;
    const n = x.length;
    const m = y.length;
    const W = m + 1;
    const delX = (i: number) => DEL_X + (px[i] as number) * N + (x[i] as number);
    const delY = (j: number) => (symmetric ? DEL_X : DEL_Y) + (py[j] as number) * N + (y[j] as number);
    let massX = 0;
    let massY = 0;
    for (let i = 0; i < n; i++) massX += cost(delX(i));
    for (let j = 0; j < m; j++) massY += cost(delY(j));
    F[0] = 0;
    for (let i = 0; i <= n; i++) {
      for (let j = 0; j <= m; j++) {
        if (i === 0 && j === 0) continue;
        let k = 0;
        if (i > 0 && j > 0)
          incoming[k++] =
            (F[(i - 1) * W + j - 1] as number) + cost(subIndex(x[i - 1] as number, y[j - 1] as number));
        if (i > 0) incoming[k++] = (F[(i - 1) * W + j] as number) + cost(delX(i - 1));
        if (j > 0) incoming[k++] = (F[i * W + j - 1] as number) + cost(delY(j - 1));
        const r = bigramRow(e, i);
        if (r >= 0 && j > 0) {
          const c = BIGRAM_COST[r * N + (y[j - 1] as number)] as number;
          if (c < 9) incoming[k++] = (F[(i - 2) * W + j - 1] as number) + c;
        }
        let low = Number.POSITIVE_INFINITY;
        for (let q = 0; q < k; q++) low = Math.min(low, incoming[q] as number);
        let sum = 0;
        for (let q = 0; q < k; q++) sum += Math.exp(-((incoming[q] as number) - low) / TAU);
        F[i * W + j] = low - TAU * Math.log(sum);
      }
    }
    const total = F[n * W + m] as number;
    const mass = Math.max(massX, massY);
    if (mass <= 0) return 0;
    const similarity = 1 - total / mass;
    const z = -e.label * SLOPE * (similarity - CENTRE);
    const loss = e.weight * (z > 30 ? z : Math.log1p(Math.exp(z)));
    const dSimilarity = e.weight * (1 / (1 + Math.exp(-z))) * -e.label * SLOPE;
    const dTotal = -dSimilarity / mass;
    const dMass = (dSimilarity * total) / (mass * mass);
    const add = (param: number, g: number) => {
      grad[param] = (grad[param] as number) + g;
    };
    if (massX >= massY) for (let i = 0; i < n; i++) add(delX(i), dMass);
    else for (let j = 0; j < m; j++) add(delY(j), dMass);
    // Backward through the soft minimum: each edge's share of the total.
    G.fill(0, 0, (n + 1) * W);
    G[n * W + m] = 1;
    for (let i = n; i >= 0; i--) {
      for (let j = m; j >= 0; j--) {
        const g = G[i * W + j] as number;
        if ((i === 0 && j === 0) || g === 0) continue;
        const here = F[i * W + j] as number;
        const edge = (from: number, c: number, param: number) => {
          const share = g * Math.exp(-((F[from] as number) + c - here) / TAU);
          G[from] = (G[from] as number) + share;
          if (param >= 0) add(param, share * dTotal);
        };
        if (i > 0 && j > 0) {
          const s = subIndex(x[i - 1] as number, y[j - 1] as number);
          edge((i - 1) * W + j - 1, cost(s), s);
        }
        if (i > 0) edge((i - 1) * W + j, cost(delX(i - 1)), delX(i - 1));
        if (j > 0) edge(i * W + j - 1, cost(delY(j - 1)), delY(j - 1));
        const r = bigramRow(e, i);
        if (r >= 0 && j > 0) {
          const c = BIGRAM_COST[r * N + (y[j - 1] as number)] as number;
          if (c < 9) edge((i - 2) * W + j - 1, c, -1);
        }
      }
    }
    return loss;
  }

  // Adam, projected onto [0, 1].
  const mean = new Float64Array(PARAMS);
  const variance = new Float64Array(PARAMS);
  let t = 0;
  const order = fit.examples.map((_, i) => i);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    shuffle(order);
    let loss = 0;
    for (let b = 0; b < order.length; b += BATCH) {
      grad.fill(0);
      const end = Math.min(order.length, b + BATCH);
      for (let q = b; q < end; q++) loss += step(fit.examples[order[q] as number] as Example);
      t++;
      for (let i = 0; i < PARAMS; i++) {
        if (trainable[i] === 0) continue;
        const g = (grad[i] as number) / BATCH + fit.l2 * ((theta[i] as number) - (prior[i] as number));
        mean[i] = 0.9 * (mean[i] as number) + 0.1 * g;
        variance[i] = 0.999 * (variance[i] as number) + 0.001 * g * g;
        const mHat = (mean[i] as number) / (1 - 0.9 ** t);
        const vHat = (variance[i] as number) / (1 - 0.999 ** t);
        theta[i] = Math.min(
          1,
          Math.max(0, (theta[i] as number) - (LEARNING_RATE * mHat) / (Math.sqrt(vHat) + 1e-8)),
        );
      }
    }
    process.stderr.write(`${fit.name}: epoch ${epoch + 1}, loss ${(loss / order.length).toFixed(4)}\n`);
  }
}

// --- run and write -------------------------------------------------------------------------------------------------
const cross = crossFit();
const latin = latinFit();
for (const fit of [cross, latin]) {
  process.stderr.write(`${fit.name}: ${fit.examples.length.toLocaleString('en-US')} pairs\n`);
  train(fit);
}

const round = (x: number) => Math.round(x * 100) / 100;
const name = (u: number) => unitName[u] as string;
const pairs = (fit: Fit, xs: number[], ys: number[], keep: (x: number, y: number) => boolean) => {
  const out: Array<[string, string, number]> = [];
  for (const x of xs) {
    for (const y of ys) {
      const c = round(fit.theta[x * N + y] as number);
      if (keep(x, y) && c < 1) out.push([name(x), name(y), c]);
    }
  }
  return out;
};
const byPosition = (fit: Fit, offset: number) =>
  latinUnits.map((l) => [name(l), ...[0, 1, 2].map((p) => round(fit.theta[offset + p * N + l] as number))]);

// One tuple a line, as the formatter writes it, so that a re-run diffs cleanly.
const table = (rows: ReadonlyArray<ReadonlyArray<string | number>>) =>
  `[\n${rows.map((r) => `  [${r.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ')}],`).join('\n')}\n]`;
const lines = [
  '/**',
  ' * GENERATED by bench/names-learn.ts from labelled pairs (see its header and docs/names.md): do not edit by hand.',
  ` * ${learn.length.toLocaleString('en-US')} ar2en train pairs (Google, Apache-2.0; the evaluation sample excluded) and the labelled`,
  " * Syrian set's dev groups; nothing held out. Costs in [0, 1]; pairs not listed cost 1. Positions: first unit,",
  ' * elsewhere, final vowel.',
  ' */',
  '',
  '/** [Arabic unit, Latin unit, cost]: how an Arabic unit is written (0 = its usual rendering). */',
  `export const LEARNED_CROSS: ReadonlyArray<readonly [string, string, number]> = ${table(pairs(cross, arabicUnits, latinUnits, () => true))};`,
  '',
  '/** [Arabic unit, cost]: an Arabic unit left unmatched against Latin (not written). */',
  `export const LEARNED_ARABIC_UNWRITTEN: ReadonlyArray<readonly [string, number]> = ${table(arabicUnits.map((a) => [name(a), round(cross.theta[DEL_X + a] as number)]))};`,
  '',
  '/** [Latin unit, cost by position …]: a Latin unit left unmatched against Arabic (no letter for it). */',
  `export const LEARNED_LATIN_UNWRITTEN: ReadonlyArray<readonly [string, number, number, number]> = ${table(byPosition(cross, DEL_Y))};`,
  '',
  '/** [Latin unit, Latin unit, cost]: two Latin spellings of one sound (symmetric). */',
  `export const LEARNED_LATIN: ReadonlyArray<readonly [string, string, number]> = ${table(pairs(latin, latinUnits, latinUnits, (x, y) => x < y))};`,
  '',
  '/** [Latin unit, cost by position …]: a Latin unit left unmatched against Latin. */',
  `export const LEARNED_LATIN_DROPPED: ReadonlyArray<readonly [string, number, number, number]> = ${table(byPosition(latin, DEL_X))};`,
  '',
];
fs.writeFileSync(outFile, lines.join('\n'));
process.stderr.write(`wrote ${outFile}\n`);
