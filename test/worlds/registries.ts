/**
 * World B, "scanned and typed registries": Arabic lists typed on Persian keyboards (ی ک), with tatweel and
 * diacritics; scanned lists read by OCR (letters whose dots were lost or misplaced, dropped letters, digits
 * misread); families' recollections with dates weeks or a year off, a town only or a governorate only, a town
 * written where the governorate should be; hospital and death lists with a three-part name. Its own RNG (sfc32)
 * and assumptions; nothing shared with athar synth or world A's habits beyond the name pools' romanisation.
 */
import { branches } from '../../src/gazetteer/index.js';
import {
  arabicOf,
  commonFamilies,
  femaleFirst,
  latinOf,
  makeFamily,
  maleFirst,
  type PoolName,
  type Town,
  towns,
} from './names.js';
import {
  arabicDigits,
  bit,
  dayOf,
  identityAttributes,
  isoDay,
  shuffled,
  type World,
  type WorldRecord,
  worldLabel,
} from './world.js';

class Sfc32 {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let k = 0; k < 15; k++) this.next();
  }
  next = (): number => {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  };
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }
  /** A power-law draw over n items (rank^-s by inversion of a continuous approximation). */
  power(n: number, s: number): number {
    const u = this.next();
    if (s === 1) return Math.max(0, Math.min(n - 1, Math.floor(Math.exp(u * Math.log(n + 1))) - 1));
    const e = 1 - s;
    return Math.max(0, Math.min(n - 1, Math.floor((((n + 1) ** e - 1) * u + 1) ** (1 / e)) - 1));
  }
}

interface Person {
  first: PoolName;
  father: PoolName;
  grandfather: PoolName;
  family: PoolName;
  mother: PoolName;
  motherFamily: PoolName;
  female: boolean;
  birth: number;
  town: Town;
  arrest: number;
  branch: number;
  detainee: string;
  death: number;
}

const detentionBranches = branches.slice(0, 14);

/** Letters OCR confuses (dots lost or misplaced), each with what it is read as. */
const ocrSlips: Record<string, readonly string[]> = {
  ب: ['ت', 'ث', 'ن', 'ي'],
  ت: ['ب', 'ث', 'ن'],
  ث: ['ت', 'ب'],
  ن: ['ب', 'ت'],
  ج: ['ح', 'خ'],
  ح: ['ج', 'خ'],
  خ: ['ح', 'ج'],
  د: ['ذ', 'ر'],
  ذ: ['د'],
  ر: ['ز', 'د'],
  ز: ['ر'],
  س: ['ش'],
  ش: ['س'],
  ص: ['ض'],
  ض: ['ص'],
  ط: ['ظ'],
  ع: ['غ'],
  غ: ['ع'],
  ف: ['ق'],
  ق: ['ف'],
  ة: ['ه', 'ت'],
  ى: ['ي'],
};

const governorateArabic: Record<string, string> = {
  damascus: 'دمشق',
  aleppo: 'حلب',
  homs: 'حمص',
  hama: 'حماة',
  'rif-dimashq': 'ريف دمشق',
  daraa: 'درعا',
  idlib: 'إدلب',
  'deir-ez-zor': 'دير الزور',
  raqqa: 'الرقة',
  hasakah: 'الحسكة',
  latakia: 'اللاذقية',
  tartus: 'طرطوس',
  'as-suwayda': 'السويداء',
  quneitra: 'القنيطرة',
};

export function registriesWorld(people: number, seed = 1): World {
  const r = new Sfc32(seed * 104729 + 3);
  const families: PoolName[] = [...commonFamilies];
  const seen = new Set(families.map((f) => f.roman));
  // The invented family names run out near 159k distinct spellings: past 250k people (1M records) families grow
  // instead of multiplying, or the loop below would never end.
  const familyCount = Math.min(100_000, Math.max(200, Math.floor(people / 2.5)));
  while (families.length < familyCount) {
    const f = makeFamily(r.next);
    if (!seen.has(f.roman)) {
      seen.add(f.roman);
      families.push(f);
    }
  }
  const family = () => families[r.power(families.length, 0.8)] as PoolName;
  const male = () => maleFirst[r.power(maleFirst.length, 1.1)] as PoolName;
  const female = () => femaleFirst[r.power(femaleFirst.length, 1)] as PoolName;
  const town = () => towns[r.power(towns.length, 0.7)] as Town;

  // Clans of cousins: a family name and town, several fathers under one or two grandfathers.
  const persons: Person[] = [];
  let serial = 1;
  while (persons.length < people) {
    const fam = family();
    const home = town();
    const grandfathers = [male(), male()];
    const fathers = 1 + r.int(4);
    for (let h = 0; h < fathers && persons.length < people; h++) {
      const father = male();
      const grandfather = r.pick(grandfathers);
      const mother = female();
      const motherFamily = r.chance(0.3) ? fam : family();
      const kids = r.chance(0.6) ? 1 : 2 + r.int(3);
      const raid = dayOf(2011, 6, 1) + r.int(7 * 365);
      for (let k = 0; k < kids && persons.length < people; k++) {
        const isFemale = r.chance(0.12);
        const branch = r.int(detentionBranches.length);
        const arrest = r.chance(0.5) ? raid + r.int(2) : dayOf(2011, 3, 1) + r.int(8 * 365);
        serial += 1 + r.int(25);
        const dead = r.chance(0.35);
        persons.push({
          first: isFemale ? female() : k === 0 && r.chance(0.25) ? grandfather : male(),
          father,
          grandfather,
          family: fam,
          mother,
          motherFamily,
          female: isFemale,
          birth: dayOf(1950 + r.int(55), 1 + r.int(12), 1 + r.int(28)),
          town: r.chance(0.85) ? home : town(),
          arrest,
          branch,
          detainee: String(serial),
          death: dead ? arrest + 10 + r.int(1800) : -1,
        });
      }
    }
  }

  const truth = persons.map((p) => {
    const v: Record<string, string> = {
      first: p.first.roman,
      father: p.father.roman,
      grandfather: p.grandfather.roman,
      family: p.family.roman,
      mother: `${p.mother.roman} ${p.motherFamily.roman}`,
      sex: p.female ? 'f' : 'm',
      birthYear: isoDay(p.birth).slice(0, 4),
      birthDate: isoDay(p.birth),
      governorate: p.town.governorate,
      town: p.town.arabic,
      arrestDate: String(p.arrest),
      branch: String(p.branch),
      detainee: p.detainee,
      deathDate: p.death < 0 ? '' : String(p.death),
    };
    return identityAttributes.map((a) => v[a] ?? '');
  });

  // Keyboard habits of one typist (a row is typed by one person: the habits hold across its fields).
  interface Typist {
    persian: boolean;
    tatweel: boolean;
    harakat: boolean;
  }
  const typist = (): Typist => ({
    persian: r.chance(0.25),
    tatweel: r.chance(0.12),
    harakat: r.chance(0.1),
  });
  const typed = (text: string, t: Typist) => {
    let s = text;
    if (t.persian) s = s.replace(/ي/g, 'ی').replace(/ك/g, 'ک').replace(/ى$/, 'ی');
    if (t.tatweel && s.length > 3 && r.chance(0.5)) {
      const at = 1 + r.int(s.length - 2);
      if (s[at] !== ' ' && s[at - 1] !== ' ' && !'اأإآدذرزوؤة'.includes(s[at - 1] as string))
        s = `${s.slice(0, at)}ـ${s.slice(at)}`;
    }
    if (t.harakat && r.chance(0.6)) {
      const marks = ['\u064E', '\u064F', '\u0650', '\u0651', '\u0652'];
      const at = 1 + r.int(Math.max(1, s.length - 1));
      if (s[at - 1] !== ' ') s = `${s.slice(0, at)}${r.pick(marks)}${s.slice(at)}`;
    }
    if (r.chance(0.04)) s = s.replace(/^[أإآ]/, 'ا');
    return s;
  };
  /** OCR of a scanned page: a letter read as a neighbour (rate per letter), a letter dropped now and then. */
  const scanned = (text: string, rate: number) => {
    let out = '';
    let slips = 0;
    for (const ch of text) {
      const slip = ocrSlips[ch];
      if (slip && slips < 1 && r.chance(rate)) {
        out += r.pick(slip);
        slips++;
      } else if (ch !== ' ' && slips < 1 && text.length > 4 && r.chance(rate / 4)) {
        slips++;
      } else out += ch;
    }
    return out;
  };
  const ocrDigits = (text: string) =>
    text.replace(/[0-9]/g, (d) =>
      r.chance(0.015)
        ? ((
            { '1': '7', '7': '1', '3': '8', '8': '3', '5': '6', '6': '5', '0': '8' } as Record<string, string>
          )[d] ?? d)
        : d,
    );
  const article = (s: string) => (s.startsWith('ال') && r.chance(0.12) ? s.slice(2) : s);
  const weeks = (day: number) => day + (r.chance(0.5) ? 1 : -1) * (7 + r.int(50));

  const records: { person: number; fields: Record<string, string>; carries: number }[] = [];
  const push = (person: number, source: string, fields: Record<string, string>, carries: number) => {
    fields.source = source;
    fields.notes = worldLabel;
    records.push({ person, fields, carries });
  };
  const B = bit;

  persons.forEach((p, i) => {
    let made = 0;
    // Typed registry: four names, the full birth date, the number, the exact arrest date, the governorate.
    if (r.chance(0.45)) {
      made++;
      const t = typist();
      const f: Record<string, string> = {};
      let c = B('first') | B('father') | B('family') | B('branch') | B('detainee') | B('arrestDate');
      f.first_name = typed(arabicOf(p.first), t);
      f.father_name = typed(arabicOf(p.father), t);
      if (r.chance(0.7)) {
        f.grandfather_name = typed(arabicOf(p.grandfather), t);
        c |= B('grandfather');
      }
      f.family_name = typed(article(arabicOf(p.family)), t);
      if (r.chance(0.8)) {
        f.birth_date = isoDay(p.birth);
        c |= B('birthYear') | B('birthDate');
      }
      if (r.chance(0.8)) {
        f.governorate = governorateArabic[p.town.governorate] ?? '';
        c |= B('governorate');
      }
      const b = detentionBranches[p.branch];
      f.arresting_branch = b
        ? r.chance(0.5)
          ? b.nameAr
          : (b.aliases.find((a) => /[\u0600-\u06ff]/.test(a)) ?? b.nameAr)
        : '';
      f.detainee_number = p.detainee;
      f.arrest_date = isoDay(p.arrest);
      push(i, `world-b-typed-registry-${p.branch}`, f, c);
    }
    // Scanned prison list: full name in one column, OCR slips in names and digits, birth year, number.
    if (r.chance(0.3)) {
      made++;
      const f: Record<string, string> = {};
      let c = B('first') | B('father') | B('family') | B('detainee') | B('branch');
      const chain = [arabicOf(p.first), arabicOf(p.father)];
      if (r.chance(0.5)) {
        chain.push(arabicOf(p.grandfather));
        c |= B('grandfather');
      }
      chain.push(article(arabicOf(p.family)));
      f.full_name = chain.map((w) => scanned(w, 0.06)).join(' ');
      if (r.chance(0.7)) {
        f.birth_year = ocrDigits(isoDay(p.birth).slice(0, 4));
        c |= B('birthYear');
      }
      if (r.chance(0.5)) {
        f.arrest_date = ocrDigits(isoDay(p.arrest));
        c |= B('arrestDate');
      }
      f.detainee_number = r.chance(0.5) ? arabicDigits(p.detainee) : p.detainee;
      const b = detentionBranches[p.branch];
      f.arresting_branch = b ? b.nameAr : '';
      push(i, 'world-b-scanned-prison-list', f, c);
    }
    // Family reports, typed by relatives: dates weeks or a year off, a town only or a governorate only.
    if (r.chance(0.5)) {
      made++;
      const t = typist();
      const f: Record<string, string> = {};
      let c = B('first') | B('father') | B('family');
      f.first_name = typed(arabicOf(p.first), t);
      f.father_name = typed(arabicOf(p.father), t);
      if (r.chance(0.6)) {
        f.grandfather_name = typed(arabicOf(p.grandfather), t);
        c |= B('grandfather');
      }
      f.family_name = typed(article(arabicOf(p.family)), t);
      if (r.chance(0.55)) {
        f.mother_name = typed(`${arabicOf(p.mother)} ${article(arabicOf(p.motherFamily))}`, t);
        c |= B('mother');
      }
      if (r.chance(0.6)) {
        const off = r.chance(0.15) ? (r.chance(0.5) ? 1 : -1) : 0;
        f.birth_year = String(Number(isoDay(p.birth).slice(0, 4)) + off);
        c |= B('birthYear');
      }
      const where = r.next();
      if (where < 0.35) {
        f.governorate = governorateArabic[p.town.governorate] ?? '';
        c |= B('governorate');
      } else if (where < 0.7) {
        f.place_of_origin = p.town.arabic;
        c |= B('town');
      } else if (where < 0.85) {
        // The town written in the governorate column.
        f.governorate = p.town.arabic;
        c |= B('town');
      }
      if (r.chance(0.85)) {
        const x = r.next();
        const day =
          x < 0.4
            ? p.arrest
            : x < 0.85
              ? weeks(p.arrest)
              : p.arrest + (r.chance(0.5) ? 1 : -1) * (300 + r.int(130));
        f.arrest_date = r.chance(0.25) ? isoDay(day).slice(0, 7) : isoDay(day);
        c |= B('arrestDate');
      }
      if (r.chance(0.3)) {
        const b = detentionBranches[p.branch];
        f.arresting_branch = b ? b.nameAr : '';
        c |= B('branch');
      }
      if (r.chance(0.4)) {
        f.sex = p.female ? 'انثى' : 'ذكر';
        c |= B('sex');
      }
      push(i, `world-b-family-${r.pick(['1', '2', '3'])}`, f, c);
    }
    // Hospital and death lists: three names, date and place of death.
    if (p.death >= 0 && r.chance(0.4)) {
      made++;
      const f: Record<string, string> = {};
      const c = B('first') | B('father') | B('family') | B('deathDate');
      f.full_name = [arabicOf(p.first), arabicOf(p.father), article(arabicOf(p.family))]
        .map((w) => scanned(w, 0.03))
        .join(' ');
      f.death_date = arabicDigits(isoDay(p.death));
      push(i, 'world-b-hospital-list', f, c);
    }
    // A Latin transcription of the scanned lists, made abroad.
    if (r.chance(0.12) || made === 0) {
      const o = {
        habit: 'english' as const,
        pick: <T>(xs: readonly T[]) => r.pick(xs),
        chance: (q: number) => r.chance(q),
        conventional: 0.5,
      };
      const f: Record<string, string> = {};
      let c = B('first') | B('family');
      f.first_name = latinOf(p.first, o);
      if (r.chance(0.5)) {
        f.father_name = latinOf(p.father, o);
        c |= B('father');
      }
      f.family_name = latinOf(p.family, o);
      if (r.chance(0.5)) {
        f.birth_year = isoDay(p.birth).slice(0, 4);
        c |= B('birthYear');
      }
      if (r.chance(0.6)) {
        f.place_of_origin = r.pick(p.town.latin);
        c |= B('town');
      }
      if (r.chance(0.5)) {
        f.arrest_date = isoDay(weeks(p.arrest)).slice(0, 7);
        c |= B('arrestDate');
      }
      push(i, 'world-b-transcribed-en', f, c);
    }
  });

  const out: WorldRecord[] = shuffled(records, r.next).map((rec, k) => ({
    person: rec.person,
    carries: rec.carries,
    fields: {
      ...rec.fields,
      record_id: `wb-${String(k + 1).padStart(7, '0')}`,
      source: rec.fields.source ?? '',
    },
  }));
  return {
    name: 'B: scanned & typed registries',
    description:
      'typed registries (Persian ی ک, tatweel, diacritics), OCR-read lists (dotting slips, dropped letters, misread digits), family reports with dates weeks or a year off, town or governorate only, a town in the governorate column; hospital lists',
    records: out,
    people: truth,
  };
}
