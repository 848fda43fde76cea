import { normalize } from '../names/normalize.js';
import { type Branch, branches } from './branches.js';
import { type Governorate, governorates } from './governorates.js';

export type { Agency, Branch, BranchKind } from './branches.js';
export type { Governorate } from './governorates.js';
export { branches, governorates };

/**
 * The form under which place and branch aliases are compared: the names module's matching form (Unicode hygiene,
 * Arabic letter variants, case, diacritics, digits, punctuation to single spaces), with the article folded away.
 * Pure; safe on any input.
 */
export function aliasKey(text: string): string {
  return normalize(text)
    .split(' ')
    .map((w) => w.replace(/^(al|el|ال)(?=\p{L}{2})/u, ''))
    .filter((w) => w !== 'al' && w !== 'el' && w !== 'the' && w !== '')
    .join(' ');
}

function indexBy<T>(items: readonly T[], names: (item: T) => string[]): Map<string, T> {
  const index = new Map<string, T>();
  for (const item of items) {
    for (const name of names(item)) {
      const key = aliasKey(name);
      if (key) index.set(key, item);
    }
  }
  return index;
}

const branchIndex = indexBy(branches, (b) => [b.id, b.nameEn, b.nameAr, ...b.aliases]);
const branchByNumber = new Map(branches.filter((b) => b.number !== null).map((b) => [b.number as number, b]));
const governorateIndex = indexBy(governorates, (g) => [g.id, g.iso, g.nameEn, g.nameAr, ...g.aliases]);

/**
 * The branch a free-text mention names, or undefined. "فرع فلسطين", "الفرع 235", "Branch 235" and "235" all give
 * branch-235; a text that only carries a branch number resolves by that number.
 */
export function resolveBranch(text: string | null | undefined): Branch | undefined {
  if (!text) return undefined;
  const key = aliasKey(text);
  if (!key) return undefined;
  const hit = branchIndex.get(key);
  if (hit) return hit;
  const numbers = key.match(/\d+/g);
  if (numbers?.length === 1) {
    const rest = key
      .replace(/\d+/g, '')
      .replace(/\b(branch|no|number|nr)\b|فرع|رقم/gu, '')
      .trim();
    if (rest === '') return branchByNumber.get(Number(numbers[0]));
  }
  return undefined;
}

/** The governorate a free-text mention names, or undefined. */
export function resolveGovernorate(text: string | null | undefined): Governorate | undefined {
  if (!text) return undefined;
  return governorateIndex.get(aliasKey(text));
}
