/**
 * Full-name similarity: parse both names, align their parts (first with first, the rest in order, letting the
 * shorter name miss parts: a missing grandfather or father costs little, a differing one costs its weight), try
 * the family name written first on either side, and weigh each part by its role and, when frequencies are given,
 * by how rare the name is.
 */
import { normalize } from './normalize.js';
import { type NamePart, type NameParts, type ParsedName, type PartRole, parse, parseParts } from './parse.js';
import { compareTokens, explainTokens, type PreparedToken, prepareToken } from './token.js';

/**
 * How common each token is. `counts` is keyed by `tokenKey` (the cross-script skeleton), so محمد, Mohammad and
 * Mhd count together; `total` is the number of tokens counted. Build one with `countTokenFrequencies`.
 */
export interface TokenFrequencies {
  counts: ReadonlyMap<string, number>;
  total: number;
}

export interface SimilarityOptions {
  frequencies?: TokenFrequencies;
}

/**
 * Full names scoring at least this are reported as a match by `explainSimilarity`: about where precision reaches
 * 0.98 on the synthetic full-name set (docs/names.md).
 */
export const NAME_MATCH_THRESHOLD = 0.88;
/** … and at least this as a possible match. */
export const NAME_POSSIBLE_THRESHOLD = 0.7;

// The first name is what tells siblings and cousins apart (they share father, grandfather and family): it weighs
// as much as the other three together.
const ROLE_WEIGHT: Record<PartRole, number> = {
  first: 2.5,
  father: 0.9,
  grandfather: 0.6,
  middle: 0.4,
  family: 1,
};
/** A part the other name lacks counts for this fraction of its weight (missing, not contradicting). */
const MISSING = 0.25;
/** Reading one name with its family name first costs this much. */
const REORDER_PENALTY = 0.05;
/** Token similarity below LOW says nothing for the same person; from HIGH on it is full agreement. */
const LOW = 0.45;
const HIGH = 0.95;
/** Names at or below this share of all tokens get full weight; common ones down to MIN_FREQUENCY_WEIGHT. */
const RARE_SHARE = 1 / 2000;
const MIN_FREQUENCY_WEIGHT = 0.25;

/** Counts token keys over a list of full names (each part counted once per name). */
export function countTokenFrequencies(names: Iterable<string>): TokenFrequencies {
  const counts = new Map<string, number>();
  let total = 0;
  for (const name of names) {
    for (const part of parseParts(name).parts) {
      const key = prepareToken(part.text).key;
      if (key === '') continue;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      total++;
    }
  }
  return { counts, total };
}

function frequencyWeight(token: PreparedToken, frequencies: TokenFrequencies | undefined): number {
  if (!frequencies || frequencies.total <= 0 || token.key === '') return 1;
  const count = frequencies.counts.get(token.key) ?? 0;
  const share = (count + 0.5) / (frequencies.total + 1);
  const w = Math.log(share) / Math.log(RARE_SHARE);
  return w < MIN_FREQUENCY_WEIGHT ? MIN_FREQUENCY_WEIGHT : Math.min(w, 1);
}

function agreement(s: number): number {
  const x = (s - LOW) / (HIGH - LOW);
  return x < 0 ? 0 : Math.min(x, 1);
}

interface Slot {
  part: NamePart;
  token: PreparedToken;
  frequency: number;
}

interface PairResult {
  a: Slot;
  b: Slot;
  similarity: number;
  weight: number;
}

interface Alignment {
  score: number;
  pairs: PairResult[];
  missing: Array<{ side: 'a' | 'b'; slot: Slot; weight: number }>;
}

/** Token similarities already computed for this pair of names (the re-read orders reuse them). */
type Memo = Map<PreparedToken, Map<PreparedToken, number>>;

function pairOf(a: Slot, b: Slot, memo: Memo): PairResult {
  let row = memo.get(a.token);
  if (!row) {
    row = new Map();
    memo.set(a.token, row);
  }
  let similarity = row.get(b.token);
  if (similarity === undefined) {
    similarity = compareTokens(a.token, b.token);
    row.set(b.token, similarity);
  }
  const agree = agreement(similarity);
  const role = (ROLE_WEIGHT[a.part.role] + ROLE_WEIGHT[b.part.role]) / 2;
  // Agreement on a common name says little; disagreement says as much whatever the names.
  const frequency = (a.frequency + b.frequency) / 2;
  const weight = role * (1 - agree + agree * frequency);
  return { a, b, similarity, weight };
}

/** Aligns two part sequences: first with first, then every part of the shorter rest in order. */
function align(xs: Slot[], ys: Slot[], memo: Memo): Alignment {
  const swapped = xs.length > ys.length;
  const short = swapped ? ys : xs;
  const long = swapped ? xs : ys;
  const pair = (x: Slot, y: Slot) => pairOf(x, y, memo);
  const pairs: PairResult[] = [pair(short[0] as Slot, long[0] as Slot)];
  const n = short.length - 1;
  const m = long.length - 1;
  const results: PairResult[][] = [];
  for (let i = 0; i < n; i++) {
    const row: PairResult[] = [];
    for (let j = 0; j < m; j++) row.push(pair(short[i + 1] as Slot, long[j + 1] as Slot));
    results.push(row);
  }
  // best[i][j]: best gain matching short[1..i] into long[1..j] (all of short matched); skip gains are negative.
  const skip = (j: number) => -MISSING * ROLE_WEIGHT[(long[j] as Slot).part.role];
  const best: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(-Infinity));
  const from: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  (best[0] as number[])[0] = 0;
  for (let j = 1; j <= m; j++) (best[0] as number[])[j] = ((best[0] as number[])[j - 1] as number) + skip(j);
  for (let i = 1; i <= n; i++) {
    for (let j = i; j <= m; j++) {
      const p = (results[i - 1] as PairResult[])[j - 1] as PairResult;
      const matchGain =
        ((best[i - 1] as number[])[j - 1] as number) + p.weight * agreement(p.similarity) - p.weight;
      const skipGain = ((best[i] as number[])[j - 1] as number) + skip(j);
      if (matchGain >= skipGain) {
        (best[i] as number[])[j] = matchGain;
        (from[i] as number[])[j] = 1;
      } else {
        (best[i] as number[])[j] = skipGain;
        (from[i] as number[])[j] = 0;
      }
    }
  }
  const missing: Alignment['missing'] = [];
  const middle: PairResult[] = [];
  let i = n;
  let j = m;
  while (j > 0) {
    if (i > 0 && (from[i] as number[])[j] === 1) {
      middle.push((results[i - 1] as PairResult[])[j - 1] as PairResult);
      i--;
    } else {
      const slot = long[j] as Slot;
      missing.push({ side: swapped ? 'a' : 'b', slot, weight: ROLE_WEIGHT[slot.part.role] });
    }
    j--;
  }
  pairs.push(...middle.reverse());
  missing.reverse();
  let num = 0;
  let den = 0;
  for (const p of pairs) {
    num += p.weight * agreement(p.similarity);
    den += p.weight;
  }
  for (const miss of missing) den += miss.weight * MISSING;
  const ordered = swapped ? pairs.map((p) => ({ ...p, a: p.b, b: p.a })) : pairs;
  return { score: den > 0 ? num / den : 0, pairs: ordered, missing };
}

function slots(parts: readonly NamePart[], frequencies: TokenFrequencies | undefined): Slot[] {
  return parts.map((part) => {
    const token = prepareToken(part.text);
    return { part, token, frequency: frequencyWeight(token, frequencies) };
  });
}

/** The parts read the other way: the family name first when the parse said last, and back. */
function reread(p: NameParts): NamePart[] | undefined {
  if (p.parts.length < 2) return undefined;
  const texts = p.parts.map((x) => x.text);
  const n = texts.length;
  const order = p.familyFirst
    ? [texts[n - 1] as string, ...texts.slice(0, -1)]
    : [...texts.slice(1), texts[0] as string];
  return order.map((text, i) => ({
    text,
    role:
      i === 0 ? 'first' : i === n - 1 ? 'family' : i === 1 ? 'father' : i === 2 ? 'grandfather' : 'middle',
  }));
}

interface Comparison {
  alignment: Alignment;
  reordered: 'none' | 'a' | 'b';
}

function compareNames(a: string, b: string, options?: SimilarityOptions): Comparison | undefined {
  const pa = parseParts(a);
  const pb = parseParts(b);
  if (pa.parts.length === 0 || pb.parts.length === 0) return undefined;
  const f = options?.frequencies;
  const sa = slots(pa.parts, f);
  const sb = slots(pb.parts, f);
  const memo: Memo = new Map();
  let best: Comparison = { alignment: align(sa, sb, memo), reordered: 'none' };
  // A re-read order pays the penalty, so it cannot beat a score already above 1 - penalty.
  if (best.alignment.score >= 1 - REORDER_PENALTY) return best;
  const ra = reread(pa);
  if (ra) {
    const alt = align(slots(ra, f), sb, memo);
    alt.score *= 1 - REORDER_PENALTY;
    if (alt.score > best.alignment.score) best = { alignment: alt, reordered: 'a' };
  }
  const rb = reread(pb);
  if (rb) {
    const alt = align(sa, slots(rb, f), memo);
    alt.score *= 1 - REORDER_PENALTY;
    if (alt.score > best.alignment.score) best = { alignment: alt, reordered: 'b' };
  }
  return best;
}

/**
 * Similarity of two full names in [0, 1], in any scripts. Identical names (same matching form) score 1; names
 * without letters or digits score 0. Symmetric.
 */
export function similarity(a: string, b: string, options?: SimilarityOptions): number {
  const na = normalize(a);
  const nb = normalize(b);
  if (na === '' || nb === '') return 0;
  if (na === nb) return 1;
  const [x, y] = na < nb ? [a, b] : [b, a];
  const c = compareNames(x, y, options);
  return c ? round(c.alignment.score) : 0;
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

export interface SimilarityExplanation {
  score: number;
  verdict: 'match' | 'possible' | 'different';
  a: ParsedName;
  b: ParsedName;
  /** Which name was read with its family name moved ('none' when both were read as parsed). */
  reordered: 'none' | 'a' | 'b';
  pairs: Array<{
    a: string;
    b: string;
    roleA: PartRole;
    roleB: PartRole;
    similarity: number;
    weight: number;
    why: string;
  }>;
  /** Parts one name has and the other lacks. */
  missing: Array<{ side: 'a' | 'b'; part: string; role: PartRole; weight: number }>;
}

/** The score with its reasons: both parses, the part alignment and why each pair scored what it did. */
export function explainSimilarity(a: string, b: string, options?: SimilarityOptions): SimilarityExplanation {
  const score = similarity(a, b, options);
  const verdict =
    score >= NAME_MATCH_THRESHOLD ? 'match' : score >= NAME_POSSIBLE_THRESHOLD ? 'possible' : 'different';
  const base = { score, verdict, a: parse(a), b: parse(b) } as const;
  const na = normalize(a);
  const nb = normalize(b);
  if (na === '' || nb === '') return { ...base, reordered: 'none', pairs: [], missing: [] };
  // Explain the same orientation `similarity` scored, so the figures agree.
  const flip = na !== nb && !(na < nb);
  const c = flip ? compareNames(b, a, options) : compareNames(a, b, options);
  if (!c) return { ...base, reordered: 'none', pairs: [], missing: [] };
  const pairs = c.alignment.pairs.map((p) => {
    const [x, y] = flip ? [p.b, p.a] : [p.a, p.b];
    return {
      a: x.part.text,
      b: y.part.text,
      roleA: x.part.role,
      roleB: y.part.role,
      similarity: round(p.similarity),
      weight: round(p.weight),
      why: explainTokens(x.token, y.token).detail,
    };
  });
  const missing = c.alignment.missing.map((m) => ({
    side: (flip ? (m.side === 'a' ? 'b' : 'a') : m.side) as 'a' | 'b',
    part: m.slot.part.text,
    role: m.slot.part.role,
    weight: round(m.weight * MISSING),
  }));
  const reordered = flip ? (c.reordered === 'a' ? 'b' : c.reordered === 'b' ? 'a' : 'none') : c.reordered;
  return { ...base, reordered, pairs, missing };
}
