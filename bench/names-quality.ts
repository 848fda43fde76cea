/**
 * Quality evaluation for src/names, shared by bench/suites/names.ts: recall at precision 0.98 per script pairing
 * on the labelled Syrian set (test/data/names/syrian-name-variants.tsv, dev and held-out splits, the held-out
 * split also in a tune and a test half), on the Google ar2en transliteration pairs (../shared/data/names) and on
 * synthetic full names with sibling, cousin and father/son negatives. File reading lives here, not in src/names.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  compareTokens,
  normalize,
  type PreparedToken,
  phoneticKey,
  prepareToken,
  similarity,
} from '../src/names/index.js';

export type Pairing = 'ar-latn' | 'latn-latn' | 'ar-ar';
export type Split = 'dev' | 'heldout';
/**
 * Held-out pairs are also reported in two halves by group: `tune` (even group ids) may be looked at while
 * developing; `test` (odd ids) only as a figure, never as an error list (see docs/names.md).
 */
export type Half = 'tune' | 'test';
export const halfOf = (group: number): Half => (group % 2 === 0 ? 'tune' : 'test');

export interface Spelling {
  text: string;
  script: 'ar' | 'latn';
  split: Split;
  group: number;
}

export interface Group {
  id: number;
  kind: 'given' | 'family';
  split: Split;
  arabic: Spelling[];
  latin: Spelling[];
}

const root = path.resolve(import.meta.dirname, '..');
export const SYRIAN_SET = path.join(root, 'test/data/names/syrian-name-variants.tsv');
export const AR2EN_DIR = '/work/shared/data/names';

export function loadSyrianSet(file = SYRIAN_SET): Group[] {
  const groups: Group[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [id, kind, split, arabic = '', dev = '', held = ''] = line.split('\t');
    const g = Number(id);
    const groupSplit = split as Split;
    const list = (s: string) => s.split('|').filter(Boolean);
    groups.push({
      id: g,
      kind: kind as Group['kind'],
      split: groupSplit,
      arabic: list(arabic).map((text) => ({ text, script: 'ar', split: groupSplit, group: g })),
      latin: [
        ...list(dev).map((text) => ({ text, script: 'latn' as const, split: groupSplit, group: g })),
        ...list(held).map((text) => ({ text, script: 'latn' as const, split: 'heldout' as const, group: g })),
      ],
    });
  }
  return groups;
}

export interface ScoredPair {
  score: number;
  positive: boolean;
}

/** Recall at the lowest threshold whose precision is still ≥ `precision`; ties are taken together. */
export function recallAtPrecision(
  pairs: ScoredPair[],
  precision = 0.98,
): { recall: number; threshold: number; positives: number; negatives: number } {
  const sorted = [...pairs].sort((a, b) => b.score - a.score);
  const positives = sorted.filter((p) => p.positive).length;
  let tp = 0;
  let fp = 0;
  let best = { recall: 0, threshold: 1 };
  let i = 0;
  while (i < sorted.length) {
    const score = (sorted[i] as ScoredPair).score;
    while (i < sorted.length && (sorted[i] as ScoredPair).score === score) {
      if ((sorted[i] as ScoredPair).positive) tp++;
      else fp++;
      i++;
    }
    if (tp / (tp + fp) >= precision && tp / positives > best.recall)
      best = { recall: tp / positives, threshold: score };
  }
  return { ...best, positives, negatives: sorted.length - positives };
}

/**
 * The Wilson score interval (95%) of a recall: how far the figure could move with another sample of names of the
 * same kind. It takes the threshold as given; choosing it on the same pairs makes the true interval a little wider.
 */
export function recallInterval(recall: number, positives: number, z = 1.96): [number, number] {
  if (positives === 0) return [0, 1];
  const p = Math.round(recall * positives) / positives;
  const z2 = z * z;
  const centre = (p + z2 / (2 * positives)) / (1 + z2 / positives);
  const half =
    (z / (1 + z2 / positives)) * Math.sqrt((p * (1 - p)) / positives + z2 / (4 * positives * positives));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export interface TokenEvaluation {
  pairing: Pairing;
  split: Split | 'heldout-tune' | 'heldout-test';
  negatives: 'blocked' | 'all';
  recall: number;
  threshold: number;
  positives: number;
  negativeCount: number;
}

interface Item {
  spelling: Spelling;
  token: PreparedToken;
  keys: string[];
}

/**
 * Token pairs of the labelled set, scored. Positives: two spellings of one group (identical matching forms left
 * out). Negatives: spellings of different groups, either all of them or only those that share a blocking key
 * (skeleton or phonetic) — the pairs a linkage run would actually score. A pair is held-out when either side is.
 */
export function evaluateSyrianTokens(
  groups: Group[],
  options: { lexicon?: boolean; score?: (a: PreparedToken, b: PreparedToken) => number } = {},
): TokenEvaluation[] {
  const score = options.score ?? compareTokens;
  const prep = (s: Spelling): Item => {
    const token = prepareToken(s.text, { lexicon: options.lexicon !== false });
    return { spelling: s, token, keys: [`k:${token.key}`, `p:${phoneticKey(s.text)}`] };
  };
  const arabic = dedupe(groups.flatMap((g) => g.arabic).map(prep));
  const latin = dedupe(groups.flatMap((g) => g.latin).map(prep));
  const buckets = new Map<string, ScoredPair[]>();
  const push = (pairing: Pairing, split: string, negatives: 'blocked' | 'all', p: ScoredPair) => {
    const key = `${pairing}|${split}|${negatives}`;
    const list = buckets.get(key);
    if (list) list.push(p);
    else buckets.set(key, [p]);
  };
  const run = (pairing: Pairing, xs: Item[], ys: Item[], same: boolean) => {
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i] as Item;
      for (let j = same ? i + 1 : 0; j < ys.length; j++) {
        const y = ys[j] as Item;
        const positive = x.spelling.group === y.spelling.group;
        const held = [x, y].filter((it) => it.spelling.split === 'heldout');
        const halves = new Set(held.map((it) => halfOf(it.spelling.group)));
        // A held-out pair belongs to a half when every held-out side does.
        const splits =
          held.length === 0
            ? ['dev']
            : halves.size === 1
              ? ['heldout', `heldout-${[...halves][0]}`]
              : ['heldout'];
        const p = { score: score(x.token, y.token), positive };
        const blocked = positive || x.keys.some((k) => y.keys.includes(k));
        for (const split of splits) {
          push(pairing, split, 'all', p);
          if (blocked) push(pairing, split, 'blocked', p);
        }
      }
    }
  };
  run('ar-latn', arabic, latin, false);
  run('latn-latn', latin, latin, true);
  run('ar-ar', arabic, arabic, true);
  const out: TokenEvaluation[] = [];
  for (const [key, pairs] of buckets) {
    const [pairing, split, negatives] = key.split('|') as [
      Pairing,
      TokenEvaluation['split'],
      'blocked' | 'all',
    ];
    const r = recallAtPrecision(pairs);
    if (r.positives === 0) continue;
    out.push({
      pairing,
      split,
      negatives,
      recall: r.recall,
      threshold: r.threshold,
      positives: r.positives,
      negativeCount: r.negatives,
    });
  }
  return out.sort((a, b) =>
    `${a.pairing}${a.split}${a.negatives}`.localeCompare(`${b.pairing}${b.split}${b.negatives}`),
  );
}

/** Identical matching forms within a group say nothing about similarity: keep one of each. */
function dedupe(items: Item[]): Item[] {
  const seen = new Set<string>();
  return items.filter((it) => {
    const k = `${it.spelling.group}|${normalize(it.spelling.text)}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function loadAr2en(file: string): Array<[string, string]> {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t') as [string, string]);
}

/**
 * ar2en pairs: each Arabic word with its own Latin (positive) and with every other entry's Latin (negative, unless
 * that pairing is listed anywhere in train or eval, or the two Latin spellings differ only in doubled letters).
 * Blocked negatives share a skeleton or phonetic key.
 */
export function evaluateAr2en(
  pairs: Array<[string, string]>,
  known: Array<[string, string]>,
  options: { lexicon?: boolean; score?: (a: PreparedToken, b: PreparedToken) => number } = {},
): { blocked: ReturnType<typeof recallAtPrecision>; all: ReturnType<typeof recallAtPrecision> } {
  const score = options.score ?? compareTokens;
  const lex = { lexicon: options.lexicon !== false };
  const listed = new Set(known.map(([a, l]) => `${normalize(a)}\t${normalize(l)}`));
  const ar = pairs.map(([a]) => ({
    text: a,
    t: prepareToken(a, lex),
    k: [`k:${tokenKeyOf(a, lex)}`, `p:${phoneticKey(a)}`],
  }));
  const la = pairs.map(([, l]) => ({
    text: l,
    t: prepareToken(l, lex),
    k: [`k:${tokenKeyOf(l, lex)}`, `p:${phoneticKey(l)}`],
  }));
  const all: ScoredPair[] = [];
  const blocked: ScoredPair[] = [];
  const same = pairs.map(([, l]) => normalize(l).replace(/(.)\1+/g, '$1'));
  for (let i = 0; i < ar.length; i++) {
    const x = ar[i] as (typeof ar)[number];
    for (let j = 0; j < la.length; j++) {
      const y = la[j] as (typeof la)[number];
      const positive = i === j;
      // Entries that spell the same name (Anna / Ana, listed pairs) are not negatives of each other.
      if (!positive && (listed.has(`${normalize(x.text)}\t${normalize(y.text)}`) || same[i] === same[j]))
        continue;
      const p = { score: score(x.t, y.t), positive };
      all.push(p);
      if (positive || x.k.some((k) => y.k.includes(k))) blocked.push(p);
    }
  }
  return { blocked: recallAtPrecision(blocked), all: recallAtPrecision(all) };
}

/**
 * The ar2en train file in two parts: a fixed random sample of ~2,000 pairs that is only ever scored (never learned
 * from, never inspected), and the rest, which bench/names-learn.ts learns transliteration costs from.
 */
export function splitAr2enTrain(train: Array<[string, string]>): {
  sample: Array<[string, string]>;
  learn: Array<[string, string]>;
} {
  const pick = prng(3);
  const sample: Array<[string, string]> = [];
  const learn: Array<[string, string]> = [];
  for (const pair of train) (pick() < 2000 / train.length ? sample : learn).push(pair);
  return { sample, learn };
}

function tokenKeyOf(text: string, lex: { lexicon: boolean }): string {
  return prepareToken(text, lex).key;
}

/** A small seeded PRNG (mulberry32) so synthetic full names are the same on every run. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Person {
  first: Group;
  father: Group;
  grandfather: Group;
  family: Group;
}

export interface FullNameEvaluation {
  pairing: Pairing;
  recall: number;
  threshold: number;
  positives: number;
  negatives: number;
  /** Share of each negative kind scoring at or above the match threshold. */
  falseMatchRate: Record<string, number>;
}

/**
 * Synthetic full names (labelled SYNTHETIC: random combinations of the set's names). Positives: two renderings of
 * one person (random spellings, grandfather dropped 30% of the time, father 10%, family name first after a comma
 * 5%). Negatives: a sibling (other first name), a cousin (other first and father's name), the person's father
 * (the generations shifted) and a random person of the same family.
 */
export function evaluateFullNames(groups: Group[], persons: number, seed = 7): FullNameEvaluation[] {
  const rand = prng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const given = groups.filter((g) => g.kind === 'given' && g.arabic.length > 0 && g.latin.length > 0);
  const family = groups.filter((g) => g.kind === 'family' && g.arabic.length > 0 && g.latin.length > 0);
  const person = (): Person => ({
    first: pick(given),
    father: pick(given),
    grandfather: pick(given),
    family: pick(family),
  });
  const render = (p: Person, script: 'ar' | 'latn'): string => {
    const spell = (g: Group) => pick(script === 'ar' ? g.arabic : g.latin).text;
    const parts = [spell(p.first)];
    const r = rand();
    if (r >= 0.1) parts.push(spell(p.father));
    if (r >= 0.4) parts.push(spell(p.grandfather));
    if (rand() < 0.05) return `${spell(p.family)}, ${parts.join(' ')}`;
    return [...parts, spell(p.family)].join(' ');
  };
  const otherThan = (g: Group) => {
    let x = pick(given);
    while (x.id === g.id) x = pick(given);
    return x;
  };
  const pairings: Array<[Pairing, 'ar' | 'latn', 'ar' | 'latn']> = [
    ['ar-latn', 'ar', 'latn'],
    ['latn-latn', 'latn', 'latn'],
    ['ar-ar', 'ar', 'ar'],
  ];
  const out: FullNameEvaluation[] = [];
  for (const [pairing, s1, s2] of pairings) {
    const scored: Array<ScoredPair & { kind: string }> = [];
    for (let i = 0; i < persons; i++) {
      const p = person();
      const a = render(p, s1);
      scored.push({ score: similarity(a, render(p, s2)), positive: true, kind: 'same' });
      const sibling = { ...p, first: otherThan(p.first) };
      scored.push({ score: similarity(a, render(sibling, s2)), positive: false, kind: 'sibling' });
      const cousin = { ...p, first: otherThan(p.first), father: otherThan(p.father) };
      scored.push({ score: similarity(a, render(cousin, s2)), positive: false, kind: 'cousin' });
      const father = { first: p.father, father: p.grandfather, grandfather: pick(given), family: p.family };
      scored.push({ score: similarity(a, render(father, s2)), positive: false, kind: 'father' });
      const stranger = { ...person(), family: p.family };
      scored.push({ score: similarity(a, render(stranger, s2)), positive: false, kind: 'same-family' });
    }
    const r = recallAtPrecision(scored);
    const falseMatchRate: Record<string, number> = {};
    for (const kind of ['sibling', 'cousin', 'father', 'same-family']) {
      const list = scored.filter((s) => s.kind === kind);
      falseMatchRate[kind] = list.filter((s) => s.score >= r.threshold).length / list.length;
    }
    out.push({
      pairing,
      recall: r.recall,
      threshold: r.threshold,
      positives: r.positives,
      negatives: r.negatives,
      falseMatchRate,
    });
  }
  return out;
}
