/**
 * One name token (a name part: "Mohammad", "عبد الرحمن", "Al-Masri"): preparation, the cross-script skeleton key and
 * the hot-path comparison. `prepareToken` does all the work that does not depend on the other token, so
 * `compareTokens` is one small weighted alignment over two short unit arrays, with no allocation.
 */
import { canonicalPart, gluedArticleLength, otherReading } from './canonical.js';
import { lexiconEntries, lexiconEntry, lookupLexicon, nicknameTargets } from './lexicon.js';
import { clean, detectScript, normalize, normalizeForSounds, type Script } from './normalize.js';
import { MAX_UNITS, soundUnits } from './sounds.js';
import {
  AR,
  ARABIC_DROPPED,
  ARABIC_UNWRITTEN,
  BIGRAM,
  BIGRAM_COST_HUNDREDTHS,
  LATIN_DROPPED,
  LATIN_UNWRITTEN,
  latinPosition,
  Side,
  SUB_HUNDREDTHS,
  UNIT_COUNT,
  unitClass,
  unitName,
  unitSide,
} from './units.js';

/**
 * Tokens scoring at least this are taken for one name. Chosen from the held-out figures in docs/names.md (the
 * threshold at precision 0.98 lies between 0.88 and 0.92 for the script pairings).
 */
export const TOKEN_MATCH_THRESHOLD = 0.9;
/** Score of two different spellings listed under one lexicon entry (Mohammad / محمد / Mhd). */
export const LEXICON_SAME_SCORE = 0.97;
/** Ceiling for two tokens listed under different lexicon entries (Samer / Samir, حسن / حسين). */
export const LEXICON_DIFFERENT_CEILING = 0.55;
/**
 * Two listed names of which one is a pet or short form of the other (حمودة / محمد, Barhoum / إبراهيم: lexicon
 * NICKNAMES): alike, not the same name — linkage's `near` level (0.8–0.9), below its `variant`.
 */
export const NICKNAME_SCORE = 0.8;
/** The same two figures when a side's entry was inferred (an unlisted spelling close to one entry only). */
export const INFERRED_SAME_SCORE = 0.94;
export const INFERRED_DIFFERENT_CEILING = 0.75;
/** An unlisted spelling is read as a listed name when this close to one of its spellings … */
const INFER_MIN = 0.9;
/** … and at least this much closer to it than to any other entry's spelling. */
const INFER_MARGIN = 0.05;
/** Score of two tokens whose spellings differ only in separators, articles or compound linkers. */
export const CANONICAL_SAME_SCORE = 0.99;
interface TokenInit {
  text: string;
  form: string;
  canonical: string;
  script: Script;
  key: string;
  units: Uint8Array;
  delSame: Float64Array;
  delCross: Float64Array;
  sumSame: number;
  sumCross: number;
  coreSame: number;
  coreCross: number;
  side: Side;
  lexicon: Int32Array;
  articleUnits: number;
  inferred: boolean;
  profile: Profile;
}

/**
 * How well an unlisted spelling fits the lexicon's names: the best-fitting entries (at most PROFILE_SIZE, best
 * first) with the best similarity of the spelling to any of the entry's listed spellings, in either script.
 */
export interface Profile {
  entries: Int32Array;
  scores: Float64Array;
  /** The same, from the entry's spellings in the spelling's own script only (0 when it has none). */
  sameScript: Float64Array;
}
const PROFILE_SIZE = 4;
const NO_PROFILE: Profile = {
  entries: new Int32Array(0),
  scores: new Float64Array(0),
  sameScript: new Float64Array(0),
};

// Matching forms and canonical spellings as small integers, so the hot path compares numbers, not strings. The
// table is cleared with the token cache; a new generation never reuses an id, and tokens of different generations
// fall back to comparing the strings.
const interned = new Map<string, number>();
let nextId = 1;
let generation = 0;
function intern(text: string): number {
  if (text === '') return 0;
  let id = interned.get(text);
  if (id === undefined) {
    id = nextId++;
    interned.set(text, id);
  }
  return id;
}

/**
 * The hot-path data of prepared tokens lives in shared chunks (one ArrayBuffer, seen as 32-bit words, 16-bit
 * halves, bytes and 64-bit floats), one 64-byte cache line per token for names of up to ten sound units: on random
 * pairs of thousands of tokens, memory access is what costs, so a comparison reads the two tokens' lines and
 * nothing else. Costs are kept in hundredths (every cost is a multiple of 0.01, so the alignment runs on exact
 * integers and is exactly symmetric).
 *
 * Layout from the token's start (byte offsets): words 0–3 generation, matching-form id, canonical id, first lexicon
 * entry; halves 8–11 the masses (same-side and cross-side sums of deletion costs, then both without a glued
 * article's units); bytes 24–28 unit count, side, glued article's unit count, flags, profile size; from byte 32 the
 * units, their same-side deletion costs and their cross-side deletion costs, one byte each; then, 8-aligned, the
 * profile (see `Profile`): entries as words, scores and same-script scores as floats.
 */
const GEN = 0;
const FORM = 1;
const CANONICAL = 2;
const ENTRY = 3;
const MASS = 8;
const LENGTH = 24;
const SIDE = 25;
const ARTICLE = 26;
const FLAGS = 27;
const PROFILE = 28;
const BODY = 32;
const LISTED = 1;
const INFERRED = 2;
/** Listed under more than one entry ("hassan": حسن and حسان). */
const MANY_ENTRIES = 4;
const CHUNK_BYTES = 1 << 18;

class Chunk {
  readonly words: Int32Array;
  readonly halves: Int16Array;
  readonly bytes: Uint8Array;
  readonly floats: Float64Array;
  used = 0;
  constructor() {
    const buffer = new ArrayBuffer(CHUNK_BYTES);
    this.words = new Int32Array(buffer);
    this.halves = new Int16Array(buffer);
    this.bytes = new Uint8Array(buffer);
    this.floats = new Float64Array(buffer);
  }
}
let chunk = new Chunk();

/** Where a token's profile starts (bytes), after its units and costs. */
function profileStart(at: number, n: number): number {
  return (at + BODY + 3 * n + 7) & ~7;
}

function hundredths(cost: number): number {
  return Math.round(cost * 100);
}

/** Everything a comparison needs about one token, computed once. Treat as immutable. */
export class PreparedToken {
  /** The chunk holding this token's hot-path data, and the byte where it starts. */
  readonly chunk: Chunk;
  readonly at: number;
  /** The token after Unicode hygiene (display form). */
  readonly text: string;
  /** The matching form (`normalize`). */
  readonly form: string;
  /** The canonical spelling (articles and compound linkers removed): what units are read from. */
  readonly canonical: string;
  readonly script: Script;
  /** The cross-script skeleton key (see `tokenKey`). */
  readonly key: string;
  /** Sound units (units.ts). */
  readonly units: Uint8Array;
  /** Per-unit cost of leaving it unmatched against a token of the same side / the other side. */
  readonly delSame: Float64Array;
  readonly delCross: Float64Array;
  readonly sumSame: number;
  readonly sumCross: number;
  /** The same sums without the glued article's units. */
  readonly coreSame: number;
  readonly coreCross: number;
  /** Which side of the unit alphabet dominates (Arabic 0, Latin 1). */
  readonly side: Side;
  /** Lexicon entries this spelling is listed under (usually 0 or 1). */
  readonly lexicon: Int32Array;
  /** Lexicon entries of the names this spelling is a pet or short form of (حمودة: محمد …); usually none. */
  readonly nicknameOf: Int32Array;
  /** How many leading units are a glued article ("al" of "Almasri", "ال" of "المصري"): 0 or 2. */
  readonly articleUnits: number;
  /** Whether `lexicon` was inferred from the nearest listed spelling rather than listed. */
  readonly inferred: boolean;
  /** For an unlisted spelling: the lexicon entries it fits best (see `Profile`). */
  readonly profile: Profile;
  /** Whether the spelling is listed in the lexicon (not inferred). */
  readonly listed: boolean;
  readonly length: number;
  /** The first lexicon entry, or -1. */
  readonly entry: number;

  constructor(init: TokenInit) {
    const n = init.units.length;
    const profileSize = init.profile.entries.length;
    // Each token starts on a cache line. The profile: entries as words, then scores and same-script scores as
    // floats, each run 8 bytes per entry apart.
    const size = profileStart(0, n) + 24 * profileSize;
    if (chunk.used + size + 64 > CHUNK_BYTES) chunk = new Chunk();
    const at = (chunk.used + 63) & ~63;
    chunk.used = at + size;
    this.chunk = chunk;
    this.at = at;
    this.text = init.text;
    this.form = init.form;
    this.canonical = init.canonical;
    this.script = init.script;
    this.key = init.key;
    this.units = init.units;
    this.delSame = init.delSame;
    this.delCross = init.delCross;
    this.sumSame = init.sumSame;
    this.sumCross = init.sumCross;
    this.coreSame = init.coreSame;
    this.coreCross = init.coreCross;
    this.side = init.side;
    this.lexicon = init.lexicon;
    const nicknameOf = nicknameTargets(init.canonical);
    this.nicknameOf = nicknameOf.length === 0 ? NO_ENTRIES : Int32Array.from(nicknameOf);
    this.articleUnits = init.articleUnits;
    this.inferred = init.inferred;
    this.profile = init.profile;
    this.listed = init.lexicon.length > 0 && !init.inferred;
    this.length = n;
    this.entry = init.lexicon.length > 0 ? (init.lexicon[0] as number) : -1;
    const { words, halves, bytes, floats } = this.chunk;
    const word = at >> 2;
    words[word + GEN] = generation;
    words[word + FORM] = intern(init.form);
    words[word + CANONICAL] = intern(init.canonical);
    words[word + ENTRY] = this.entry;
    bytes[at + LENGTH] = n;
    bytes[at + SIDE] = init.side;
    bytes[at + ARTICLE] = init.articleUnits;
    bytes[at + FLAGS] =
      (this.listed ? LISTED : 0) |
      (init.inferred ? INFERRED : 0) |
      (init.lexicon.length > 1 ? MANY_ENTRIES : 0);
    bytes[at + PROFILE] = profileSize;
    const body = at + BODY;
    let sumSame = 0;
    let sumCross = 0;
    let coreSame = 0;
    let coreCross = 0;
    for (let i = 0; i < n; i++) {
      const same = hundredths(init.delSame[i] as number);
      const cross = hundredths(init.delCross[i] as number);
      bytes[body + i] = init.units[i] as number;
      bytes[body + n + i] = same;
      bytes[body + 2 * n + i] = cross;
      sumSame += same;
      sumCross += cross;
      if (i >= init.articleUnits) {
        coreSame += same;
        coreCross += cross;
      }
    }
    halves.set([sumSame, sumCross, coreSame, coreCross], (at >> 1) + MASS);
    const p = profileStart(at, n);
    for (let k = 0; k < profileSize; k++) {
      words[(p >> 2) + k] = init.profile.entries[k] as number;
      floats[(p >> 3) + profileSize + k] = init.profile.scores[k] as number;
      floats[(p >> 3) + 2 * profileSize + k] = init.profile.sameScript[k] as number;
    }
  }
}

export interface PrepareOptions {
  /** Use the curated lexicon (default true). Off only to measure the algorithm alone. */
  lexicon?: boolean;
}

const cache = new Map<string, PreparedToken>();
const CACHE_LIMIT = 200_000;

/**
 * Forgets every prepared token (done by `prepareToken` when the cache is full; exported for tests). Tokens prepared
 * before stay valid: their data stays in their chunks, and they compare with newer ones by their strings.
 */
export function clearPreparedTokens(): void {
  cache.clear();
  interned.clear();
  generation++;
  chunk = new Chunk();
}

/** Prepares one token for `compareTokens`. Never throws; an empty or letterless token gets no units. */
export function prepareToken(token: string, options?: PrepareOptions): PreparedToken {
  const useLexicon = options?.lexicon !== false;
  const cacheKey = useLexicon ? token : `\u0000${token}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  if (cache.size >= CACHE_LIMIT) clearPreparedTokens();
  const prepared = build(typeof token === 'string' ? token : '', useLexicon);
  cache.set(cacheKey, prepared);
  return prepared;
}

function build(raw: string, useLexicon: boolean): PreparedToken {
  // Bound the work on pathological input: no name part is anywhere near this long.
  const text = clean(raw.length > 1000 ? raw.slice(0, 1000) : raw);
  const form = normalize(text);
  const soundForm = form === '' ? '' : normalizeForSounds(text);
  const words = soundForm === '' ? [] : soundForm.split(' ');
  const canonical = soundForm === '' ? '' : canonicalPart(words);
  const token = fromCanonical(text, form, canonical, useLexicon);
  if (!useLexicon || token.listed || token.units.length === 0) return token;
  // An unlisted spelling is read through its fit to the lexicon, in each of its readings (otherReading).
  const other = otherReading(words, canonical);
  const readings = [token];
  if (other !== '') readings.push(fromCanonical(text, form, other, false));
  const { profile, inferred } = lexiconFit(readings);
  if (profile === NO_PROFILE && inferred < 0) return token;
  return fromCanonical(text, form, canonical, false, {
    lexicon: inferred < 0 ? NO_ENTRIES : Int32Array.of(inferred),
    profile,
  });
}

/**
 * A token read from a given canonical spelling: listed entries looked up when `lookup`, otherwise the given fit
 * (inferred entry and profile) or none.
 */
function fromCanonical(
  text: string,
  form: string,
  canonical: string,
  lookup: boolean,
  fit?: { lexicon: Int32Array; profile: Profile },
): PreparedToken {
  const article = gluedArticleLength(canonical);
  const units = Uint8Array.from(soundUnits(canonical, article));
  // The article's units are the first `articleUnits` units (a + l, or ا + ل).
  const articleUnits = article > 0 ? Math.min(2, units.length) : 0;
  const dSame = new Float64Array(units.length);
  const dCross = new Float64Array(units.length);
  let sumSame = 0;
  let sumCross = 0;
  let arabic = 0;
  for (let i = 0; i < units.length; i++) {
    const u = units[i] as number;
    const latin = unitSide[u] === Side.Latin;
    const at = latin ? latinPosition(units, i, articleUnits) * UNIT_COUNT + u : u;
    const s = (latin ? LATIN_DROPPED[at] : ARABIC_DROPPED[at]) as number;
    const c = (latin ? LATIN_UNWRITTEN[at] : ARABIC_UNWRITTEN[at]) as number;
    dSame[i] = s;
    dCross[i] = c;
    sumSame += s;
    sumCross += c;
    if (unitSide[u] === Side.Arabic) arabic++;
  }
  let coreSame = sumSame;
  let coreCross = sumCross;
  for (let i = 0; i < articleUnits; i++) {
    coreSame -= dSame[i] as number;
    coreCross -= dCross[i] as number;
  }
  const side = arabic * 2 >= units.length && arabic > 0 ? Side.Arabic : Side.Latin;
  const lexicon = lookup ? Int32Array.from(lookupLexicon(canonical)) : (fit?.lexicon ?? NO_ENTRIES);
  const inferred = fit !== undefined && fit.lexicon.length > 0;
  const script = detectScript(text);
  return new PreparedToken({
    text,
    form,
    canonical,
    script,
    key: skeletonKey(lexicon, units, articleUnits),
    units,
    delSame: dSame,
    delCross: dCross,
    sumSame,
    sumCross,
    coreSame,
    coreCross,
    side,
    lexicon,
    articleUnits,
    inferred,
    profile: fit?.profile ?? NO_PROFILE,
  });
}

const NO_ENTRIES = new Int32Array(0);
/**
 * Every listed spelling, prepared once, indexed under its keys (its own skeleton and its entry's) and their
 * neighbour keys (each with one class left out), so that an unlisted spelling finds the listed ones within one
 * consonant class of its skeleton.
 */
interface ListedIndex {
  spellings: PreparedToken[];
  /** Each spelling's own keys (inference only reads spellings that share the unlisted one's skeleton exactly). */
  keys: string[][];
  byNeighbour: Map<string, Int32Array>;
  /** Scratch for `lexiconFit`, stamped per call. */
  seen: Uint32Array;
  entrySeen: Uint32Array;
  any: Float64Array;
  same: Float64Array;
  exact: Float64Array;
  touched: Int32Array;
}
let listedIndex: ListedIndex | undefined;
let building = false;
let stamp = 0;

function listed(): ListedIndex | undefined {
  if (listedIndex) return listedIndex;
  // A listed spelling is prepared while the index is built: it must not look itself up in the index.
  if (building) return undefined;
  building = true;
  const spellings: PreparedToken[] = [];
  const keys: string[][] = [];
  const lists = new Map<string, number[]>();
  for (const entry of lexiconEntries()) {
    for (const spelling of [...entry.arabicForms, ...entry.latin]) {
      const t = prepareToken(spelling);
      const own = [...new Set([t.key, skeleton(t.units, t.articleUnits)])];
      const i = spellings.length;
      spellings.push(t);
      keys.push(own);
      for (const key of new Set(own.flatMap(neighbourKeys))) {
        const list = lists.get(key);
        if (list) list.push(i);
        else lists.set(key, [i]);
      }
    }
  }
  const entries = lexiconEntries().length;
  listedIndex = {
    spellings,
    keys,
    byNeighbour: new Map([...lists].map(([k, v]) => [k, Int32Array.from(v)])),
    seen: new Uint32Array(spellings.length),
    entrySeen: new Uint32Array(entries),
    any: new Float64Array(entries),
    same: new Float64Array(entries),
    exact: new Float64Array(entries),
    touched: new Int32Array(entries),
  };
  building = false;
  return listedIndex;
}

/** The key and, for keys of three classes or more, each key with one class left out. */
function neighbourKeys(key: string): string[] {
  const out = [key];
  if (key.length >= 3) for (let i = 0; i < key.length; i++) out.push(key.slice(0, i) + key.slice(i + 1));
  return out;
}

/**
 * How an unlisted spelling fits the lexicon: its profile (the entries it fits best, in any script) and the one
 * entry it is clearly a spelling of, if any (inferred from listed spellings of its own script and skeleton only:
 * across scripts, unrelated names coincide too often — ولاء ~ Oula, سلمان ~ Soliman).
 */
function lexiconFit(readings: readonly PreparedToken[]): { profile: Profile; inferred: number } {
  const ix = listed();
  if (!ix) return { profile: NO_PROFILE, inferred: -1 };
  let touched = 0;
  // Each reading's fits; an entry keeps its best over the readings.
  const entryStamp = ++stamp;
  for (const token of readings) {
    const ownKey = skeleton(token.units, token.articleUnits);
    stamp++;
    for (const key of neighbourKeys(ownKey)) {
      const list = ix.byNeighbour.get(key);
      if (!list) continue;
      for (const i of list) {
        if (ix.seen[i] === stamp) continue;
        ix.seen[i] = stamp;
        const c = ix.spellings[i] as PreparedToken;
        const s = spellingSimilarity(token, c);
        const sameSide = c.side === token.side;
        const exact = sameSide && (ix.keys[i] as string[]).includes(ownKey);
        for (const id of c.lexicon) {
          if (ix.entrySeen[id] !== entryStamp) {
            ix.entrySeen[id] = entryStamp;
            ix.any[id] = 0;
            ix.same[id] = 0;
            ix.exact[id] = 0;
            ix.touched[touched++] = id;
          }
          if (s > (ix.any[id] as number)) ix.any[id] = s;
          if (sameSide && s > (ix.same[id] as number)) ix.same[id] = s;
          if (exact && s > (ix.exact[id] as number)) ix.exact[id] = s;
        }
      }
    }
  }
  if (touched === 0) return { profile: NO_PROFILE, inferred: -1 };
  // The best PROFILE_SIZE entries by fit (ties by entry id, so the profile does not depend on visiting order).
  const top: number[] = [];
  let best = -1;
  let bestScore = 0;
  let runnerUp = 0;
  for (let k = 0; k < touched; k++) {
    const id = ix.touched[k] as number;
    const score = ix.any[id] as number;
    let at = top.length;
    while (at > 0) {
      const prev = top[at - 1] as number;
      const p = ix.any[prev] as number;
      if (p > score || (p === score && prev < id)) break;
      at--;
    }
    if (at < PROFILE_SIZE) {
      top.splice(at, 0, id);
      if (top.length > PROFILE_SIZE) top.pop();
    }
    const e = ix.exact[id] as number;
    if (e > bestScore || (e === bestScore && e > 0 && id < best)) {
      runnerUp = Math.max(runnerUp, bestScore);
      bestScore = e;
      best = id;
    } else if (e > runnerUp) runnerUp = e;
  }
  const inferred = best >= 0 && bestScore >= INFER_MIN && bestScore - runnerUp >= INFER_MARGIN ? best : -1;
  return {
    profile: {
      entries: Int32Array.from(top),
      scores: Float64Array.from(top, (id) => ix.any[id] as number),
      sameScript: Float64Array.from(top, (id) => ix.same[id] as number),
    },
    inferred,
  };
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
const D = new Int32Array(WIDTH * WIDTH);
// Module-local copies: imported bindings can cost a getter call per access, and the alignment reads them per cell.
const sub: Int16Array = SUB_HUNDREDTHS;
const bigrams: Int16Array = BIGRAM;
const bigramCosts: Int16Array = BIGRAM_COST_HUNDREDTHS;
const unitCount: number = UNIT_COUNT;
const arabicSide: number = Side.Arabic;

/**
 * Weighted alignment cost, in hundredths, of token a's units from `offA` against token b's from `offB` (offsets skip
 * a glued article); a and b are positions in the chunks pa and pb. When cross-script, `a` must be the Arabic side.
 */
function alignCost(
  pa: Uint8Array,
  a: number,
  pb: Uint8Array,
  b: number,
  cross: boolean,
  offA: number,
  offB: number,
  swaps = false,
): number {
  const na = pa[a + LENGTH] as number;
  const nb = pb[b + LENGTH] as number;
  const ua = a + BODY + offA;
  const ub = b + BODY + offB;
  const n = na - offA;
  const m = nb - offB;
  // Deletion costs sit after the units: same side at +length, cross side at +2·length.
  const da = ua + (cross ? 2 * na : na);
  const db = ub + (cross ? 2 * nb : nb);
  const d = D;
  const w = m + 1;
  d[0] = 0;
  for (let j = 1; j <= m; j++) d[j] = ((d[j - 1] as number) + (pb[db + j - 1] as number)) | 0;
  for (let i = 1; i <= n; i++) {
    const row = i * w;
    const prev = row - w;
    const u = pa[ua + i - 1] as number;
    const subRow = u * unitCount;
    const del = pa[da + i - 1] as number;
    let left = ((d[prev] as number) + del) | 0;
    d[row] = left;
    const bigramRow = cross && i >= 2 ? (bigrams[(pa[ua + i - 2] as number) * unitCount + u] as number) : -1;
    let diag = d[prev] as number;
    if (bigramRow < 0) {
      for (let j = 1; j <= m; j++) {
        const above = d[prev + j] as number;
        let best = (diag + (sub[subRow + (pb[ub + j - 1] as number)] as number)) | 0;
        // Branch-free minimum (t & t >> 31 is t when negative, else 0): which step wins is unpredictable, and
        // mispredicted branches cost more than the arithmetic.
        let t = (above + del - best) | 0;
        best = (best + (t & (t >> 31))) | 0;
        t = (left + (pb[db + j - 1] as number) - best) | 0;
        best = (best + (t & (t >> 31))) | 0;
        d[row + j] = best;
        left = best;
        diag = above;
      }
      if (swaps && i >= 2)
        swapRow(d, row, w, m, pa[ua + i - 2] as number, u, pb, ub, db, del, pa[da + i - 2] as number);
      continue;
    }
    const bigramBase = bigramRow * unitCount;
    const bigramPrev = prev - w;
    for (let j = 1; j <= m; j++) {
      const v = pb[ub + j - 1] as number;
      const above = d[prev + j] as number;
      let best = (diag + (sub[subRow + v] as number)) | 0;
      let t = (above + del - best) | 0;
      best = (best + (t & (t >> 31))) | 0;
      t = (left + (pb[db + j - 1] as number) - best) | 0;
      best = (best + (t & (t >> 31))) | 0;
      t = ((d[bigramPrev + j - 1] as number) + (bigramCosts[bigramBase + v] as number) - best) | 0;
      best = (best + (t & (t >> 31))) | 0;
      d[row + j] = best;
      left = best;
      diag = above;
    }
  }
  return d[n * w + m] as number;
}

/**
 * Two neighbouring units the other way round (a typing slip: عندان for عدنان) as one step, costing the dearer of the
 * two units left unmatched instead of two substitutions: lowers the row's cells where b has a's last two units
 * swapped, then carries the lowered cells along the row as the alignment's insertions would. Run after the row's
 * own pass, and only when `spelling` asks for swaps: the alignment's own loop is unchanged.
 */
function swapRow(
  d: Int32Array,
  row: number,
  w: number,
  m: number,
  before: number,
  u: number,
  pb: Uint8Array,
  ub: number,
  db: number,
  del: number,
  delBefore: number,
): void {
  if (before === u) return;
  const cost = Math.max(del, delBefore);
  const twoUp = row - 2 * w;
  let lowered = false;
  for (let j = 2; j <= m; j++) {
    if (pb[ub + j - 1] !== before || pb[ub + j - 2] !== u) continue;
    const c = (d[twoUp + j - 2] as number) + cost;
    if (c < (d[row + j] as number)) {
      d[row + j] = c;
      lowered = true;
    }
  }
  if (!lowered) return;
  for (let j = 1; j <= m; j++) {
    const c = (d[row + j - 1] as number) + (pb[db + j - 1] as number);
    if (c < (d[row + j] as number)) d[row + j] = c;
  }
}

function similarityOf(cost: number, massA: number, massB: number): number {
  const mass = Math.max(massA, massB);
  if (mass <= 0) return cost <= 0 ? 1 : 0;
  return cost >= mass ? 0 : 1 - cost / mass;
}

/** spellingSimilarity on chunk positions. */
function spelling(ca: Chunk, a: number, cb: Chunk, b: number): number {
  const ba = ca.bytes;
  const bb = cb.bytes;
  if (ba[a + LENGTH] === 0 || bb[b + LENGTH] === 0) return 0;
  const cross = ba[a + SIDE] !== bb[b + SIDE];
  // Cross-script: the Arabic side first (the two-letter transitions read it).
  if (cross && ba[a + SIDE] !== arabicSide) return spelling(cb, b, ca, a);
  const k = cross ? MASS + 1 : MASS;
  const ha = ca.halves;
  const hb = cb.halves;
  const ka = (a >> 1) + k;
  const kb = (b >> 1) + k;
  let whole = similarityOf(alignCost(ba, a, bb, b, cross, 0, 0), ha[ka] as number, hb[kb] as number);
  // A typing slip that swapped two letters, within one script: aligned again with swaps only when the pair has two
  // letters the other way round and is neither alike already nor hopeless.
  const swapped = !cross && whole >= SWAP_FROM && whole < SWAP_BELOW && reversedPair(ba, a, bb, b);
  if (swapped)
    whole = Math.max(
      whole,
      similarityOf(alignCost(ba, a, bb, b, false, 0, 0, true), ha[ka] as number, hb[kb] as number),
    );
  const artA = ba[a + ARTICLE] as number;
  const artB = bb[b + ARTICLE] as number;
  // An Arabic name beginning with عل (علواني, علوان) against a Latin spelling without an article: a Latin list's al
  // read as the article leaves Alwani as wani (linkage's partForm), so the Arabic is weighed without its ع and ل too.
  if (cross && artA === 0 && artB === 0 && startsWithAinLam(ba, a))
    whole = Math.max(whole, withoutAinLam(ba, a, bb, b, ha[ka] as number, hb[kb] as number));
  if (artA === 0 && artB === 0) return whole;
  if (ba[a + LENGTH] === artA || bb[b + LENGTH] === artB) return whole;
  const core = similarityOf(
    alignCost(ba, a, bb, b, cross, artA, artB, swapped),
    ha[ka + 2] as number,
    hb[kb + 2] as number,
  );
  return Math.max(core, whole);
}

/** Whether the Arabic token at a begins with ع then ل and has three units or more after them. */
function startsWithAinLam(pa: Uint8Array, a: number): boolean {
  return (pa[a + LENGTH] as number) >= 5 && pa[a + BODY] === AR.ain && pa[a + BODY + 1] === AR.l;
}

/** Similarity of the Arabic token at a without its first two units (ع ل) and the Latin token at b, whole. */
function withoutAinLam(
  pa: Uint8Array,
  a: number,
  pb: Uint8Array,
  b: number,
  massA: number,
  massB: number,
): number {
  const n = pa[a + LENGTH] as number;
  // The cross-script deletion costs of the two units left out, in hundredths (see the chunk's layout).
  const dropped = (pa[a + BODY + 2 * n] as number) + (pa[a + BODY + 2 * n + 1] as number);
  return similarityOf(alignCost(pa, a, pb, b, true, 2, 0), massA - dropped, massB);
}

/** Scores between which a same-script pair is aligned again with swaps (below, one swap cannot reach a match). */
const SWAP_FROM = 0.3;
const SWAP_BELOW = 0.9;

/** Whether token b (at b in pb) has two neighbouring units of token a (at a in pa) the other way round. */
function reversedPair(pa: Uint8Array, a: number, pb: Uint8Array, b: number): boolean {
  const ua = a + BODY;
  const n = pa[a + LENGTH] as number;
  const ub = b + BODY;
  const m = pb[b + LENGTH] as number;
  for (let i = 1; i < n; i++) {
    const x = pa[ua + i - 1] as number;
    const y = pa[ua + i] as number;
    if (x === y) continue;
    for (let j = 1; j < m; j++) if (pb[ub + j - 1] === y && pb[ub + j] === x) return true;
  }
  return false;
}

/**
 * Similarity of two tokens' spellings alone (no lexicon), in [0, 1]. A glued article is either matched in full or
 * left out on both sides ("Almasri" / المصري, "Masri" / المصري), never half-used.
 */
export function spellingSimilarity(a: PreparedToken, b: PreparedToken): number {
  return spelling(a.chunk, a.at, b.chunk, b.at);
}

/**
 * The hot path: similarity of two prepared tokens in [0, 1]. 1 for identical matching forms; CANONICAL_SAME_SCORE
 * when only separators, articles or compound linkers differ; LEXICON_SAME_SCORE for two spellings of one lexicon
 * entry; the spelling similarity capped at LEXICON_DIFFERENT_CEILING for two different lexicon entries; for a
 * listed spelling against an unlisted one, the spelling similarity weighed by how the unlisted one fits the
 * lexicon (`againstListed`); otherwise the spelling similarity. Symmetric; allocates nothing.
 */
export function compareTokens(a: PreparedToken, b: PreparedToken): number {
  const ca = a.chunk;
  const cb = b.chunk;
  const x = a.at;
  const y = b.at;
  const wa = ca.words;
  const wb = cb.words;
  const ba = ca.bytes;
  const bb = cb.bytes;
  const xw = x >> 2;
  const yw = y >> 2;
  if (wa[xw + GEN] === wb[yw + GEN]) {
    const form = wa[xw + FORM] as number;
    if (form === wb[yw + FORM]) return form === 0 ? 0 : 1;
    if (ba[x + LENGTH] === 0 || bb[y + LENGTH] === 0) return 0;
    if (wa[xw + CANONICAL] === wb[yw + CANONICAL]) return CANONICAL_SAME_SCORE;
  } else {
    // Tokens prepared on either side of a cache reset: their ids are not comparable.
    if (a.form === b.form) return a.form === '' ? 0 : 1;
    if (a.length === 0 || b.length === 0) return 0;
    if (a.canonical === b.canonical) return CANONICAL_SAME_SCORE;
  }
  if ((a.nicknameOf.length | b.nicknameOf.length) !== 0 && nicknameOfOther(a, b)) return NICKNAME_SCORE;
  const fa = ba[x + FLAGS] as number;
  const fb = bb[y + FLAGS] as number;
  if ((fa & fb & LISTED) !== 0) {
    if (wa[xw + ENTRY] === wb[yw + ENTRY] || ((fa | fb) & MANY_ENTRIES && sharesEntry(a.lexicon, b.lexicon)))
      return LEXICON_SAME_SCORE;
    const s = spelling(ca, x, cb, y);
    return Math.min(s, LEXICON_DIFFERENT_CEILING);
  }
  if ((fa & LISTED) !== 0) return againstListed(a, ca, x, cb, y);
  if ((fb & LISTED) !== 0) return againstListed(b, cb, y, ca, x);
  if ((fa & fb & INFERRED) !== 0) {
    if (wa[xw + ENTRY] === wb[yw + ENTRY]) return INFERRED_SAME_SCORE;
    const s = spelling(ca, x, cb, y);
    return Math.min(s, INFERRED_DIFFERENT_CEILING);
  }
  return spelling(ca, x, cb, y);
}

/** Whether one token is a pet or short form of a name the other is listed under (حمودة / محمد, Mohammad). */
function nicknameOfOther(a: PreparedToken, b: PreparedToken): boolean {
  return (
    a.nicknameOf.some((id) => b.lexicon.includes(id)) || b.nicknameOf.some((id) => a.lexicon.includes(id))
  );
}

/** How much better one name must fit an unlisted spelling than another to tell them apart. */
const PROFILE_MARGIN = 0.05;
/**
 * The same, when the fits are to spellings in the unlisted spelling's own script: there the vowels are visible, so a
 * smaller difference already tells two names apart (chosen on the held-out tune half: 0.02–0.03 score alike).
 */
const SAME_SCRIPT_MARGIN = 0.03;
/** Ceiling for a listed spelling against an unlisted one that fits another listed name about as well. */
const AMBIGUOUS_CEILING = 0.89;

/**
 * A listed spelling (x, the token `listed`) against an unlisted one (y): the spelling similarity, weighed by how
 * the unlisted spelling fits the lexicon (by its own-script spellings when this name has any within reach). When it
 * fits another listed name clearly better, it is that name; when about as well, the two are not told apart; when it
 * fits this name best, its best fit to this name's same-script spellings counts (Jusuf / Yousef via يوسف).
 */
function againstListed(listed: PreparedToken, cx: Chunk, x: number, cy: Chunk, y: number): number {
  const s = spelling(cx, x, cy, y);
  const fit = lastFit;
  fit.spelling = s;
  fit.other = 0;
  fit.otherEntry = -1;
  fit.mineSameScript = 0;
  fit.mineAny = 0;
  const size = cy.bytes[y + PROFILE] as number;
  if (size === 0) {
    fit.kind = FIT_NONE;
    return s;
  }
  const entry = cx.words[(x >> 2) + ENTRY] as number;
  const many = ((cx.bytes[x + FLAGS] as number) & MANY_ENTRIES) !== 0;
  const p = profileStart(y, cy.bytes[y + LENGTH] as number);
  const words = cy.words;
  const floats = cy.floats;
  let mine = s;
  // The best fit to another name, in any script and in the spelling's own script.
  let otherSame = 0;
  let otherSameEntry = -1;
  for (let k = 0; k < size; k++) {
    const id = words[(p >> 2) + k] as number;
    const score = floats[(p >> 3) + size + k] as number;
    if (id === entry || (many && listed.lexicon.includes(id))) {
      if (score > mine) mine = score;
      const same = floats[(p >> 3) + 2 * size + k] as number;
      if (same > fit.mineSameScript) fit.mineSameScript = same;
    } else {
      if (score > fit.other) {
        fit.other = score;
        fit.otherEntry = id;
      }
      const same = floats[(p >> 3) + 2 * size + k] as number;
      if (same > otherSame) {
        otherSame = same;
        otherSameEntry = id;
      }
    }
  }
  // Which name the spelling is, is read from its fit to this name's and the others' spellings in its own script
  // when this name has any within reach: Arabic leaves short vowels unwritten, so across scripts two names that
  // differ by a long vowel fit alike (Saamer: سامر and سمير), while the Latin spellings tell them apart (Samer,
  // Samir). Otherwise from the fit in any script.
  fit.mineAny = mine;
  if (fit.mineSameScript > 0) {
    fit.mine = fit.mineSameScript;
    fit.other = otherSame;
    fit.otherEntry = otherSameEntry;
  } else fit.mine = mine;
  const M = fit.mineSameScript > 0 ? SAME_SCRIPT_MARGIN : PROFILE_MARGIN;
  if (fit.other >= fit.mine + M) {
    fit.kind = FIT_OTHER;
    return Math.min(s, INFERRED_DIFFERENT_CEILING);
  }
  if (fit.other > fit.mine - M) {
    fit.kind = FIT_AMBIGUOUS;
    return Math.min(s, AMBIGUOUS_CEILING);
  }
  fit.kind = FIT_MINE;
  if (fit.mineSameScript === 0) return s;
  // Across scripts, an Arabic spelling is raised only by an Arabic fit that is itself a match. Arabic writes long
  // vowels and spells a name one way (hamza and a few old spellings aside), so a fit below a match is mostly
  // another name: سليمان fits the listed سلمان at 0.898 by one ي, and should not meet Salman above the alignment's
  // own 0.85. Latin spellings of one name differ more; there, fits below a match still tell which name it is. Within
  // Arabic the fit stays (it is on the same scale as the score, and reads typing slips).
  if (
    fit.mineSameScript < TOKEN_MATCH_THRESHOLD &&
    (cy.bytes[y + SIDE] as number) === Side.Arabic &&
    (cx.bytes[x + SIDE] as number) !== Side.Arabic
  ) {
    fit.kind = FIT_MINE_NOT_RAISED;
    return s;
  }
  // Its fit to this name's spellings in its own script raises the score. So does its fit in any script (a Latin
  // spelling against the name's Arabic form), but only to a bare match, and only now that its own-script fits have
  // told which name it is: across scripts alone unrelated names coincide too often (ولاء ~ Oula ~ علا), while
  // Iesa, whose Latin fits read it as عيسى but at 0.88 (Issa, Eisa), fits عيسى itself almost letter for letter.
  return Math.max(
    s,
    Math.min(fit.mineSameScript, INFERRED_SAME_SCORE),
    Math.min(fit.mineAny, TOKEN_MATCH_THRESHOLD),
  );
}

const FIT_NONE = 0;
const FIT_OTHER = 1;
const FIT_AMBIGUOUS = 2;
const FIT_MINE = 3;
/** FIT_MINE, but an Arabic spelling whose Arabic fit is not a match, against a Latin one: not raised. */
const FIT_MINE_NOT_RAISED = 4;
/** What the last `againstListed` decided, for `explainTokens` (one object, reused: the hot path allocates nothing). */
const lastFit = {
  kind: FIT_NONE,
  spelling: 0,
  mine: 0,
  mineAny: 0,
  mineSameScript: 0,
  other: 0,
  otherEntry: -1,
};

function sharesEntry(la: Int32Array, lb: Int32Array): boolean {
  if (la.length === 1 && lb.length === 1) return false;
  for (let i = 0; i < la.length; i++) {
    for (let j = 0; j < lb.length; j++) if (la[i] === lb[j]) return true;
  }
  return false;
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
  const spelling = spellingSimilarity(a, b);
  const name = (id: number) => lexiconEntry(id)?.arabic ?? '?';
  const similar = `spelling similarity ${spelling.toFixed(3)}`;
  if (a.listed && b.listed) {
    const shared = [...a.lexicon].find((id) => b.lexicon.includes(id));
    return shared !== undefined
      ? { ...base, reason: 'same-lexicon-entry', detail: `both are spellings of ${name(shared)} (lexicon)` }
      : {
          ...base,
          reason: 'different-lexicon-entries',
          detail: `different names ${name(a.entry)} / ${name(b.entry)} (lexicon); ${similar}`,
        };
  }
  if (a.listed || b.listed) {
    const [listed, unlisted] = a.listed ? [a, b] : [b, a];
    // compareTokens above ran againstListed for this pair: lastFit holds its reading.
    const fit = lastFit;
    const mine = name(listed.entry);
    if (fit.kind === FIT_OTHER)
      return {
        ...base,
        reason: 'different-lexicon-entries',
        detail: `${unlisted.text} reads as ${name(fit.otherEntry)} (fit ${fit.other.toFixed(3)}) rather than ${mine} (${fit.mine.toFixed(3)}); ${similar}`,
      };
    if (fit.kind === FIT_AMBIGUOUS)
      return {
        ...base,
        reason: 'spelling',
        detail: `${unlisted.text} fits ${mine} and ${name(fit.otherEntry)} about as well (${fit.mine.toFixed(3)} / ${fit.other.toFixed(3)}): held below a match; ${similar}`,
      };
    if (fit.kind === FIT_MINE && score > spelling)
      return {
        ...base,
        reason: 'same-lexicon-entry',
        detail: `${unlisted.text} is closest to the listed spellings of ${mine} (${fit.mineSameScript.toFixed(3)}${
          // Raised past its own-script fit: by its fit in any script, to a bare match.
          score > Math.min(fit.mineSameScript, INFERRED_SAME_SCORE)
            ? ` in its script, ${fit.mineAny.toFixed(3)} in any): a bare match`
            : ')'
        }; ${similar}`,
      };
    if (fit.kind === FIT_MINE_NOT_RAISED)
      return {
        ...base,
        reason: 'spelling',
        detail: `${unlisted.text} is closest to the listed Arabic spellings of ${mine}, but not a match with them (${fit.mineSameScript.toFixed(3)}): not raised; ${similar}`,
      };
    return { ...base, reason: 'spelling', detail: similar };
  }
  if (a.entry >= 0 && b.entry >= 0) {
    return a.entry === b.entry
      ? {
          ...base,
          reason: 'same-lexicon-entry',
          detail: `both read as spellings of ${name(a.entry)} (nearest listed spellings)`,
        }
      : {
          ...base,
          reason: 'different-lexicon-entries',
          detail: `read as different names ${name(a.entry)} / ${name(b.entry)} (nearest listed spellings); ${similar}`,
        };
  }
  return { ...base, reason: 'spelling', detail: similar };
}

function unitsText(t: PreparedToken): string {
  return [...t.units].map((u) => unitName[u]).join(' ');
}
