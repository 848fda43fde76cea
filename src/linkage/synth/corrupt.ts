import type { Random } from '../random.js';

/** Arabic letters typos are drawn from. */
const arabicLetters = 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي';
const latinLetters = 'abcdefghijklmnopqrstuvwxyz';

/** One keyboard-style slip: a letter dropped, doubled, replaced, or two swapped. */
export function typo(random: Random, text: string): string {
  if (text.length < 3) return text;
  const arabic = /[\u0600-\u06ff]/.test(text);
  const letters = arabic ? arabicLetters : latinLetters;
  const at = 1 + random.int(text.length - 2);
  if (text[at] === ' ' || text[at - 1] === ' ') return text;
  switch (random.int(4)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + (text[at] as string) + text.slice(at);
    case 2: {
      const replacement = letters[random.int(letters.length)] as string;
      return (
        text.slice(0, at) +
        (arabic ? replacement : matchCase(text[at] as string, replacement)) +
        text.slice(at + 1)
      );
    }
    default:
      return text.slice(0, at - 1) + (text[at] as string) + (text[at - 1] as string) + text.slice(at + 1);
  }
}

function matchCase(like: string, ch: string): string {
  return like === like.toUpperCase() ? ch.toUpperCase() : ch;
}

/**
 * The spelling drift of hand-typed Arabic lists: hamza seats dropped, ة written ه, final ى written ي, compounds
 * written joined or apart.
 */
export function arabicVariant(random: Random, text: string): string {
  let t = text;
  if (random.chance(0.35)) t = t.replace(/[أإآ]/g, 'ا');
  if (random.chance(0.2)) t = t.replace(/ة(?=\s|$)/g, 'ه');
  if (random.chance(0.2)) t = t.replace(/ى(?=\s|$)/g, 'ي');
  if (random.chance(0.4)) t = t.replace(/^(عبد|أبو|ابو) /, '$1').replace(/ (الدين)$/, '$1');
  return t;
}

/** A family name's article as lists write it: المصري / مصري. */
export function arabicArticle(random: Random, family: string): string {
  if (family.startsWith('ال') && random.chance(0.15)) return family.slice(2);
  return family;
}

/** A Latin family name's article as lists write it: Al-Masri, Al Masri, Almasri, El-Masri, Masri. */
export function latinArticle(random: Random, family: string): string {
  const m = /^(Al|El|Ash|As|Ar|An|At|Ad|Az)[- ](.+)$/.exec(family);
  if (!m) return family;
  const rest = m[2] as string;
  const roll = random.next();
  if (roll < 0.45) return family;
  if (roll < 0.6) return `Al ${rest}`;
  if (roll < 0.72) return `Al${rest.toLowerCase()}`;
  if (roll < 0.84) return `El-${rest}`;
  return rest;
}

/** Letter case as lists write it. */
export function latinCase(random: Random, text: string): string {
  const roll = random.next();
  if (roll < 0.8) return text;
  if (roll < 0.92) return text.toUpperCase();
  return text.toLowerCase();
}
