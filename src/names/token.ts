/**
 * One name token (a name part: "Mohammad", "عبد الرحمن", "Al-Masri"): preparation, the cross-script skeleton key and
 * the hot-path comparison. `prepareToken` does all the work that does not depend on the other token, so
 * `compareTokens` is one small weighted alignment over two short unit arrays, with no allocation.
 */
import { canonicalPart, gluedArticleLength } from './canonical.js';
import { lexiconEntry, lookupLexicon } from './lexicon.js';
import { clean, detectScript, normalize, type Script } from './normalize.js';
import { MAX_UNITS, soundUnits } from './sounds.js';
import {
  delCross,
  delSame,
  isArabicH,
  Side,
  SPLIT_EXTRA,
  SUB,
  splitFirst,
  UNIT_COUNT,
  unitClass,
  unitName,
  unitSide,
} from './units.js';

/** Score of two different spellings listed under one lexicon entry (Mohammad / محمد / Mhd). */
export const LEXICON_SAME_SCORE = 0.97;
/** Ceiling for two tokens listed under different lexicon entries (Samer / Samir, حسن / حسين). */
export const LEXICON_DIFFERENT_CEILING = 0.55;
/** Score of two tokens whose spellings differ only in separators, articles or compound linkers. */
export const CANONICAL_SAME_SCORE = 0.99;
/** Glued-article units ("al" of "Almasri", "ال" of "المصري") cost this much to leave unmatched. */
const ARTICLE_DELETE = 0.05;

/** Everything a comparison needs about one token, computed once. Treat as immutable. */
export class PreparedToken {
  constructor(
    /** The token after Unicode hygiene (display form). */
    readonly text: string,
    /** The matching form (`normalize`). */
    readonly form: string,
    /** The canonical spelling (articles and compound linkers removed): what units are read from. */
    readonly canonical: string,
    readonly script: Script,
    /** The cross-script skeleton key (see `tokenKey`). */
    readonly key: string,
    /** Sound units (units.ts). */
    readonly units: Uint8Array,
    /** Per-unit cost of leaving it unmatched against a token of the same side / the other side. */
    readonly delSame: Float32Array,
    readonly delCross: Float32Array,
    readonly sumSame: number,
    readonly sumCross: number,
    /** Which side of the unit alphabet dominates (Arabic 0, Latin 1). */
    readonly side: Side,
    /** Lexicon entries this spelling is listed under (usually 0 or 1). */
    readonly lexicon: Int32Array,
    /** How many leading units are a glued article ("al" of "Almasri", "ال" of "المصري"): 0 or 2. */
    readonly articleUnits: number,
  ) {}
}

export interface PrepareOptions {
  /** Use the curated lexicon (default true). Off only to measure the algorithm alone. */
  lexicon?: boolean;
}

const cache = new Map<string, PreparedToken>();
const CACHE_LIMIT = 200_000;

/** Prepares one token for `compareTokens`. Never throws; an empty or letterless token gets no units. */
export function prepareToken(token: string, options?: PrepareOptions): PreparedToken {
  const useLexicon = options?.lexicon !== false;
  const cacheKey = useLexicon ? token : `\u0000${token}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const prepared = build(typeof token === 'string' ? token : '', useLexicon);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(cacheKey, prepared);
  return prepared;
}

function build(token: string, useLexicon: boolean): PreparedToken {
  // Bound the work on pathological input: no name part is anywhere near this long.
  const text = clean(token.length > 1000 ? token.slice(0, 1000) : token);
  const form = normalize(text);
  const canonical = form === '' ? '' : canonicalPart(form.split(' '));
  const units = Uint8Array.from(soundUnits(canonical));
  const article = gluedArticleLength(canonical);
  // The article's units are the first `articleUnits` units (a + l, or ا + ل).
  const articleUnits = article > 0 ? Math.min(2, units.length) : 0;
  const dSame = new Float32Array(units.length);
  const dCross = new Float32Array(units.length);
  let sumSame = 0;
  let sumCross = 0;
  let arabic = 0;
  for (let i = 0; i < units.length; i++) {
    const u = units[i] as number;
    const s = i < articleUnits ? ARTICLE_DELETE : (delSame[u] as number);
    const c = i < articleUnits ? ARTICLE_DELETE : (delCross[u] as number);
    dSame[i] = s;
    dCross[i] = c;
    sumSame += s;
    sumCross += c;
    if (unitSide[u] === Side.Arabic) arabic++;
  }
  const side = arabic * 2 >= units.length && arabic > 0 ? Side.Arabic : Side.Latin;
  const lexicon = useLexicon ? Int32Array.from(lookupLexicon(canonical)) : new Int32Array(0);
  const key = skeletonKey(lexicon, units, articleUnits);
  return new PreparedToken(
    text,
    form,
    canonical,
    detectScript(text),
    key,
    units,
    dSame,
    dCross,
    sumSame,
    sumCross,
    side,
    lexicon,
    articleUnits,
  );
}

function skeleton(units: Uint8Array, skip: number): string {
  let out = '';
  let last = '';
  for (let i = skip; i < units.length; i++) {
    const c = unitClass[units[i] as number] as string;
    if (c !== '' && c !== last) out += c;
    if (c !== '') last = c;
  }
  return out;
}

const entryKeys = new Map<number, string>();

function skeletonKey(lexicon: Int32Array, units: Uint8Array, articleUnits: number): string {
  // A token listed under exactly one entry takes that entry's key, so that "Mhd" meets محمد.
  if (lexicon.length === 1) {
    const id = lexicon[0] as number;
    let key = entryKeys.get(id);
    if (key === undefined) {
      const entry = lexiconEntry(id);
      const entryUnits = Uint8Array.from(soundUnits(entry?.canonical ?? ''));
      key = skeleton(entryUnits, gluedArticleLength(entry?.canonical ?? '') > 0 ? 2 : 0) || VOWELS_ONLY;
      entryKeys.set(id, key);
    }
    return key;
  }
  if (units.length === 0) return '';
  return skeleton(units, articleUnits) || VOWELS_ONLY;
}

/** The key of a token whose letters are all vowels, glides or ʿayn (Aya, آية, Ali's cousin Eia …). */
const VOWELS_ONLY = '-';

/**
 * The cross-script skeleton key of one name token: its consonant classes in order, vowels, glides, ʿayn, hamza,
 * final hā' and a glued article left out, repeats merged (محمد, Mohammad, Muhammed → MHMD; حسين, Hussein → HSN;
 * شادي, Chadi, Shadi → CD). Tokens listed in the lexicon take their entry's key. '' for a token without letters,
 * '-' for one with vowels only.
 */
export function tokenKey(token: string): string {
  return prepareToken(token).key;
}

// Scratch matrix for the alignment, reused by every call (single-threaded).
const WIDTH = MAX_UNITS + 1;
const D = new Float32Array(WIDTH * WIDTH);

/** Weighted alignment cost of a's units against b's; when cross-script, `a` must be the Arabic side. */
function alignCost(a: PreparedToken, b: PreparedToken, cross: boolean): number {
  const ua = a.units;
  const ub = b.units;
  const n = ua.length;
  const m = ub.length;
  const da = cross ? a.delCross : a.delSame;
  const db = cross ? b.delCross : b.delSame;
  const w = m + 1;
  D[0] = 0;
  for (let j = 1; j <= m; j++) D[j] = (D[j - 1] as number) + (db[j - 1] as number);
  for (let i = 1; i <= n; i++) {
    const row = i * w;
    const prev = row - w;
    const u = ua[i - 1] as number;
    const subRow = u * UNIT_COUNT;
    const del = da[i - 1] as number;
    D[row] = (D[prev] as number) + del;
    const split = cross && i >= 2 && isArabicH[u] === 1;
    const splitRow = split ? (ua[i - 2] as number) * UNIT_COUNT : 0;
    const splitPrev = prev - w;
    for (let j = 1; j <= m; j++) {
      const v = ub[j - 1] as number;
      let best = (D[prev + j - 1] as number) + (SUB[subRow + v] as number);
      const up = (D[prev + j] as number) + del;
      if (up < best) best = up;
      const left = (D[row + j - 1] as number) + (db[j - 1] as number);
      if (left < best) best = left;
      if (split) {
        const first = splitFirst[v] as number;
        if (first >= 0) {
          const s = (D[splitPrev + j - 1] as number) + (SUB[splitRow + first] as number) + SPLIT_EXTRA;
          if (s < best) best = s;
        }
      }
      D[row + j] = best;
    }
  }
  return D[n * w + m] as number;
}

/** Similarity of two tokens' spellings alone (no lexicon), in [0, 1]. */
export function spellingSimilarity(a: PreparedToken, b: PreparedToken): number {
  if (a.units.length === 0 || b.units.length === 0) return 0;
  const cross = a.side !== b.side;
  let cost: number;
  let norm: number;
  if (cross) {
    const [ar, la] = a.side === Side.Arabic ? [a, b] : [b, a];
    cost = alignCost(ar, la, true);
    norm = Math.max(ar.sumCross, la.sumCross);
  } else {
    // A fixed order keeps the score exactly symmetric (float sums depend on the order of the alignment).
    const [x, y] = a.form <= b.form ? [a, b] : [b, a];
    cost = alignCost(x, y, false);
    norm = Math.max(a.sumSame, b.sumSame);
  }
  if (norm <= 0) return cost <= 0 ? 1 : 0;
  const s = 1 - cost / norm;
  return s < 0 ? 0 : Math.min(s, 1);
}

/**
 * The hot path: similarity of two prepared tokens in [0, 1]. 1 for identical matching forms; CANONICAL_SAME_SCORE when only
 * separators, articles or compound linkers differ; LEXICON_SAME_SCORE for two spellings of one lexicon entry; the spelling similarity capped at LEXICON_DIFFERENT_CEILING for two
 * different lexicon entries; otherwise the spelling similarity. Symmetric; allocates nothing.
 */
export function compareTokens(a: PreparedToken, b: PreparedToken): number {
  if (a.form === b.form) return a.form === '' ? 0 : 1;
  if (a.units.length === 0 || b.units.length === 0) return 0;
  if (a.canonical === b.canonical) return CANONICAL_SAME_SCORE;
  const la = a.lexicon;
  const lb = b.lexicon;
  if (la.length > 0 && lb.length > 0) {
    for (let i = 0; i < la.length; i++) {
      for (let j = 0; j < lb.length; j++) if (la[i] === lb[j]) return LEXICON_SAME_SCORE;
    }
    const s = spellingSimilarity(a, b);
    return Math.min(s, LEXICON_DIFFERENT_CEILING);
  }
  return spellingSimilarity(a, b);
}

/** Convenience: prepare both tokens and compare them. */
export function tokenSimilarity(a: string, b: string): number {
  return compareTokens(prepareToken(a), prepareToken(b));
}

export interface TokenExplanation {
  score: number;
  reason: 'identical' | 'same-lexicon-entry' | 'different-lexicon-entries' | 'spelling' | 'empty';
  /** How the reason was reached, in words. */
  detail: string;
  keys: [string, string];
  /** The units each token was read as (for debugging and the CLI). */
  units: [string, string];
}

/** Why two tokens score what they score. */
export function explainTokens(a: PreparedToken, b: PreparedToken): TokenExplanation {
  const score = compareTokens(a, b);
  const units: [string, string] = [unitsText(a), unitsText(b)];
  const keys: [string, string] = [a.key, b.key];
  const base = { score, keys, units };
  if (a.form === b.form)
    return a.form === ''
      ? { ...base, reason: 'empty', detail: 'no letters' }
      : { ...base, reason: 'identical', detail: 'same matching form' };
  if (a.units.length === 0 || b.units.length === 0)
    return { ...base, reason: 'empty', detail: 'one side has no letters' };
  if (a.canonical === b.canonical)
    return { ...base, reason: 'identical', detail: `same canonical spelling ${a.canonical}` };
  const shared = [...a.lexicon].find((id) => b.lexicon.includes(id));
  if (shared !== undefined) {
    return {
      ...base,
      reason: 'same-lexicon-entry',
      detail: `both are spellings of ${lexiconEntry(shared)?.arabic ?? '?'} (lexicon)`,
    };
  }
  const spelling = spellingSimilarity(a, b);
  if (a.lexicon.length > 0 && b.lexicon.length > 0) {
    const na = lexiconEntry(a.lexicon[0] as number)?.arabic ?? '?';
    const nb = lexiconEntry(b.lexicon[0] as number)?.arabic ?? '?';
    return {
      ...base,
      reason: 'different-lexicon-entries',
      detail: `different names ${na} / ${nb} (lexicon); spelling similarity ${spelling.toFixed(3)}`,
    };
  }
  return { ...base, reason: 'spelling', detail: `spelling similarity ${spelling.toFixed(3)}` };
}

function unitsText(t: PreparedToken): string {
  return [...t.units].map((u) => unitName[u]).join(' ');
}
