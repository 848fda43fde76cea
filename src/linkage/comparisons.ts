import { formatDate, monthOfEpochDay } from './dates.js';
import type { FeatureColumn, RecordFeatures } from './features.js';
import { branchesNestByCode, precision, unknownGovernorateBase, womanByName } from './features.js';
import type { NameSimilarity } from './similarity-cache.js';

/**
 * One field comparison of the Fellegi–Sunter model: a pair of records falls into exactly one level. Level 0 is
 * always "missing" (either side does not say), whose weight is 0. The levels of all comparisons are computed
 * together by `compareAll` (one function, direct field access: the hot loop of linkage).
 */
export interface Comparison {
  readonly name: string;
  readonly levels: readonly string[];
  /** Part of the family line (family, father, grandfather, mother): see `contextOf`. */
  readonly lineage?: boolean;
  /**
   * Levels whose m and u are distributions of their own (each group sums to 1). Names split same-script from
   * cross-script levels: which scripts a pair is written in says nothing about whether it is one person, so each
   * script mix is weighed on its own. Default: one group of all non-missing levels.
   */
  readonly groups?: readonly (readonly number[])[];
  /** The name column whose term frequency adjusts the agreeing levels, and those levels. */
  readonly termFrequency?: { column: FeatureColumn; levels: readonly number[] };
  /**
   * Levels added after the model file's format was set, each with the level it was part of: they come last in
   * `levels`, and a model file written before them reads with copies of those levels (parseModel).
   */
  readonly later?: readonly (readonly [added: string, from: string])[];
  /**
   * A circumstance, not identity: it weighs in the pair's score, but a disagreement on it never by itself makes
   * two people in the clustering guard (the arresting branch: detainees were moved between branches, prisons and
   * hospitals, and a list records whichever unit it knew; the date of death: see below).
   */
  readonly circumstance?: boolean;
  /** The value one record brings to this comparison, for explanations. */
  show(f: RecordFeatures, i: number): string;
}

/** Name similarity thresholds of the "variant", "near" and "similar" levels. */
export const variantSimilarity = 0.9;
export const nearSimilarity = 0.8;
export const similarSimilarity = 0.68;

/**
 * Name levels: within one script (exact, variant, near, similar, different) and across scripts (transliteration —
 * محمد / Mohammad —, near, similar, different), the two groups weighed separately. `near` (0.8–0.9: one habit or
 * slip short of a variant, Mudajsch / مديش, Rain / راعن) was part of `similar`, whose pairs run from a typing slip to
 * two names that share half their letters, all with one weight; apart, a near pair weighs more than a similar one.
 * The near levels come last so that the older levels keep their positions, and a model file written before them
 * still reads (parseModel gives them the similar levels' m and u: the same weights as before).
 */
const nameLevels = [
  'missing',
  'exact',
  'variant',
  'similar',
  'different',
  'transliteration',
  'transliteration_similar',
  'transliteration_different',
  'near',
  'transliteration_near',
] as const;
const nameGroups = [
  [1, 2, 8, 3, 4],
  [5, 9, 6, 7],
] as const;

/** Name levels that count as agreement and as disagreement. */
export function nameAgrees(level: number): boolean {
  return level === 1 || level === 2 || level === 5;
}
export function nameDiffers(level: number): boolean {
  return level === 4 || level === 7;
}

function nameLevel(f: RecordFeatures, va: number, vb: number, sim: NameSimilarity): number {
  if (va < 0 || vb < 0) return 0;
  if (va === vb) return 1;
  const s = sim.get(va, vb);
  if (f.names.latin(va) === f.names.latin(vb)) {
    if (s >= variantSimilarity) return 2;
    if (s >= nearSimilarity) return 8;
    return s >= similarSimilarity ? 3 : 4;
  }
  if (s >= variantSimilarity) return 5;
  if (s >= nearSimilarity) return 9;
  return s >= similarSimilarity ? 6 : 7;
}

/** The sex a record states (a woman known only by her first name states none). */
function recordedSex(code: number): number {
  return code === womanByName ? -1 : code;
}

function motherLevel(f: RecordFeatures, a: number, b: number, sim: NameSimilarity): number {
  const first = nameLevel(f, f.motherFirst[a] as number, f.motherFirst[b] as number, sim);
  if (first === 0) return 0;
  if (nameAgrees(first)) {
    const rest = nameLevel(f, f.motherRest[a] as number, f.motherRest[b] as number, sim);
    if (rest === 0) return 2;
    return nameAgrees(rest) ? 1 : 3;
  }
  return nameDiffers(first) ? 5 : 4;
}

function codeLevel(x: number, y: number): number {
  if (x < 0 || y < 0) return 0;
  return x === y ? 1 : 2;
}

/**
 * Places of origin: one name that holds the other's every word (بصرى / بصرى الشام, Bosra / Busra al-Sham:
 * the same keys) is the same place written shorter. Two names alike but for what transliteration habits disagree on
 * (`placeRelation`'s alike: مشهور / Machour) say nothing either way, as a missing one: the same town spelt two ways,
 * or two towns; a lone such disagreement used to weigh one person's records apart past the guard's tolerance.
 */
function placeLevel(f: RecordFeatures, x: number, y: number): number {
  if (x < 0 || y < 0) return 0;
  if (x === y) return 1;
  const relation = f.placeRelation(x, y);
  return relation === 'nests' ? 1 : relation === 'alike' ? 0 : 2;
}

/**
 * Branches: a unit and one above it (a branch and its agency: "Air Force Intelligence" and its Mezzeh
 * investigation branch) do not disagree — one list names the agency, another the branch — so the pair is
 * `missing` there, as for an unknown name against a known one.
 */
function branchLevel(x: number, y: number): number {
  if (x < 0 || y < 0) return 0;
  if (x === y) return 1;
  return branchesNestByCode(x, y) ? 0 : 2;
}

/**
 * Governorates: a name the gazetteer does not know (a town written in the governorate column, another language's
 * name) says nothing against one it knows — it may well lie inside it — so the pair is `missing` there; two unknown
 * names compare as written.
 */
function governorateLevel(x: number, y: number): number {
  if (x < 0 || y < 0) return 0;
  if (x === y) return 1;
  return x >= unknownGovernorateBase !== y >= unknownGovernorateBase ? 0 : 2;
}

function birthLevel(f: RecordFeatures, a: number, b: number): number {
  const ya = f.birthYear[a] as number;
  const yb = f.birthYear[b] as number;
  if (ya < 0 || yb < 0) return 0;
  if (ya === yb) {
    const da = f.birthDay[a] as number;
    const db = f.birthDay[b] as number;
    if (da === 0 || db === 0) return 3;
    const ma = f.birthMonth[a] as number;
    const mb = f.birthMonth[b] as number;
    if (ma === mb && da === db) return 1;
    if (ma === db && da === mb) return 2;
    return 4;
  }
  return ya - yb === 1 || yb - ya === 1 ? 5 : 6;
}

/**
 * Proximity of two event dates given at day, month or year precision, judged at the coarser precision of the two:
 * a date known to the month (or the year) that falls in the other's month (year) agrees on all both know, which is
 * its own level (`same_month`, `same_year`) and not "a few days or months apart". A family that misremembers the
 * year of an arrest is more often one or two years out than more: `within_two_years` (a year to two apart) was
 * part of `different`; apart, it weighs against a pair less than dates further apart (world B, dev seed 7: F1 /
 * ceiling +0.0037 at 20k, +0.0035 at 100k; A +0.0003, −0.0002).
 */
function eventLevel(dayA: number, pa: number, dayB: number, pb: number): number {
  if (pa === precision.none || pb === precision.none) return 0;
  const d = dayA > dayB ? dayA - dayB : dayB - dayA;
  if (pa === precision.day && pb === precision.day) {
    if (d === 0) return 1;
    if (d <= 30) return 3;
    return d <= 365 ? 5 : d <= 730 ? 7 : 6;
  }
  const ma = monthOfEpochDay(dayA);
  const mb = monthOfEpochDay(dayB);
  if (pa >= precision.month && pb >= precision.month) {
    if (ma === mb) return 2;
    if (d <= 45) return 3;
    return d <= 396 ? 5 : d <= 761 ? 7 : 6;
  }
  const years = Math.abs(Math.floor(ma / 12) - Math.floor(mb / 12));
  if (years === 0) return 4;
  return years === 1 ? 5 : years === 2 ? 7 : 6;
}

function detaineeLevel(f: RecordFeatures, a: number, b: number): number {
  const na = f.detainee[a] as number;
  const nb = f.detainee[b] as number;
  if (na < 0 || nb < 0) return 0;
  const ba = f.branch[a] as number;
  const bb = f.branch[b] as number;
  // Numbers are given per branch: across two known branches they say nothing — unless one names the other's agency
  // (a forensic card's الجوية, the register's Air Force Intelligence branch).
  if (ba >= 0 && bb >= 0 && !branchesNestByCode(ba, bb)) return 0;
  if (na === nb) return ba >= 0 && bb >= 0 ? 1 : 2;
  return ba >= 0 && ba === bb ? 3 : 0;
}

/** How many leading comparisons are the family line. */
export const lineageCount = 4;

/**
 * Every comparison's level for a pair, into `out`, in the order of `comparisons`. `from` lets the scorer compute the
 * family line first and the rest after.
 */
export function compareAll(
  f: RecordFeatures,
  a: number,
  b: number,
  sim: NameSimilarity,
  out: Uint8Array,
  from = 0,
  to = 13,
): void {
  if (from <= 0 && to > 0) out[0] = nameLevel(f, f.family[a] as number, f.family[b] as number, sim);
  if (from <= 1 && to > 1) out[1] = nameLevel(f, f.father[a] as number, f.father[b] as number, sim);
  if (from <= 2 && to > 2) out[2] = nameLevel(f, f.grandfather[a] as number, f.grandfather[b] as number, sim);
  if (from <= 3 && to > 3) out[3] = motherLevel(f, a, b, sim);
  if (to <= 4) return;
  out[4] = nameLevel(f, f.first[a] as number, f.first[b] as number, sim);
  out[5] = codeLevel(recordedSex(f.sex[a] as number), recordedSex(f.sex[b] as number));
  out[6] = birthLevel(f, a, b);
  out[7] = governorateLevel(f.governorate[a] as number, f.governorate[b] as number);
  out[8] = placeLevel(f, f.place[a] as number, f.place[b] as number);
  out[9] = eventLevel(
    f.arrestDay[a] as number,
    f.arrestPrecision[a] as number,
    f.arrestDay[b] as number,
    f.arrestPrecision[b] as number,
  );
  out[10] = branchLevel(f.branch[a] as number, f.branch[b] as number);
  out[11] = detaineeLevel(f, a, b);
  out[12] = eventLevel(
    f.deathDay[a] as number,
    f.deathPrecision[a] as number,
    f.deathDay[b] as number,
    f.deathPrecision[b] as number,
  );
}

function showName(f: RecordFeatures, v: number): string {
  return v < 0 ? '' : f.names.form(v);
}

function nameComparison(name: string, column: 'first' | 'father' | 'grandfather' | 'family'): Comparison {
  return {
    name,
    levels: nameLevels,
    lineage: column !== 'first',
    groups: nameGroups,
    termFrequency: { column, levels: [1, 2, 5] },
    later: [
      ['near', 'similar'],
      ['transliteration_near', 'transliteration_similar'],
    ],
    show: (f, i) => showName(f, f[column][i] as number),
  };
}

function codeComparison(name: string, show: (f: RecordFeatures, i: number) => string): Comparison {
  return { name, levels: ['missing', 'same', 'different'], show };
}

function eventComparison(
  name: string,
  day: 'arrestDay' | 'deathDay',
  prec: 'arrestPrecision' | 'deathPrecision',
) {
  const comparison: Comparison = {
    name,
    levels: [
      'missing',
      'same_day',
      'same_month',
      'within_30_days',
      'same_year',
      'within_a_year',
      'different',
      'within_two_years',
    ],
    later: [['within_two_years', 'different']],
    show(f, i) {
      const p = f[prec][i] as number;
      if (p === precision.none) return '';
      const date = new Date((f[day][i] as number) * 86_400_000).toISOString();
      return p === precision.day
        ? date.slice(0, 10)
        : p === precision.month
          ? date.slice(0, 7)
          : date.slice(0, 4);
    },
  };
  return comparison;
}

/**
 * The model's comparisons, in `compareAll`'s order (the model file lists them in the same order): the family line
 * first (family, father, grandfather, mother), then the person's own fields.
 */
export const comparisons: readonly Comparison[] = [
  nameComparison('family_name', 'family'),
  nameComparison('father_name', 'father'),
  nameComparison('grandfather_name', 'grandfather'),
  {
    name: 'mother_name',
    lineage: true,
    levels: ['missing', 'full_agrees', 'first_agrees', 'first_agrees_rest_differs', 'similar', 'different'],
    termFrequency: { column: 'motherFirst', levels: [1, 2, 3] },
    show(f, i) {
      const first = f.motherFirst[i] as number;
      const rest = f.motherRest[i] as number;
      if (first < 0) return '';
      return rest < 0 ? f.names.form(first) : `${f.names.form(first)} ${f.names.form(rest)}`;
    },
  },
  nameComparison('first_name', 'first'),
  codeComparison('sex', (f, i) => (f.sex[i] === 1 ? 'male' : f.sex[i] === 2 ? 'female' : '')),
  {
    name: 'birth_date',
    levels: [
      'missing',
      'exact_date',
      'day_month_swapped',
      'same_year',
      'same_year_date_differs',
      'year_off_by_one',
      'different',
    ],
    show(f, i) {
      const y = f.birthYear[i] as number;
      if (y < 0) return '';
      return formatDate({ year: y, month: f.birthMonth[i] as number, day: f.birthDay[i] as number });
    },
  },
  codeComparison('governorate', (f, i) => f.placeLabel('governorate', f.governorate[i] as number)),
  codeComparison('place_of_origin', (f, i) => {
    const code = f.place[i] as number;
    return code < 0 ? '' : (f.places.values[code] ?? '');
  }),
  eventComparison('arrest_date', 'arrestDay', 'arrestPrecision'),
  {
    ...codeComparison('arresting_branch', (f, i) => f.placeLabel('branch', f.branch[i] as number)),
    circumstance: true,
  },
  {
    name: 'detainee_number',
    levels: ['missing', 'same_number_same_branch', 'same_number', 'different_number_same_branch'],
    show: (f, i) => f.detaineeLabel(f.detainee[i] as number),
  },
  // The date of death is a circumstance too: a civil registry often recorded a detainee's death under a date of
  // its own (years later, when the family was told), and a notice gives the day the family learnt it.
  { ...eventComparison('death_date', 'deathDay', 'deathPrecision'), circumstance: true },
];

/** The family name's comparison, by index (the guard and a woman's family names treat it apart). */
export const familyNameAt = comparisons.findIndex((c) => c.name === 'family_name');

/**
 * Who two different people sharing what this pair shares usually are; each context has its own u. A pair whose
 * family name agrees is weighed against relatives and namesakes, whose towns, raids and branches often coincide; a
 * pair whose whole family line agrees (family and father's name, no grandfather or mother in conflict) against
 * siblings, and the family line then counts once, jointly.
 */
export const contexts = ['strangers', 'same_family_name', 'same_family_line'] as const;
export type Context = 0 | 1 | 2;

export function contextOf(levels: Uint8Array): Context {
  if (!nameAgrees(levels[0] as number)) return 0;
  if (nameAgrees(levels[1] as number) && !nameDiffers(levels[2] as number) && levels[3] !== 5) return 2;
  return 1;
}

/** A comparison's level groups (see Comparison.groups). */
export function levelGroups(comparison: Comparison): readonly (readonly number[])[] {
  return comparison.groups ?? [Array.from({ length: comparison.levels.length - 1 }, (_, k) => k + 1)];
}
