/**
 * Blocking keys for a full name: per part, the cross-script skeleton (`k:`) and a phonetic key (`p:`, Double
 * Metaphone of the Latin spelling — or, for an Arabic part, of a plain transliteration of it), plus the pair of
 * first-name and family-name skeletons (`fk:`). Keys from both scripts meet: محمد and Mohammad both give k:MHMD and
 * p:MHMT.
 */
import { doubleMetaphone } from 'double-metaphone';
import { lexiconEntry } from './lexicon.js';
import { parseParts } from './parse.js';
import { type PreparedToken, prepareToken } from './token.js';
import { AR, Side, unitSide } from './units.js';

// A plain transliteration of Arabic units, enough for a phonetic key (vowels matter little to Metaphone).
const ROMAN: Record<number, string> = {
  [AR.alifInitial]: 'a',
  [AR.alif]: 'a',
  [AR.b]: 'b',
  [AR.t]: 't',
  [AR.th]: 'th',
  [AR.j]: 'j',
  [AR.hh]: 'h',
  [AR.kh]: 'kh',
  [AR.d]: 'd',
  [AR.dh]: 'dh',
  [AR.r]: 'r',
  [AR.z]: 'z',
  [AR.s]: 's',
  [AR.sh]: 'sh',
  [AR.ss]: 's',
  [AR.dd]: 'd',
  [AR.tt]: 't',
  [AR.zz]: 'z',
  [AR.ain]: '',
  [AR.gh]: 'gh',
  [AR.f]: 'f',
  [AR.q]: 'q',
  [AR.k]: 'k',
  [AR.l]: 'l',
  [AR.m]: 'm',
  [AR.n]: 'n',
  [AR.h]: 'h',
  [AR.hFinal]: 'a',
  [AR.wInitial]: 'w',
  [AR.w]: 'u',
  [AR.yInitial]: 'y',
  [AR.y]: 'i',
  [AR.yFinal]: 'i',
  [AR.yHamza]: 'i',
  [AR.alifMaqsura]: 'a',
  [AR.hamza]: '',
  [AR.p]: 'p',
  [AR.ch]: 'ch',
  [AR.zh]: 'zh',
  [AR.g]: 'g',
  [AR.v]: 'v',
};

function romanize(token: PreparedToken): string {
  let out = '';
  let vowel = true;
  for (const u of token.units.subarray(token.articleUnits)) {
    if (unitSide[u] !== Side.Arabic) continue;
    const r = ROMAN[u] ?? '';
    const isVowel = r === 'a' || r === 'u' || r === 'i' || r === '';
    // Arabic leaves short vowels unwritten; put one between consonants so Metaphone reads the h of محمد.
    if (!isVowel && !vowel) out += 'a';
    out += r;
    if (r !== '') vowel = isVowel;
  }
  return out;
}

/** The phonetic key of one token: Double Metaphone (primary code) of its Latin spelling; '' when none. */
export function phoneticKey(token: string): string {
  const t = prepareToken(token);
  if (t.units.length === 0) return '';
  // Listed names take the phonetic key of their entry's first Latin spelling, so every spelling meets.
  const entry = t.lexicon.length === 1 ? lexiconEntry(t.lexicon[0] as number) : undefined;
  const latin =
    entry?.latin[0] ??
    (t.side === Side.Arabic ? romanize(t) : t.canonical.slice(t.articleUnits).replace(/[^a-z]/g, ''));
  if (latin === '') return '';
  return doubleMetaphone(latin)[0];
}

/**
 * Blocking keys of a full name, deduplicated: `k:<skeleton>` and `p:<metaphone>` for every part, and
 * `fk:<first skeleton>|<family skeleton>` when the name has both. [] for a name without letters.
 */
export function keys(name: string): string[] {
  const parsed = parseParts(name);
  const out = new Set<string>();
  for (const part of parsed.parts) {
    const t = prepareToken(part.text);
    if (t.key !== '') out.add(`k:${t.key}`);
    const p = phoneticKey(part.text);
    if (p !== '') out.add(`p:${p}`);
  }
  const first = parsed.parts.find((p) => p.role === 'first');
  const family = parsed.parts.find((p) => p.role === 'family');
  if (first && family) {
    const fk = prepareToken(first.text).key;
    const lk = prepareToken(family.text).key;
    if (fk !== '' && lk !== '') out.add(`fk:${fk}|${lk}`);
  }
  return [...out];
}
