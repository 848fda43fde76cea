/**
 * Turns a canonical name part (see canonical.ts) into its sequence of sound units (see units.ts).
 */
import { gluedArticleLength } from './canonical.js';
import { AR, LA, Side, unitSide } from './units.js';

const ARABIC_LETTERS: Record<string, number> = {
  ب: AR.b,
  ت: AR.t,
  ث: AR.th,
  ج: AR.j,
  ح: AR.hh,
  خ: AR.kh,
  د: AR.d,
  ذ: AR.dh,
  ر: AR.r,
  ز: AR.z,
  س: AR.s,
  ش: AR.sh,
  ص: AR.ss,
  ض: AR.dd,
  ط: AR.tt,
  ظ: AR.zz,
  ع: AR.ain,
  غ: AR.gh,
  ف: AR.f,
  ق: AR.q,
  ك: AR.k,
  ل: AR.l,
  م: AR.m,
  ن: AR.n,
  ء: AR.hamza,
  پ: AR.p,
  چ: AR.ch,
  ژ: AR.zh,
  گ: AR.g,
  ڤ: AR.v,
  ڨ: AR.g,
};

const LATIN_DIGRAPHS: Record<string, number> = {
  kh: LA.kh,
  gh: LA.gh,
  sh: LA.sh,
  ch: LA.ch,
  th: LA.th,
  dh: LA.dh,
  zh: LA.zh,
  ph: LA.f,
  ck: LA.k,
  dj: LA.j,
  ou: LA.ou,
  oo: LA.oo,
  ee: LA.ee,
  aa: LA.aa,
  ai: LA.ai,
  ay: LA.ai,
  ei: LA.ai,
  ey: LA.ai,
  au: LA.au,
  aw: LA.au,
  ow: LA.au,
};

const LATIN_LETTERS: Record<string, number> = {
  a: LA.a,
  b: LA.b,
  d: LA.d,
  e: LA.e,
  f: LA.f,
  g: LA.g,
  h: LA.h,
  i: LA.i,
  j: LA.j,
  k: LA.k,
  l: LA.l,
  m: LA.m,
  n: LA.n,
  o: LA.o,
  p: LA.p,
  q: LA.q,
  r: LA.r,
  s: LA.s,
  t: LA.t,
  u: LA.u,
  v: LA.v,
  w: LA.w,
  x: LA.x,
  y: LA.y,
  z: LA.z,
};

// Arabizi ("Mo7ammad", "3ali"): digits standing for Arabic letters inside a Latin word.
const ARABIZI: Record<string, number> = {
  '2': LA.ain,
  '3': LA.ain,
  '5': LA.kh,
  '6': LA.t,
  '7': LA.h,
  '8': LA.gh,
  '9': LA.q,
};

const VOWEL = /[aeiouy]/;
const DIPHTHONGS = new Set(['ai', 'ay', 'ei', 'ey', 'au', 'aw', 'ow']);

/**
 * Whether a diphthong digraph is really a vowel then a consonant glide or a vowel: before another vowel or the
 * same glide doubled (Khayyat, Sayyid, Fawaz, Nawal, "Saied"), or a final ai (Sibai, Rifai: a + i).
 */
function glideBeforeVowel(s: string, i: number, two: string): boolean {
  if (!DIPHTHONGS.has(two)) return false;
  const next = s[i + 2];
  if (next === undefined) return two === 'ai';
  return VOWEL.test(next) || next === two[1];
}

/** The most units a token keeps; longer input is cut (a defined result for pathological strings). */
export const MAX_UNITS = 40;

/**
 * Appends a unit. Doubled Latin letters are one sound (Hassan, Mohammad); doubled Arabic letters are two (ممدوح),
 * except a repeated long-vowel letter (داوود). A function of the module, not a closure made per call.
 */
function pushUnit(out: number[], u: number): void {
  if (out.length >= MAX_UNITS) return;
  const last = out[out.length - 1];
  if (last === u && (unitSide[u] === Side.Latin || u === AR.w || u === AR.y || u === AR.alif)) return;
  out.push(u);
}

/**
 * Sound units of a canonical part. Arabic letters and Latin letters may both occur (mixed input); each run is
 * read by its own script's rules. Adjacent identical units merge (doubled consonants, shadda-less Arabic).
 * `nameStart` is where the name begins after a glued article (callers that know it pass it).
 */
export function soundUnits(canonical: string, nameStart = gluedArticleLength(canonical)): number[] {
  const out: number[] = [];
  const n = canonical.length;
  const hasLetter = /[a-z]/.test(canonical);
  let i = 0;
  while (i < n && out.length < MAX_UNITS) {
    const c = canonical[i] as string;
    const code = c.charCodeAt(0);
    if (code >= 0x600 && code <= 0x6ff) {
      const atStart = i === 0;
      const atEnd = i === n - 1;
      if (c === 'ا') pushUnit(out, atStart ? AR.alifInitial : AR.alif);
      else if (c === 'ه') pushUnit(out, atEnd && !atStart ? AR.hFinal : AR.h);
      else if (c === 'و') pushUnit(out, atStart ? AR.wInitial : AR.w);
      else if (c === 'ي') {
        // After alif, ي is mostly a hamza seat written plainly (رايد for رائد); at the end it is often ى.
        if (atStart) pushUnit(out, AR.yInitial);
        else if (canonical[i - 1] === 'ا' && !atEnd) pushUnit(out, AR.yHamza);
        else pushUnit(out, atEnd ? AR.yFinal : AR.y);
      } else if (c === 'ئ') pushUnit(out, AR.yHamza);
      else if (c === 'ى') pushUnit(out, atEnd ? AR.alifMaqsura : AR.y);
      else {
        const u = ARABIC_LETTERS[c];
        if (u !== undefined) pushUnit(out, u);
      }
      i++;
      continue;
    }
    if (code >= 0x30 && code <= 0x39) {
      const u = hasLetter ? ARABIZI[c] : undefined;
      if (u !== undefined) pushUnit(out, u);
      i++;
      continue;
    }
    if (canonical.startsWith('dsch', i)) {
      // German spelling writes ج as dsch (Dschamal, Chadidscha).
      pushUnit(out, LA.j);
      i += 4;
      continue;
    }
    const three = canonical.slice(i, i + 3);
    if (three === 'sch') {
      pushUnit(out, LA.sh);
      i += 3;
      continue;
    }
    if (three === 'tch') {
      pushUnit(out, LA.ch);
      i += 3;
      continue;
    }
    const two = canonical.slice(i, i + 2);
    if (two === 'ss') {
      // A doubled s is voiceless (units.ts); a longer run is one sound too.
      pushUnit(out, LA.ss);
      i += 2;
      while (canonical[i] === 's' && canonical[i + 1] !== 'h') i++;
      continue;
    }
    if (two === 'ou' && i === nameStart && /[aei]/.test(canonical[i + 2] ?? '')) {
      // French spelling writes a name's first و before a vowel as ou (Oualid, Ouassim, Ouidad): a consonant, not
      // the vowel u of an ع (Oula for علا). Inside the name, ou before a vowel is often u then a hamza or ع (Fouad,
      // Louay, Souad), so it stays a vowel there.
      pushUnit(out, LA.w);
      i += 2;
      continue;
    }
    if (two === 'dh' && i === 2 && canonical.startsWith('abd')) {
      // An abd compound's name begins after the d (canonical "abdhamit" for Abdulhamit): not ذ.
      pushUnit(out, LATIN_LETTERS.d as number);
      i++;
      continue;
    }
    const di = LATIN_DIGRAPHS[two];
    if (di !== undefined && !glideBeforeVowel(canonical, i, two)) {
      pushUnit(out, di);
      i += 2;
      continue;
    }
    const after = canonical[i + 2] as string;
    if (two === 'ie' && i > 0 && i < n - 2 && !VOWEL.test(after) && !(after === 'h' && i === n - 3)) {
      // "Saied", "Nabiel", "Walied": a medial ie is a long i (but "Fadieh" ends in i + eh).
      pushUnit(out, LA.ee);
      i += 2;
      continue;
    }
    if (c === 'c') {
      const next = canonical[i + 1] ?? '';
      const soft = next === 'e' || next === 'i' || next === 'y';
      // Between vowels before a, o, u: a hard c or a ç without its cedilla (units.ts).
      const between = i > 0 && VOWEL.test(canonical[i - 1] as string) && /[aou]/.test(next);
      pushUnit(out, soft ? LA.cs : between ? LA.c : LA.k);
    } else if (c === 's' && i === nameStart) {
      // The name's first sound (after a glued article): voiceless, so not ز (units.ts).
      pushUnit(out, LA.s0);
    } else if (c === 'h' && i === n - 1 && i > 0 && VOWEL.test(canonical[i - 1] as string)) {
      pushUnit(out, LA.hFinal);
    } else if (c === 'i' && i === n - 2 && i >= 2 && canonical[i + 1] === 'e') {
      // "Fadie", "Ramie": a final ie is one i.
      pushUnit(out, LA.i);
      i++;
    } else if (c === 'e' && i === n - 1 && i >= 3 && !VOWEL.test(canonical[i - 1] as string)) {
      pushUnit(out, LA.eFinal);
    } else {
      const u = LATIN_LETTERS[c];
      if (u !== undefined) pushUnit(out, u);
    }
    i++;
  }
  return out;
}
