/**
 * World C, "commission merge": a national commission in 2025 merging everything it was given about the detained
 * and disappeared. Written from its own assumptions (name material in commission-data.ts, its own RNG: xoshiro128**
 * seeded through splitmix32), not from athar synth or worlds A and B. Every record is SYNTHETIC (`notes`).
 *
 * People come in families: a grandfather's sons are fathers of households; brothers share father, grandfather,
 * family name and mother; a first son is often named after his grandfather, so cousins share first name,
 * grandfather and family name; a household is often taken in one raid to one branch (consecutive detainee
 * numbers), sometimes with the father; twins share a birth date; clans cluster in a home town, so namesakes live in
 * the same town. Each person has a first name, father, grandfather, family name, mother (first name; her own
 * family name besides), sex, birth date (a registered 1 January for some), town and governorate, arrest date and
 * arresting branch, the number that branch gave; some were moved to Saydnaya or Adra (or from a provincial branch
 * to a Damascus one) under a new number; some died, at the branch or after the move.
 *
 * Sources, each with its own coverage and habits (shares in the code):
 * 1. family reports (Arabic; 3–4-part names in columns or one field; the mother; a kunya for the first name, a
 *    nickname; a married woman under her husband's family name; birth year, sometimes off by one; a town or a
 *    governorate, or the town in the governorate column, Rif Dimashq written as Damascus; arrest dates as remembered:
 *    weeks off, only month or year, a year off, day and month swapped; the service but not the branch, or the prison
 *    instead of the branch; phone typing: Persian ی ک, tatweel, hamza dropped, ة/ه, ى/ي, a letter dropped, doubled
 *    or swapped, عبد ال… joined or apart; Arabic-Indic digits). Families sometimes report twice.
 * 2. branch and prison registers (one source per register that reached the commission; Arabic; the full chain,
 *    some registers family-first in one field; exact arrest date, the register's branch, its number; a prison gives
 *    its own number and often no arrest date; clerks drop hamzas); a few people registered twice.
 * 3. a forensic list in the Caesar style (deaths at Damascus places): a short name or none at all, the place's code
 *    (a number, or only "الجوية" for any Air Force branch), the number at that place, a report number, the death
 *    date (sometimes the date of the photograph, days later); some bodies listed twice.
 * 4. three Latin-script lists: an English-language NGO (columns or one field, bin/ibn chains, family-first in
 *    capitals, Al-/al-/Al /glued/dropped), a French league (NOM Prénom, ou, ch, dj, El-, Abdel-, day-first dates,
 *    some day–month swapped) and UN submissions in Levantine passport spellings (eh, ou, e for i, Abdul glued).
 *    Usually first + family, sometimes the father; a town or governorate; arrest dates weeks off or to the month.
 * 5. the civil registry's death entries (full name, mother with her family, birth date, place of registration,
 *    a death date that is often not the true one) and death notices (a title before the name, a town).
 *
 * `carries` (what the ceiling counts): an attribute is carried when its true value can be read from the record,
 * whatever the spelling: transliterations, typing slips, Persian letters, a joined compound, a nickname Syrians
 * read as the name (حمودة = محمد), the family name without its article — all carried. Not carried: a kunya in
 * place of the first name, a husband's family name, a birth year off by one, a date with day and month swapped,
 * arrest or death dates that are not exact (weeks off, month or year only, a year off, a photograph's date, the
 * registry's assigned date), the service instead of the branch (every service has several), a prison or a later
 * branch and its number in place of the arresting branch and its number, a misread detainee number. A town
 * carries the town and the governorate (every town lies in one governorate), wherever it is written; a governorate
 * written wrongly without a town carries nothing. The mother is carried by her first name (her family name is
 * extra). Sex is carried only by a sex column.
 */
import type { PersonRecordFields } from '../../src/domain/person-record.js';
import {
  agencyNames,
  conventionalKunya,
  familyPool,
  femaleNames,
  governorates,
  maleNames,
  type NameEntry,
  nicknames,
  type Place,
  places,
  type Town,
  townList,
} from './commission-data.js';
import {
  arabicDigits,
  bit,
  dayOf,
  type IdentityAttribute,
  isoDay,
  shuffled,
  type World,
  type WorldRecord,
  worldLabel,
} from './world.js';

// ——— randomness: xoshiro128** seeded by splitmix32 ———

class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number) {
    let x = (Math.imul(seed | 0, 0x9e3779b1) ^ 0x1b873593) >>> 0;
    const mix = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) | 0;
    };
    this.s0 = mix();
    this.s1 = mix();
    this.s2 = mix();
    this.s3 = mix();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  u32(): number {
    const m = Math.imul(this.s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  next = (): number => this.u32() / 4294967296;
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  /** One of the options by weight. */
  choose<T>(options: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const o of options) total += o[1];
    let x = this.next() * total;
    for (const o of options) {
      x -= o[1];
      if (x < 0) return o[0];
    }
    return (options[options.length - 1] as readonly [T, number])[0];
  }
}

/** Draws an index by weight (cumulative table, binary search). */
class Weighted<T> {
  private readonly cdf: Float64Array;
  constructor(
    readonly items: readonly T[],
    weight: (item: T, rank: number) => number,
  ) {
    this.cdf = new Float64Array(items.length);
    let sum = 0;
    items.forEach((item, k) => {
      sum += weight(item, k);
      this.cdf[k] = sum;
    });
  }
  draw(r: Rng): T {
    const x = r.next() * (this.cdf[this.cdf.length - 1] as number);
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cdf[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }
}

// ——— name pools (built once) ———

const males = new Weighted(maleNames, (_, k) => 1 / (k + 1.5) ** 1.05);
const females = new Weighted(femaleNames, (_, k) => 1 / (k + 1.5) ** 1.0);
let familiesCache: Weighted<NameEntry> | undefined;
function families(): Weighted<NameEntry> {
  familiesCache ??= new Weighted(familyPool(40_000), (_, k) => 1 / (k + 8) ** 0.9);
  return familiesCache;
}
const townsW = new Weighted(townList, (t) => t.weight);
const byArabic = new Map<string, NameEntry>([...maleNames, ...femaleNames].map((n) => [n.ar, n]));
const arrestingPlaces = places.filter((p) => p.agency !== 'prison');
const placeById = new Map(places.map((p) => [p.id, p]));
const branchesFor = new Map<string, Weighted<Place>>();
function branchFor(gov: string): Weighted<Place> {
  let w = branchesFor.get(gov);
  if (!w) {
    const capital = gov === 'دمشق' || gov === 'ريف دمشق';
    w = new Weighted(arrestingPlaces, (p) => {
      if (p.gov === gov) return p.weight * 4;
      if (p.gov === 'دمشق' || (capital && p.gov === 'ريف دمشق')) return p.weight * (capital ? 3 : 0.5);
      return 0;
    });
    branchesFor.set(gov, w);
  }
  return w;
}

// ——— dates ———

const pad = (n: number) => String(n).padStart(2, '0');
type DateForm = 'iso' | 'dmy' | 'ym' | 'y';

function ymd(day: number): [number, number, number] {
  const d = new Date(day * 86_400_000);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
}

function writeDate(day: number, form: DateForm): string {
  const [y, m, d] = ymd(day);
  if (form === 'iso') return `${y}-${pad(m)}-${pad(d)}`;
  if (form === 'dmy') return `${pad(d)}/${pad(m)}/${y}`;
  if (form === 'ym') return `${y}-${pad(m)}`;
  return String(y);
}

/** The date with day and month exchanged, when that still reads as a date and a different one. */
function swappedDate(day: number, form: 'iso' | 'dmy'): string | undefined {
  const [y, m, d] = ymd(day);
  if (d > 12 || d === m) return undefined;
  return form === 'iso' ? `${y}-${pad(d)}-${pad(m)}` : `${pad(m)}/${pad(d)}/${y}`;
}

/** Shares of how a date is remembered: exact, weeks off, month only, year only, a year off, day–month swapped. */
type Memory = readonly [number, number, number, number, number, number];

function remember(
  day: number,
  form: 'iso' | 'dmy',
  memory: Memory,
  r: Rng,
): { text?: string; exact: boolean } {
  const u = r.next();
  let k = 0;
  let edge = memory[0];
  while (k < memory.length - 1 && u >= edge) edge += memory[++k] as number;
  if (u >= edge) return { exact: false };
  switch (k) {
    case 0:
      return { text: writeDate(day, form), exact: true };
    case 1:
      return { text: writeDate(day + r.range(7, 60) * (r.chance(0.5) ? 1 : -1), form), exact: false };
    case 2:
      return { text: writeDate(day + r.range(-20, 20), 'ym'), exact: false };
    case 3:
      return { text: writeDate(day + r.range(-40, 40), 'y'), exact: false };
    case 4:
      return { text: writeDate(day + (r.chance(0.5) ? 365 : -365) + r.range(-3, 3), form), exact: false };
    default: {
      const s = swappedDate(day, form);
      return s ? { text: s, exact: false } : { text: writeDate(day, form), exact: true };
    }
  }
}

// ——— Arabic habits ———

interface ArabicHabit {
  persian: boolean;
  noHamza: boolean;
  taH: boolean;
  /** 0: as written; 1: final ى typed ي; 2: final ي typed ى. */
  ya: 0 | 1 | 2;
  joined: boolean;
  tatweel: number;
  typo: number;
}

interface ArabicShares {
  persian: number;
  noHamza: number;
  taH: number;
  ya: number;
  joined: number;
  tatweel: number;
  typo: number;
}

function arabicHabit(s: ArabicShares, r: Rng): ArabicHabit {
  return {
    persian: r.chance(s.persian),
    noHamza: r.chance(s.noHamza),
    taH: r.chance(s.taH),
    ya: r.chance(s.ya) ? (r.chance(0.75) ? 1 : 2) : 0,
    joined: r.chance(s.joined),
    tatweel: s.tatweel,
    typo: s.typo,
  };
}

const nonJoining = new Set('اأإآدذرزوؤةىء ');
const isArabicLetter = (c: string | undefined) => c !== undefined && c >= '\u0621' && c <= '\u064a';

function slip(t: string, r: Rng): string {
  const positions: number[] = [];
  for (let k = 1; k < t.length; k++) if (isArabicLetter(t[k]) && t.length > 3) positions.push(k);
  if (positions.length === 0) return t;
  const p = r.pick(positions);
  const u = r.next();
  if (u < 0.5) return t.slice(0, p) + t.slice(p + 1);
  if (u < 0.8) return t.slice(0, p + 1) + t.slice(p);
  if (isArabicLetter(t[p + 1])) return t.slice(0, p) + t[p + 1] + t[p] + t.slice(p + 2);
  return t.slice(0, p) + t.slice(p + 1);
}

function stretch(t: string, r: Rng): string {
  const positions: number[] = [];
  for (let k = 0; k < t.length - 1; k++)
    if (isArabicLetter(t[k]) && !nonJoining.has(t[k] as string) && isArabicLetter(t[k + 1]))
      positions.push(k);
  if (positions.length === 0) return t;
  const p = r.pick(positions);
  return `${t.slice(0, p + 1)}ـ${t.slice(p + 1)}`;
}

/** A name or place as this writer types it. `given`: a given name (compounds may be joined). */
function typed(text: string, h: ArabicHabit, r: Rng, given = false): string {
  let t = text;
  if (given && h.joined) t = t.replace(/^(عبد|نور|عز|صلاح|محي) ال/, '$1ال');
  if (h.noHamza) t = t.replace(/[أإآ]/g, 'ا');
  if (h.taH) t = t.replace(/ة(?= |$)/g, 'ه');
  if (h.ya === 1) t = t.replace(/ى(?= |$)/g, 'ي');
  else if (h.ya === 2) t = t.replace(/ي(?= |$)/g, 'ى');
  if (h.typo > 0 && r.chance(h.typo)) t = slip(t, r);
  if (h.tatweel > 0 && r.chance(h.tatweel)) t = stretch(t, r);
  if (h.persian) t = t.replace(/[يى]/g, 'ی').replace(/ك/g, 'ک');
  return t;
}

// ——— Latin habits: a key romanised letter by letter ———

type Lang = 'en' | 'fr' | 'lev';

interface LatinHabit {
  lang: Lang;
  cons: Record<string, string>;
  u: string;
  U: string;
  I: string;
  nisba: string;
  ta: string;
  iE: boolean;
  gem: boolean;
  sDouble: boolean;
  aw: string;
  ay: string;
  wVowel: string;
  ayn: string;
  hamza: string;
  art: string;
  abd: string;
  din: string;
  upperFamily: boolean;
  irregular: number;
}

type Spelling =
  | 'u'
  | 'U'
  | 'I'
  | 'nisba'
  | 'ta'
  | 'aw'
  | 'ay'
  | 'wVowel'
  | 'ayn'
  | 'hamza'
  | 'art'
  | 'abd'
  | 'din';

/**
 * The habits of the three Latin lists: for each letter of the key, and each choice, the spellings with their
 * weights ("th:8|s:2": th four times in five). A record draws each once, so it is spelt consistently. `odds`:
 * chances of Khaled-for-Khalid, a doubled consonant kept, s doubled between vowels (Hassan, Moussa), the family
 * name in capitals, an irregular spelling (Mohammed, Hussein) where the name has some.
 */
const latinShares: Readonly<
  Record<
    Lang,
    {
      cons: Readonly<Record<string, string>>;
      spell: Readonly<Record<Spelling, string>>;
      odds: { iE: number; gem: number; sDouble: number; upperFamily: number; irregular: number };
    }
  >
> = {
  en: {
    cons: {
      x: 'kh',
      c: 'sh',
      C: 'th:8|s:2',
      V: 'dh:6|z:3|th:1',
      D: 'd:9|dh:1',
      Z: 'z:7|dh:3',
      q: 'q:7|k:3',
      j: 'j:97|g:3',
    },
    spell: {
      u: 'u:55|o:45',
      U: 'u:65|oo:15|ou:20',
      I: 'i:85|ee:15',
      nisba: 'i:80|y:15|ee:5',
      ta: 'a:50|ah:35|eh:15',
      aw: 'aw:70|o:15|ou:15',
      ay: 'ay:50|ai:30|ei:20',
      wVowel: 'w',
      ayn: "':25|:75",
      hamza: "':40|:60",
      art: 'Al-:40|al-:15|Al :12|Al:10|El-:5|:13|assim:5',
      abd: 'Abd Al-:20|Abd al-:10|Abdul :20|Abdul:20|Abdel :8|Abdel:5|Abd El-:5|Abd :2|Abdal:10',
      din: 'spaced:50|uddin:20|eddin:30',
    },
    odds: { iE: 0.3, gem: 0.8, sDouble: 0.4, upperFamily: 0.1, irregular: 0.35 },
  },
  fr: {
    cons: {
      x: 'kh:9|ch:1',
      c: 'ch',
      C: 'th:5|s:3|t:2',
      V: 'dh:3|z:5|d:2',
      D: 'd:9|dh:1',
      Z: 'z',
      q: 'k:6|q:4',
      j: 'dj:5|j:5',
    },
    spell: {
      u: 'ou:8|o:2',
      U: 'ou:95|u:5',
      I: 'i',
      nisba: 'i:85|y:15',
      ta: 'a:40|é:25|eh:20|e:15',
      aw: 'aw:30|ou:40|au:30',
      ay: 'ay:20|ai:50|ei:30',
      wVowel: 'ou:1|w:1',
      ayn: "':10|:90",
      hamza: "':30|:70",
      art: 'El-:35|Al-:25|El :10|Al :5|:10|assim:15',
      abd: 'Abdel :30|Abdel:25|assim:25|Abd El-:10|Abd Al-:10',
      din: 'eddine:70|spaced:30',
    },
    odds: { iE: 0.6, gem: 0.75, sDouble: 0.95, upperFamily: 0.65, irregular: 0.3 },
  },
  lev: {
    cons: {
      x: 'kh',
      c: 'sh',
      C: 'th:6|s:4',
      V: 'z:6|th:2|dh:2',
      D: 'd:9|dh:1',
      Z: 'z',
      q: 'q:5|k:5',
      j: 'j:97|g:3',
    },
    spell: {
      u: 'o:7|u:3',
      U: 'ou:55|u:35|oo:10',
      I: 'i:75|ee:25',
      nisba: 'i:70|y:20|ee:10',
      ta: 'eh:55|a:35|ah:10',
      aw: 'aw:5|o:5',
      ay: 'ay:40|ai:30|ei:30',
      wVowel: 'w',
      ayn: "':5|:95",
      hamza: "':20|:80",
      art: ':30|Al-:20|Al :15|Al:20|El-:10|al-:5',
      abd: 'Abdul:35|Abdul :25|Abdel:15|Abd Al-:10|Abdal:15',
      din: 'aldin:40|eddin:30|spaced:30',
    },
    odds: { iE: 0.8, gem: 0.6, sDouble: 0.6, upperFamily: 0.2, irregular: 0.35 },
  },
};

const parsedShares = new Map<string, (readonly [string, number])[]>();
/** One spelling drawn from "a:3|b:1". */
function among(spec: string, r: Rng): string {
  let options = parsedShares.get(spec);
  if (!options) {
    options = spec.split('|').map((o) => {
      const k = o.lastIndexOf(':');
      return k < 0 ? ([o, 1] as const) : ([o.slice(0, k), Number(o.slice(k + 1))] as const);
    });
    parsedShares.set(spec, options);
  }
  return options.length === 1 ? (options[0] as readonly [string, number])[0] : r.choose(options);
}

function latinHabit(lang: Lang, r: Rng): LatinHabit {
  const shares = latinShares[lang];
  const cons: Record<string, string> = { H: 'h', S: 's', T: 't', g: 'gh' };
  for (const [letter, spec] of Object.entries(shares.cons)) cons[letter] = among(spec, r);
  const spell = {} as Record<Spelling, string>;
  for (const [k, spec] of Object.entries(shares.spell)) spell[k as Spelling] = among(spec, r);
  const { odds } = shares;
  return {
    lang,
    cons,
    ...spell,
    iE: r.chance(odds.iE),
    gem: r.chance(odds.gem),
    sDouble: r.chance(odds.sDouble),
    upperFamily: r.chance(odds.upperFamily),
    irregular: odds.irregular,
  };
}

const keyVowels = new Set('aiuAIUOY');
const sunLetters = new Set('tCdVrzscSDTZln');
const cap = (w: string) => (w ? (w[0] as string).toUpperCase() + w.slice(1) : w);

function consonant(c: string, h: LatinHabit): string {
  return h.cons[c] ?? c;
}

/** One word of a key in Latin letters (lower case). */
function romWord(w: string, h: LatinHabit): string {
  let out = '';
  const n = w.length;
  for (let k = 0; k < n; k++) {
    const c = w[k] as string;
    const next = w[k + 1];
    switch (c) {
      case 'a':
        if ((next === 'w' || next === 'y') && w[k + 2] !== next && !keyVowels.has(w[k + 2] ?? 'a')) {
          out += next === 'w' ? h.aw : h.ay;
          k++;
        } else out += 'a';
        break;
      case 'i':
        // Levantine and French ears hear a last-syllable i as e: Khaled, Saleh, Adel.
        out += h.iE && k > 0 && k === n - 2 && !keyVowels.has(next ?? 'a') ? 'e' : 'i';
        break;
      case 'u':
        out += h.u;
        break;
      case 'A':
      case 'Y':
        out += 'a';
        break;
      case 'I':
        out += k === n - 1 ? h.nisba : h.I;
        break;
      case 'U':
        out += h.U;
        break;
      case 'O':
        out += h.ta;
        break;
      case 'E':
        if (k > 0) out += h.ayn;
        break;
      case "'":
        if (k > 0) out += h.hamza;
        break;
      case 'w':
        out += keyVowels.has(next ?? 'x') && k > 0 ? (next === 'w' ? 'w' : h.wVowel) : 'w';
        break;
      default: {
        const m = consonant(c, h);
        if (next === c) {
          out += h.gem && m.length === 1 ? m + m : m;
          k++;
        } else if (
          c === 's' &&
          h.sDouble &&
          k > 0 &&
          keyVowels.has(w[k - 1] ?? 'x') &&
          keyVowels.has(next ?? 'x')
        )
          out += 'ss';
        else out += m;
      }
    }
  }
  return out;
}

/** A word with the article, in this habit. */
function withArticle(core: string, h: LatinHabit): string {
  const w = romWord(core, h);
  const W = cap(w);
  switch (h.art) {
    case '':
      return W;
    case 'Al':
      return `Al${w}`;
    case 'assim':
      if (sunLetters.has(core[0] ?? '')) {
        const c = consonant(core[0] as string, h);
        return `${h.lang === 'fr' ? 'E' : 'A'}${c}-${W}`;
      }
      return `${h.lang === 'fr' ? 'El-' : 'Al-'}${W}`;
    default:
      return `${h.art}${W}`;
  }
}

function abdForm(core: string, h: LatinHabit): string {
  const y = romWord(core, h);
  const Y = cap(y);
  if (h.abd === 'assim')
    return sunLetters.has(core[0] ?? '') ? `Abde${consonant(core[0] as string, h)}${y}` : `Abdel${y}`;
  if (h.abd.endsWith(' ') || h.abd.endsWith('-')) return `${h.abd}${Y}`;
  return `${h.abd}${y}`;
}

function dinForm(head: string, h: LatinHabit): string {
  const x = romWord(head, h);
  const X = cap(x);
  switch (h.din) {
    case 'uddin':
      return `${X}uddin`;
    case 'eddine':
      return `${X}eddine`;
    case 'eddin':
      return `${X} Eddin`;
    case 'aldin':
      return h.gem ? `${X} Aldin` : `${X}aldin`;
    default:
      return `${X} ${withArticle('dIn', h)}`;
  }
}

/** A key in Latin letters, in this habit. */
export function romanize(key: string, h: LatinHabit): string {
  const words = key.split(' ');
  if (words.length === 2 && words[0] === 'Eabd' && words[1]?.startsWith('al-'))
    return abdForm(words[1].slice(3), h);
  if (words.length === 2 && words[1] === 'al-dIn') return dinForm(words[0] as string, h);
  return words.map((w) => (w.startsWith('al-') ? withArticle(w.slice(3), h) : cap(romWord(w, h)))).join(' ');
}

function latinName(n: NameEntry, h: LatinHabit, r: Rng): string {
  if (n.alt.length > 0 && r.chance(h.irregular)) return r.pick(n.alt);
  return romanize(n.key, h);
}

function latinTown(t: Town, h: LatinHabit, r: Rng): string {
  if (t.alt.length > 0 && r.chance(0.6)) return r.pick(t.alt);
  return romanize(t.key, h);
}

function latinGovernorate(gov: string, h: LatinHabit, r: Rng): string {
  const g = governorates[gov];
  if (!g) return gov;
  return r.pick(h.lang === 'fr' ? g.fr : g.en);
}

// ——— people ———

interface Person {
  sex: 'm' | 'f';
  first: NameEntry;
  father: NameEntry;
  grandfather: NameEntry;
  family: NameEntry;
  mother: NameEntry;
  motherFamily: NameEntry;
  husbandFamily: NameEntry | null;
  /** The son a kunya names (أبو X / أم X), if the person goes by one. */
  kunya: NameEntry | null;
  birthDay: number;
  birthYear: number;
  town: Town;
  arrestDay: number;
  branch: Place;
  detainee: string;
  moved: Place | null;
  movedNumber: string;
  movedDay: number;
  deathDay: number;
  deathPlace: Place | null;
  forensic: string;
  visibility: number;
}

const arrestYears: readonly (readonly [number, number])[] = [
  [2011, 9],
  [2012, 22],
  [2013, 19],
  [2014, 14],
  [2015, 10],
  [2016, 8],
  [2017, 7],
  [2018, 6],
  [2019, 5],
];

function arrestDay(minYear: number, r: Rng): number {
  const years = arrestYears.filter(([y]) => y >= minYear);
  const year = years.length > 0 ? r.choose(years) : 2019;
  const from = year === 2011 ? dayOf(2011, 3, 15) : dayOf(year, 1, 1);
  return from + r.int(dayOf(year + 1, 1, 1) - from);
}

function makePeople(count: number, r: Rng): Person[] {
  const out: Person[] = [];
  const fam = families();
  const home = new Map<NameEntry, Town>();
  const counters = new Map<string, number>();
  let forensicCounter = 1000 + r.int(2000);
  const numberAt = (place: Place) => {
    const n = (counters.get(place.id) ?? 100 + r.int(3000)) + r.range(1, 3);
    counters.set(place.id, n);
    return String(n);
  };
  const distinctMale = (avoid: readonly NameEntry[]) => {
    let n = males.draw(r);
    while (avoid.includes(n)) n = males.draw(r);
    return n;
  };
  const distinctFemale = (avoid: readonly NameEntry[]) => {
    let n = females.draw(r);
    while (avoid.includes(n)) n = females.draw(r);
    return n;
  };
  const otherFamily = (own: NameEntry) => {
    if (r.chance(0.15)) return own; // marriage within the clan
    let f = fam.draw(r);
    while (f === own) f = fam.draw(r);
    return f;
  };

  const person = (
    sex: 'm' | 'f',
    first: NameEntry,
    father: NameEntry,
    grandfather: NameEntry,
    family: NameEntry,
    mother: NameEntry,
    birthDay: number,
    town: Town,
  ): Person => {
    const [birthYear] = ymd(birthDay);
    return {
      sex,
      first,
      father,
      grandfather,
      family,
      mother,
      motherFamily: otherFamily(family),
      husbandFamily: null,
      kunya: null,
      birthDay,
      birthYear,
      town,
      arrestDay: 0,
      branch: arrestingPlaces[0] as Place,
      detainee: '',
      moved: null,
      movedNumber: '',
      movedDay: 0,
      deathDay: -1,
      deathPlace: null,
      forensic: '',
      visibility: r.choose([
        [0.55, 35],
        [1, 40],
        [1.6, 25],
      ]),
    };
  };
  const birthDayIn = (year: number) => (r.chance(0.15) ? dayOf(year, 1, 1) : dayOf(year, 1, 1) + r.int(365));

  while (out.length < count) {
    const family = fam.draw(r);
    let town0 = home.get(family);
    if (!town0) {
      town0 = townsW.draw(r);
      home.set(family, town0);
    }
    const greatGrandfather = males.draw(r);
    const grandfather = distinctMale([]);
    const grandmother = females.draw(r);
    const households = r.choose([
      [1, 75],
      [2, 18],
      [3, 7],
    ]);
    const fathers: NameEntry[] = [];
    for (let s = 0; s < households; s++)
      fathers.push(
        s === 0 && grandfather !== greatGrandfather && r.chance(0.3)
          ? greatGrandfather
          : distinctMale([...fathers, grandfather]),
      );
    for (const father of fathers) {
      if (out.length >= count) break;
      const town = r.chance(0.8) ? town0 : townsW.draw(r);
      const mother = females.draw(r);
      const fatherBirth = r.range(1938, 1972);
      const household: Person[] = [];
      if (r.chance(0.08) && fatherBirth >= 1945)
        household.push(
          person(
            'm',
            father,
            grandfather,
            greatGrandfather,
            family,
            grandmother,
            birthDayIn(fatherBirth),
            town,
          ),
        );
      const kids = r.choose([
        [1, 66],
        [2, 21],
        [3, 9],
        [4, 4],
      ]);
      const used: NameEntry[] = [];
      let year = fatherBirth + r.range(20, 30);
      let previous: Person | undefined;
      for (let k = 0; k < kids; k++) {
        const sex = r.chance(0.1) ? 'f' : 'm';
        let first: NameEntry;
        if (sex === 'm' && k === 0 && r.chance(0.35)) first = grandfather;
        else first = sex === 'm' ? distinctMale([...used, father]) : distinctFemale(used);
        used.push(first);
        const twin = previous !== undefined && r.chance(0.04);
        const birthDay = twin && previous ? previous.birthDay : birthDayIn(Math.min(year, 2003 - r.int(4)));
        const p = person(sex, first, father, grandfather, family, mother, birthDay, town);
        household.push(p);
        previous = p;
        if (!twin) year += r.range(1, 4);
      }
      // Arrest: the household in one raid, or each on their own day.
      const raid = household.length > 1 && r.chance(0.45);
      const minYear = Math.max(...household.map((p) => p.birthYear)) + 14;
      const raidDay = arrestDay(minYear, r);
      const raidBranch = branchFor(town.gov).draw(r);
      for (const p of household) {
        if (out.length >= count) break;
        p.arrestDay = raid ? raidDay : arrestDay(p.birthYear + 14, r);
        p.branch = raid ? raidBranch : branchFor(p.town.gov).draw(r);
        p.detainee = numberAt(p.branch);
        const age = ymd(p.arrestDay)[0] - p.birthYear;
        if (p.sex === 'f' && age >= 19 && r.chance(0.7)) {
          let h = fam.draw(r);
          while (h === p.family) h = fam.draw(r);
          p.husbandFamily = h;
          if (r.chance(0.4)) p.kunya = males.draw(r);
        }
        if (p.sex === 'm' && age >= 24 && r.chance(0.6)) {
          const conventional = byArabic.get(conventionalKunya[p.first.ar] ?? '');
          p.kunya = conventional && r.chance(0.3) ? conventional : r.chance(0.6) ? p.father : males.draw(r);
        }
        // Moved: to a prison, or from a provincial branch to Damascus.
        const military = p.branch.agency === 'mi' || p.branch.agency === 'mp';
        if (r.chance(military ? 0.25 : 0.2)) {
          const provincial = p.branch.gov !== 'دمشق' && p.branch.agency === 'mi';
          const to =
            provincial && r.chance(0.5)
              ? r.pick(['mi-235', 'mi-248'])
              : p.sex === 'f'
                ? 'adra' // women were held at Adra, not Saydnaya
                : military
                  ? r.chance(0.85)
                    ? 'saydnaya'
                    : 'adra'
                  : r.chance(0.6)
                    ? 'adra'
                    : 'saydnaya';
          p.moved = placeById.get(to) ?? null;
          if (p.moved) {
            p.movedNumber = numberAt(p.moved);
            p.movedDay = p.arrestDay + r.range(10, 400);
          }
        }
        const [arrestYear] = ymd(p.arrestDay);
        if (r.chance(arrestYear <= 2014 ? 0.3 : 0.2)) {
          p.deathDay = p.arrestDay + 5 + Math.floor(1000 * r.next() ** 2);
          p.deathPlace = p.moved && p.deathDay > p.movedDay ? p.moved : p.branch;
          forensicCounter += r.range(1, 5);
          p.forensic = String(forensicCounter);
        }
        out.push(p);
      }
    }
  }
  return out;
}

function truthOf(p: Person): string[] {
  return [
    p.first.ar,
    p.father.ar,
    p.grandfather.ar,
    p.family.ar,
    p.mother.ar,
    p.sex,
    String(p.birthYear),
    isoDay(p.birthDay),
    p.town.gov,
    p.town.ar,
    isoDay(p.arrestDay),
    p.branch.id,
    p.detainee,
    p.deathDay >= 0 ? isoDay(p.deathDay) : '',
  ];
}

// ——— records ———

type Fields = PersonRecordFields & { source: string };

class Row {
  fields: Fields;
  carries = 0;
  constructor(
    readonly person: number,
    source: string,
  ) {
    this.fields = { source };
  }
  put(column: keyof PersonRecordFields, value: string | undefined, ...attributes: IdentityAttribute[]): void {
    if (value === undefined || value === '') return;
    this.fields[column] = value;
    for (const a of attributes) this.carries |= bit(a);
  }
  carry(...attributes: IdentityAttribute[]): void {
    for (const a of attributes) this.carries |= bit(a);
  }
}

const familyTyping: ArabicShares = {
  persian: 0.15,
  noHamza: 0.45,
  taH: 0.15,
  ya: 0.25,
  joined: 0.45,
  tatweel: 0.06,
  typo: 0.03,
};
const clerkTyping: ArabicShares = {
  persian: 0.05,
  noHamza: 0.6,
  taH: 0.1,
  ya: 0.1,
  joined: 0.3,
  tatweel: 0.02,
  typo: 0.02,
};

const sexAr = (p: Person) => (p.sex === 'm' ? 'ذكر' : 'أنثى');

/** The first name as this source gives it: a kunya, a nickname or the name; whether the name can be read. */
function arabicFirst(p: Person, kunya: number, nickname: number, h: ArabicHabit, r: Rng): [string, boolean] {
  if (p.kunya && r.chance(kunya))
    return [`${p.sex === 'm' ? 'أبو' : 'أم'} ${typed(p.kunya.ar, h, r, true)}`, false];
  const nick = nicknames[p.first.ar];
  if (nick && r.chance(nickname)) return [typed(nick[0], h, r), true];
  return [typed(p.first.ar, h, r, true), true];
}

function familyReport(p: Person, i: number, r: Rng): Row {
  const row = new Row(i, 'world-c-family-reports');
  const h = arabicHabit(familyTyping, r);
  const indic = r.chance(0.25);
  const dg = (s: string | undefined) => (s && indic ? arabicDigits(s) : s);
  const [first, firstKnown] = arabicFirst(p, 0.06, 0.03, h, r);
  const husband = p.husbandFamily !== null && r.chance(0.35);
  const family = typed((husband ? (p.husbandFamily as NameEntry) : p.family).ar, h, r);
  const firstAttrs: IdentityAttribute[] = firstKnown ? ['first'] : [];
  const familyAttrs: IdentityAttribute[] = husband ? [] : ['family'];
  if (r.chance(0.7)) {
    row.put('first_name', first, ...firstAttrs);
    if (r.chance(0.9)) row.put('father_name', typed(p.father.ar, h, r, true), 'father');
    if (r.chance(0.55)) row.put('grandfather_name', typed(p.grandfather.ar, h, r, true), 'grandfather');
    if (r.chance(0.96)) row.put('family_name', family, ...familyAttrs);
  } else {
    const parts = r.choose([
      [4, 45],
      [3, 45],
      [2, 10],
    ]);
    const names = [first];
    row.carry(...firstAttrs);
    if (parts >= 3) {
      names.push(typed(p.father.ar, h, r, true));
      row.carry('father');
    }
    if (parts === 4) {
      names.push(typed(p.grandfather.ar, h, r, true));
      row.carry('grandfather');
    }
    names.push(family);
    row.carry(...familyAttrs);
    row.put('full_name', names.join(' '));
  }
  if (r.chance(0.65))
    row.put(
      'mother_name',
      typed(r.chance(0.4) ? `${p.mother.ar} ${p.motherFamily.ar}` : p.mother.ar, h, r, true),
      'mother',
    );
  if (r.chance(0.75)) row.put('sex', sexAr(p), 'sex');
  birthAsGiven(row, p, r, {
    date: 0.12,
    year: 0.6,
    off: 0.08,
    swap: 0.1,
    form: r.chance(0.6) ? 'dmy' : 'iso',
    dg,
  });
  // Place: a town, a governorate, both, the town in the governorate column, or nothing.
  const gov = p.town.gov === 'ريف دمشق' && r.chance(0.3) ? 'دمشق' : p.town.gov;
  const place = r.choose([
    ['town', 40],
    ['gov', 25],
    ['both', 20],
    ['townAsGov', 7],
    ['none', 8],
  ] as const);
  if (place === 'town' || place === 'both')
    row.put('place_of_origin', typed(p.town.ar, h, r), 'town', 'governorate');
  if (place === 'gov' || place === 'both')
    row.put('governorate', typed(gov, h, r), ...(gov === p.town.gov ? (['governorate'] as const) : []));
  if (place === 'townAsGov') row.put('governorate', typed(p.town.ar, h, r), 'town', 'governorate');
  const form = r.chance(0.6) ? 'dmy' : 'iso';
  const arrest = remember(p.arrestDay, form, [0.4, 0.3, 0.1, 0.08, 0.05, 0.04], r);
  row.put('arrest_date', dg(arrest.text), ...(arrest.exact ? (['arrestDate'] as const) : []));
  if (r.chance(0.5)) {
    if (p.moved && r.chance(0.35)) row.put('arresting_branch', typed(r.pick(p.moved.ar), h, r));
    else if (r.chance(0.3)) row.put('arresting_branch', typed(r.pick(agencyNames[p.branch.agency].ar), h, r));
    else row.put('arresting_branch', typed(r.pick(p.branch.ar), h, r), 'branch');
  }
  if (r.chance(0.03)) row.put('detainee_number', dg(p.detainee), 'detainee');
  if (p.deathDay >= 0 && r.chance(0.35)) {
    const death = remember(p.deathDay, form, [0.6, 0.25, 0.1, 0.05, 0, 0], r);
    row.put('death_date', dg(death.text), ...(death.exact ? (['deathDate'] as const) : []));
  }
  return row;
}

interface BirthShares {
  date: number;
  year: number;
  off: number;
  swap: number;
  form: 'iso' | 'dmy';
  dg: (s: string | undefined) => string | undefined;
}

/** A birth date or year as the source gives it (a year off by one, a date with day and month swapped). */
function birthAsGiven(row: Row, p: Person, r: Rng, s: BirthShares): void {
  const u = r.next();
  if (u >= s.date + s.year) return;
  const off = r.chance(s.off) ? (r.chance(0.5) ? 1 : -1) : 0;
  if (u < s.date) {
    const day =
      off === 0 ? p.birthDay : dayOf(p.birthYear + off, ...(ymd(p.birthDay).slice(1) as [number, number]));
    const swapped = off === 0 && r.chance(s.swap) ? swappedDate(day, s.form) : undefined;
    if (swapped) row.put('birth_date', s.dg(swapped), 'birthYear');
    else
      row.put(
        'birth_date',
        s.dg(writeDate(day, s.form)),
        ...(off === 0 ? (['birthYear', 'birthDate'] as const) : []),
      );
  } else
    row.put('birth_year', s.dg(String(p.birthYear + off)), ...(off === 0 ? (['birthYear'] as const) : []));
}

interface RegisterHabit {
  /** Share of rows with the whole name in one field, family name first. */
  familyFirst: number;
  form: 'iso' | 'dmy';
  indic: boolean;
  joined: boolean;
}

function registerRow(p: Person, i: number, place: Place, reg: RegisterHabit, r: Rng): Row {
  const row = new Row(i, `world-c-register-${place.id}`);
  const h = { ...arabicHabit(clerkTyping, r), joined: reg.joined };
  const dg = (s: string | undefined) => (s && reg.indic ? arabicDigits(s) : s);
  const own = place === p.branch;
  const first = typed(p.first.ar, h, r, true);
  const father = typed(p.father.ar, h, r, true);
  const grandfather = r.chance(0.85) ? typed(p.grandfather.ar, h, r, true) : undefined;
  const family = typed(p.family.ar, h, r);
  if (r.chance(reg.familyFirst)) {
    row.put(
      'full_name',
      [family, first, father, grandfather].filter(Boolean).join(' '),
      'family',
      'first',
      'father',
    );
    if (grandfather) row.carry('grandfather');
  } else {
    row.put('first_name', first, 'first');
    row.put('father_name', father, 'father');
    row.put('grandfather_name', grandfather, 'grandfather');
    row.put('family_name', family, 'family');
  }
  if (r.chance(0.6)) row.put('mother_name', typed(p.mother.ar, h, r, true), 'mother');
  if (r.chance(0.3)) row.put('sex', sexAr(p), 'sex');
  birthAsGiven(row, p, r, { date: 0.3, year: 0.6, off: 0.02, swap: 0, form: reg.form, dg });
  if (r.chance(0.7)) row.put('governorate', typed(p.town.gov, h, r), 'governorate');
  if (r.chance(0.6)) row.put('place_of_origin', typed(p.town.ar, h, r), 'town', 'governorate');
  if (own) {
    if (r.chance(0.97)) row.put('arrest_date', dg(writeDate(p.arrestDay, reg.form)), 'arrestDate');
    else row.put('arrest_date', dg(writeDate(p.arrestDay + r.pick([-1, 1, 10, -10]), reg.form)));
  } else if (r.chance(0.55)) row.put('arrest_date', dg(writeDate(p.arrestDay, reg.form)), 'arrestDate');
  row.put('arresting_branch', place.ar[0], ...(own ? (['branch'] as const) : []));
  const number = own ? p.detainee : p.movedNumber;
  if (r.chance(0.97)) row.put('detainee_number', dg(number), ...(own ? (['detainee'] as const) : []));
  else row.put('detainee_number', dg(misread(number, r)));
  if (p.deathPlace === place && r.chance(0.4))
    row.put('death_date', dg(writeDate(p.deathDay, reg.form)), 'deathDate');
  return row;
}

/** A number with one digit misread or two exchanged. */
function misread(n: string, r: Rng): string {
  const k = r.int(n.length);
  if (r.chance(0.5) && k + 1 < n.length && n[k] !== n[k + 1])
    return n.slice(0, k) + n[k + 1] + n[k] + n.slice(k + 2);
  const d = (Number(n[k]) + r.range(1, 9)) % 10;
  return n.slice(0, k) + String(d) + n.slice(k + 1);
}

const forensicTyping: ArabicShares = {
  persian: 0,
  noHamza: 0.7,
  taH: 0.1,
  ya: 0.1,
  joined: 0.4,
  tatweel: 0,
  typo: 0.04,
};

function forensicRow(p: Person, i: number, r: Rng, nameless = 0.25): Row {
  const row = new Row(i, 'world-c-forensic');
  const place = p.deathPlace as Place;
  const h = arabicHabit(forensicTyping, r);
  const indic = r.chance(0.3);
  const dg = (s: string | undefined) => (s && indic ? arabicDigits(s) : s);
  const u = r.next();
  if (u >= nameless) {
    const first = typed(p.first.ar, h, r, true);
    if (u < 0.7) {
      row.put('full_name', `${first} ${typed(p.father.ar, h, r, true)}`, 'first', 'father');
    } else if (u < 0.9) {
      row.put('full_name', `${first} ${typed(p.family.ar, h, r)}`, 'first', 'family');
    } else row.put('full_name', first, 'first');
  }
  const own = place === p.branch;
  row.put('arresting_branch', place.code, ...(own && place.codeExact ? (['branch'] as const) : []));
  if (r.chance(0.92))
    row.put('detainee_number', dg(own ? p.detainee : p.movedNumber), ...(own ? (['detainee'] as const) : []));
  row.put('forensic_report_number', dg(p.forensic));
  const form = r.chance(0.6) ? 'dmy' : 'iso';
  if (r.chance(0.85)) row.put('death_date', dg(writeDate(p.deathDay, form)), 'deathDate');
  else row.put('death_date', dg(writeDate(p.deathDay + r.range(1, 10), form)));
  return row;
}

interface LatinList {
  source: string;
  lang: Lang;
  coverage: number;
}

const latinLists: readonly LatinList[] = [
  { source: 'world-c-ngo-en', lang: 'en', coverage: 0.18 },
  { source: 'world-c-league-fr', lang: 'fr', coverage: 0.09 },
  { source: 'world-c-un-submissions', lang: 'lev', coverage: 0.11 },
];

function latinRow(p: Person, i: number, list: LatinList, r: Rng): Row {
  const row = new Row(i, list.source);
  const h = latinHabit(list.lang, r);
  const { lang } = h;
  let first: string;
  let firstKnown = true;
  if (p.kunya && r.chance(lang === 'fr' ? 0.02 : 0.03)) {
    const abu =
      p.sex === 'm' ? (lang === 'fr' ? 'Abou' : r.chance(0.8) ? 'Abu' : 'Abo') : lang === 'fr' ? 'Oum' : 'Um';
    first = `${abu} ${latinName(p.kunya, h, r)}`;
    firstKnown = false;
  } else {
    const nick = nicknames[p.first.ar];
    first = nick && r.chance(0.01) ? romanize(nick[1], h) : latinName(p.first, h, r);
  }
  const husband = p.husbandFamily !== null && r.chance(0.4);
  let family = latinName(husband ? (p.husbandFamily as NameEntry) : p.family, h, r);
  if (h.upperFamily) family = family.toUpperCase();
  const father = latinName(p.father, h, r);
  const firstAttrs: IdentityAttribute[] = firstKnown ? ['first'] : [];
  const familyAttrs: IdentityAttribute[] = husband ? [] : ['family'];
  const columns = r.chance(lang === 'en' ? 0.7 : lang === 'fr' ? 0.75 : 0.2);
  if (columns) {
    row.put('first_name', first, ...firstAttrs);
    row.put('family_name', family, ...familyAttrs);
    if (r.chance(lang === 'en' ? 0.25 : lang === 'fr' ? 0.15 : 0.5)) row.put('father_name', father, 'father');
  } else {
    row.carry(...firstAttrs, ...familyAttrs);
    let full: string;
    if (lang === 'en') {
      const shape = r.choose([
        ['plain', 55],
        ['bin', 15],
        ['chain', 5],
        ['upperFirst', 15],
        ['comma', 10],
      ] as const);
      if (shape === 'bin') {
        full = `${first} ${r.chance(0.7) ? 'bin' : 'ibn'} ${father} ${family}`;
        row.carry('father');
      } else if (shape === 'chain') {
        full = `${first} ibn ${father} ibn ${latinName(p.grandfather, h, r)} ${family}`;
        row.carry('father', 'grandfather');
      } else if (shape === 'upperFirst') full = `${family.toUpperCase()} ${first}`;
      else if (shape === 'comma') full = `${family}, ${first}`;
      else full = `${first} ${family}`;
    } else if (lang === 'fr') {
      full = r.chance(0.6) ? `${family.toUpperCase()} ${first}` : `${first} ${family}`;
    } else if (r.chance(0.6)) {
      full = `${first} ${father} ${family}`;
      row.carry('father');
    } else full = `${first} ${family}`;
    row.put('full_name', full);
  }
  if (r.chance(lang === 'lev' ? 0.2 : lang === 'en' ? 0.05 : 0.03))
    row.put('mother_name', latinName(p.mother, h, r), 'mother');
  if (r.chance(lang === 'en' ? 0.85 : lang === 'fr' ? 0.6 : 0.5))
    row.put('sex', lang === 'en' ? (p.sex === 'm' ? 'male' : 'female') : p.sex, 'sex');
  const form = lang === 'fr' ? 'dmy' : 'iso';
  const id = (s: string | undefined) => s;
  birthAsGiven(row, p, r, {
    date: lang === 'lev' ? 0.25 : 0.05,
    year: lang === 'en' ? 0.45 : lang === 'fr' ? 0.35 : 0.3,
    off: 0.08,
    swap: lang === 'fr' ? 0.08 : 0.02,
    form,
    dg: id,
  });
  const town = r.chance(lang === 'en' ? 0.6 : lang === 'fr' ? 0.7 : 0.4);
  if (town) row.put('place_of_origin', latinTown(p.town, h, r), 'town', 'governorate');
  if (r.chance(lang === 'en' ? 0.4 : lang === 'fr' ? 0.3 : 0.7)) {
    if (!town && r.chance(0.12)) row.put('governorate', latinTown(p.town, h, r), 'town', 'governorate');
    else row.put('governorate', latinGovernorate(p.town.gov, h, r), 'governorate');
  }
  const memory: Memory =
    lang === 'en'
      ? [0.35, 0.35, 0.25, 0, 0, 0]
      : lang === 'fr'
        ? [0.45, 0.25, 0.1, 0.07, 0, 0.08]
        : [0.5, 0.2, 0.2, 0, 0, 0];
  const arrest = remember(p.arrestDay, form, memory, r);
  row.put('arrest_date', arrest.text, ...(arrest.exact ? (['arrestDate'] as const) : []));
  if (r.chance(lang === 'en' ? 0.35 : lang === 'fr' ? 0.25 : 0.4)) {
    if (r.chance(0.6)) row.put('arresting_branch', r.pick(p.branch.la), 'branch');
    else row.put('arresting_branch', r.pick(agencyNames[p.branch.agency].la));
  }
  if (p.deathDay >= 0 && r.chance(lang === 'fr' ? 0.25 : 0.3)) {
    const death = remember(p.deathDay, form, [0.7, 0.2, 0.1, 0, 0, 0], r);
    row.put('death_date', death.text, ...(death.exact ? (['deathDate'] as const) : []));
  }
  return row;
}

const registryTyping: ArabicShares = {
  persian: 0,
  noHamza: 0.2,
  taH: 0.05,
  ya: 0.05,
  joined: 0.5,
  tatweel: 0,
  typo: 0.01,
};

function civilRow(p: Person, i: number, r: Rng): Row {
  const row = new Row(i, 'world-c-civil-registry');
  const h = arabicHabit(registryTyping, r);
  row.put('first_name', typed(p.first.ar, h, r, true), 'first');
  row.put('father_name', typed(p.father.ar, h, r, true), 'father');
  row.put('family_name', typed(p.family.ar, h, r), 'family');
  if (r.chance(0.9))
    row.put('mother_name', typed(`${p.mother.ar} ${p.motherFamily.ar}`, h, r, true), 'mother');
  row.put('sex', sexAr(p), 'sex');
  if (r.chance(0.75)) row.put('birth_date', writeDate(p.birthDay, 'iso'), 'birthYear', 'birthDate');
  else if (r.chance(0.8)) row.put('birth_year', String(p.birthYear), 'birthYear');
  row.put('governorate', typed(p.town.gov, h, r), 'governorate');
  if (r.chance(0.9)) row.put('place_of_origin', typed(p.town.ar, h, r), 'town');
  if (r.chance(0.7)) row.put('death_date', writeDate(p.deathDay, 'iso'), 'deathDate');
  else row.put('death_date', writeDate(p.deathDay + r.range(30, 600) * (r.chance(0.7) ? 1 : -1), 'iso'));
  return row;
}

function noticeRow(p: Person, i: number, r: Rng): Row {
  const row = new Row(i, 'world-c-death-notices');
  const h = arabicHabit(familyTyping, r);
  const indic = r.chance(0.4);
  const age = ymd(p.deathDay)[0] - p.birthYear;
  const title = r.chance(0.4)
    ? `${r.pick(age < 30 ? ['الشهيد', 'الشاب', 'المرحوم'] : ['الشهيد', 'المرحوم'])} `
    : '';
  const names = [typed(p.first.ar, h, r, true)];
  row.carry('first', 'family');
  if (r.chance(0.6)) {
    names.push(typed(p.father.ar, h, r, true));
    row.carry('father');
  }
  names.push(typed(p.family.ar, h, r));
  row.put('full_name', title + names.join(' '));
  if (r.chance(0.35)) {
    const d = writeDate(p.deathDay, r.chance(0.5) ? 'dmy' : 'iso');
    row.put('death_date', indic ? arabicDigits(d) : d, 'deathDate');
  }
  if (r.chance(0.75)) row.put('place_of_origin', typed(p.town.ar, h, r), 'town', 'governorate');
  return row;
}

/** Places whose deaths the forensic list covers (Damascus branches, Saydnaya). */
function forensicCovers(place: Place | null): boolean {
  return place !== null && (place.gov === 'دمشق' || place.id === 'saydnaya');
}

const shortSource = (source: string) =>
  source
    .replace('world-c-', '')
    .replace('register-', 'reg-')
    .replace(/-(reports|submissions|registry|notices)$/, '');

export function commissionWorld(people: number, seed = 1): World {
  const r = new Rng(seed);
  const persons = makePeople(people, r);
  // A register keeps one layout, mostly: a quarter of them write the family name first (whichever, by seed; most of
  // their clerks follow it), a few rows of the others do too.
  const registers = shuffled(
    places.filter((p) => p.register > 0),
    r.next,
  );
  const registerHabits = new Map<string, RegisterHabit>(
    registers.map((p, k) => [
      p.id,
      {
        familyFirst: k < Math.round(registers.length * 0.25) ? 0.85 : 0.08,
        form: r.chance(0.5) ? 'iso' : 'dmy',
        indic: r.chance(0.3),
        joined: r.chance(0.4),
      },
    ]),
  );
  const rows: Row[] = [];
  persons.forEach((p, i) => {
    const before = rows.length;
    const v = p.visibility;
    const twice = (make: () => Row, share: number) => {
      rows.push(make());
      if (r.chance(share)) rows.push(make());
    };
    if (r.chance(Math.min(0.95, 0.47 * v))) twice(() => familyReport(p, i, r), 0.06);
    if (p.branch.register > 0 && r.chance(p.branch.register * 0.85))
      twice(() => registerRow(p, i, p.branch, registerHabits.get(p.branch.id) as RegisterHabit, r), 0.03);
    if (p.moved && p.moved.register > 0 && r.chance(p.moved.register * 0.85))
      twice(
        () => registerRow(p, i, p.moved as Place, registerHabits.get(p.moved?.id ?? '') as RegisterHabit, r),
        0.03,
      );
    if (
      p.deathDay >= 0 &&
      forensicCovers(p.deathPlace) &&
      r.chance(p.deathDay < dayOf(2014, 9, 1) ? 0.75 : 0.35)
    )
      twice(() => forensicRow(p, i, r), 0.04);
    for (const list of latinLists)
      if (r.chance(Math.min(0.9, list.coverage * v))) twice(() => latinRow(p, i, list, r), 0.03);
    if (p.deathDay >= 0 && r.chance(0.35)) rows.push(civilRow(p, i, r));
    if (p.deathDay >= 0 && r.chance(0.15 * v)) rows.push(noticeRow(p, i, r));
    if (rows.length === before) rows.push(familyReport(p, i, r));
  });
  const records: WorldRecord[] = shuffled(rows, r.next).map((row, k) => ({
    fields: {
      record_id: `${shortSource(row.fields.source)}-${String(k + 1).padStart(7, '0')}`,
      ...row.fields,
      notes: worldLabel,
    },
    person: row.person,
    carries: row.carries,
  }));
  return {
    name: 'C commission merge',
    description:
      'A commission merging family reports, branch and prison registers, a Caesar-style forensic list, English, ' +
      'French and Levantine-passport Latin lists, civil death entries and death notices; families and clans, ' +
      'kunyas, husbands’ family names, transfers between branches, dates as remembered.',
    records,
    people: persons.map(truthOf),
  };
}
