/**
 * World A, "diaspora and commission lists": people recorded by their families in Arabic with the full chain of
 * names, and by commissions, NGOs and the press abroad in Latin script under French, German, Turkish and English
 * spelling habits — the article as Al-/El-/Al /glued/dropped, bin/ibn chains, names in family-first order, a kunya
 * for the first name, women under a husband's family name, dates written day-first with day and month swapped,
 * Arabic-Indic digits, and every source with its own field coverage. Its own RNG (mulberry32) and assumptions;
 * nothing shared with athar synth.
 */
import { branches } from '../../src/gazetteer/index.js';
import {
  arabicOf,
  commonFamilies,
  femaleFirst,
  type Habit,
  type LatinOptions,
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

class Mulberry {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next = (): number => {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let z = this.s;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
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
  /** Index under a Zipf law of exponent s over n items. */
  zipf(cdf: Float64Array): number {
    const x = this.next() * (cdf[cdf.length - 1] as number);
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cdf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function zipfCdf(n: number, s: number): Float64Array {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) {
    total += 1 / (k + 1) ** s;
    cdf[k] = total;
  }
  return cdf;
}

interface Person {
  first: PoolName;
  father: PoolName;
  grandfather: PoolName;
  family: PoolName;
  husbandFamily?: PoolName;
  motherFirst: PoolName;
  motherFamily: PoolName;
  female: boolean;
  birth: number;
  town: Town;
  arrest: number;
  branch: number;
  detainee: string;
  death: number;
}

// The gazetteer's first 17 units, as it stood when this world was written (later units would change its data).
const detentionBranches = branches.slice(0, 17);

export function diasporaWorld(people: number, seed = 1): World {
  const r = new Mulberry(seed * 7919 + 17);
  const families: PoolName[] = [...commonFamilies];
  const generated = new Set(families.map((f) => f.roman));
  // The invented family names run out near 159k distinct spellings: past 300k people (1M records) families grow
  // instead of multiplying, or the loop below would never end.
  const familyCount = Math.min(100_000, Math.max(200, Math.floor(people / 3)));
  while (families.length < familyCount) {
    const f = makeFamily(r.next);
    if (!generated.has(f.roman)) {
      generated.add(f.roman);
      families.push(f);
    }
  }
  const familyCdf = zipfCdf(families.length, 0.75);
  const maleCdf = zipfCdf(maleFirst.length, 1.0);
  const femaleCdf = zipfCdf(femaleFirst.length, 0.9);
  const townCdf = zipfCdf(towns.length, 0.6);
  const male = () => maleFirst[r.zipf(maleCdf)] as PoolName;
  const female = () => femaleFirst[r.zipf(femaleCdf)] as PoolName;

  // Households: a father (son of a grandfather of the clan), a mother, one to four detained children.
  const persons: Person[] = [];
  const serials = new Map<number, number>();
  while (persons.length < people) {
    const family = families[r.zipf(familyCdf)] as PoolName;
    const town = towns[r.zipf(townCdf)] as Town;
    const grandfather = male();
    const households = 1 + r.int(3);
    for (let h = 0; h < households && persons.length < people; h++) {
      const father = male();
      const motherFirst = female();
      const motherFamily = families[r.zipf(familyCdf)] as PoolName;
      const children = 1 + r.int(r.chance(0.5) ? 1 : 4);
      const raid = dayOf(2011, 4, 1) + r.int(8 * 365);
      const raidBranch = r.int(detentionBranches.length);
      const eldest = 1955 + r.int(42);
      for (let c = 0; c < children && persons.length < people; c++) {
        const isFemale = r.chance(0.14);
        const year = Math.min(2004, eldest + c * (1 + r.int(4)));
        const together = r.chance(0.45);
        const arrest = together ? raid + r.int(3) : dayOf(2011, 3, 15) + r.int(9 * 365);
        const branch = together ? raidBranch : r.int(detentionBranches.length);
        const serial = (serials.get(branch) ?? 0) + 1 + r.int(40);
        serials.set(branch, serial);
        const dead = r.chance(0.3);
        const person: Person = {
          first: isFemale ? female() : male(),
          father,
          grandfather,
          family,
          motherFirst,
          motherFamily,
          female: isFemale,
          birth: dayOf(year, 1 + r.int(12), 1 + r.int(28)),
          town,
          arrest,
          branch,
          detainee: String(serial + 1000 * (1 + branch)),
          death: dead ? arrest + 20 + r.int(1500) : -1,
        };
        if (isFemale && year < 1996 && r.chance(0.7)) person.husbandFamily = families[r.zipf(familyCdf)];
        persons.push(person);
      }
    }
  }

  const truth: string[][] = persons.map((p) => {
    const values: Record<string, string> = {
      first: p.first.roman,
      father: p.father.roman,
      grandfather: p.grandfather.roman,
      family: p.family.roman,
      mother: `${p.motherFirst.roman} ${p.motherFamily.roman}`,
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
    return identityAttributes.map((a) => values[a] ?? '');
  });

  const latinOpts = (habit: Habit, conventional: number): LatinOptions => ({
    habit,
    pick: (xs) => r.pick(xs),
    chance: (p) => r.chance(p),
    conventional,
  });
  const ar = (name: PoolName) => {
    let s = arabicOf(name);
    if (r.chance(0.08)) s = s.replace(/^[أإآ]/, 'ا');
    if (r.chance(0.08)) s = s.replace(/ة$/, 'ه');
    if (r.chance(0.06)) s = s.replace(/ى$/, 'ي');
    if (s.startsWith('عبد ') && r.chance(0.5)) s = s.replace('عبد ', 'عبد');
    return s;
  };
  const arFamily = (name: PoolName) => {
    const s = ar(name);
    return s.startsWith('ال') && r.chance(0.15) ? s.slice(2) : s;
  };
  const governorateLatin = (id: string, habit: Habit) => {
    const table: Record<string, Record<Habit, string>> = {
      damascus: { english: 'Damascus', french: 'Damas', german: 'Damaskus', turkish: 'Şam' },
      aleppo: { english: 'Aleppo', french: 'Alep', german: 'Aleppo', turkish: 'Halep' },
      homs: { english: 'Homs', french: 'Homs', german: 'Homs', turkish: 'Humus' },
      hama: { english: 'Hama', french: 'Hama', german: 'Hama', turkish: 'Hama' },
      'rif-dimashq': {
        english: 'Rif Dimashq',
        french: 'Rif Dimachq',
        german: 'Rif Dimaschq',
        turkish: 'Şam Kırsalı',
      },
      daraa: { english: 'Daraa', french: 'Deraa', german: 'Daraa', turkish: 'Dera' },
      idlib: { english: 'Idlib', french: 'Idleb', german: 'Idlib', turkish: 'İdlib' },
    };
    return table[id]?.[habit] ?? id.replace(/-/g, ' ');
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
  const shift = (day: number, spread: number) => day + r.int(2 * spread + 1) - spread;
  const dmy = (day: number, sep: string, swap: boolean) => {
    const [y, m, d] = isoDay(day).split('-') as [string, string, string];
    return swap ? `${m}${sep}${d}${sep}${y}` : `${d}${sep}${m}${sep}${y}`;
  };

  const records: { person: number; fields: Record<string, string>; carries: number }[] = [];
  const push = (person: number, source: string, fields: Record<string, string>, carries: number) => {
    fields.source = source;
    fields.notes = worldLabel;
    records.push({ person, fields, carries });
  };
  const B = bit;

  persons.forEach((p, i) => {
    const familyOf = (useHusband: boolean) => (useHusband && p.husbandFamily ? p.husbandFamily : p.family);
    const carriesFamily = (useHusband: boolean) => (useHusband && p.husbandFamily ? 0 : B('family'));
    let made = 0;
    // Family reports: Arabic, the full chain, the mother, dates as remembered.
    if (r.chance(0.55)) {
      made++;
      const f: Record<string, string> = {};
      let c = B('first') | B('father') | B('family');
      f.first_name = ar(p.first);
      f.father_name = ar(p.father);
      if (r.chance(0.85)) {
        f.grandfather_name = ar(p.grandfather);
        c |= B('grandfather');
      }
      f.family_name = arFamily(p.family);
      if (r.chance(0.6)) {
        f.mother_name = `${ar(p.motherFirst)} ${arFamily(p.motherFamily)}`;
        c |= B('mother');
      }
      if (r.chance(0.7)) {
        f.sex = p.female ? 'أنثى' : 'ذكر';
        c |= B('sex');
      }
      const digits = r.chance(0.3) ? arabicDigits : (s: string) => s;
      if (r.chance(0.3)) {
        f.birth_date = digits(isoDay(p.birth));
        c |= B('birthYear') | B('birthDate');
      } else if (r.chance(0.7)) {
        f.birth_year = digits(isoDay(p.birth).slice(0, 4));
        c |= B('birthYear');
      }
      if (r.chance(0.85)) {
        f.governorate = governorateArabic[p.town.governorate] ?? '';
        c |= B('governorate');
      }
      if (r.chance(0.6)) {
        f.place_of_origin = p.town.arabic;
        c |= B('town');
      }
      if (r.chance(0.8)) {
        const day = r.chance(0.5) ? p.arrest : shift(p.arrest, 45);
        f.arrest_date = digits(r.chance(0.2) ? isoDay(day).slice(0, 7) : isoDay(day));
        c |= B('arrestDate');
      }
      if (r.chance(0.35)) {
        const b = detentionBranches[p.branch];
        f.arresting_branch = b ? b.nameAr.replace(/\s*\(.*\)$/, '') : '';
        c |= B('branch');
      }
      if (p.death >= 0 && r.chance(0.4)) {
        f.death_date = digits(isoDay(shift(p.death, 10)));
        c |= B('deathDate');
      }
      push(i, `world-a-family-reports-${r.pick(['north', 'south'])}`, f, c);
    }
    // A French-speaking commission's list: first and family name, sometimes the father; dates day first.
    if (r.chance(0.25)) {
      made++;
      const o = latinOpts('french', 0.5);
      const husband = r.chance(0.6);
      const f: Record<string, string> = {};
      let c = B('first') | carriesFamily(husband);
      f.first_name = latinOf(p.first, o);
      f.family_name = latinOf(familyOf(husband), o);
      if (r.chance(0.4)) {
        f.father_name = latinOf(p.father, o);
        c |= B('father');
      }
      if (r.chance(0.6)) {
        f.birth_date = dmy(p.birth, '/', r.chance(0.1));
        c |= B('birthYear') | B('birthDate');
      }
      if (r.chance(0.5)) {
        f.governorate = governorateLatin(p.town.governorate, 'french');
        c |= B('governorate');
      }
      if (r.chance(0.4)) {
        f.place_of_origin = r.pick(p.town.latin);
        c |= B('town');
      }
      if (r.chance(0.7)) {
        f.arrest_date = dmy(shift(p.arrest, 20), '/', false);
        c |= B('arrestDate');
      }
      push(i, 'world-a-commission-fr', f, c);
    }
    // A German NGO's list: one full-name column, sometimes family name first.
    if (r.chance(0.15)) {
      made++;
      const o = latinOpts('german', 0.35);
      const husband = r.chance(0.5);
      const f: Record<string, string> = {};
      let c = B('first') | carriesFamily(husband);
      const first = latinOf(p.first, o);
      const family = latinOf(familyOf(husband), o);
      const withFather = r.chance(0.5);
      const father = withFather ? latinOf(p.father, o) : '';
      if (withFather) c |= B('father');
      if (r.chance(0.12)) {
        // Family-first order, as a register sorted by family name writes it.
        f.family_name = family;
        f.first_name = first;
        if (withFather) f.father_name = father;
      } else {
        f.full_name = [first, father, family].filter(Boolean).join(' ');
      }
      if (r.chance(0.7)) {
        f.birth_year = isoDay(p.birth).slice(0, 4);
        c |= B('birthYear');
      }
      if (r.chance(0.5)) {
        f.place_of_origin = r.pick(p.town.latin);
        c |= B('town');
      }
      if (r.chance(0.3)) {
        f.sex = p.female ? 'weiblich' : 'männlich';
      }
      push(i, 'world-a-ngo-de', f, c);
    }
    // A Turkish camp registry: first, father and family name, a full birth date, the town.
    if (r.chance(0.15)) {
      made++;
      const o = latinOpts('turkish', 0.4);
      const f: Record<string, string> = {};
      let c = B('first') | B('father') | B('family') | B('sex');
      f.first_name = latinOf(p.first, o);
      f.father_name = latinOf(p.father, o);
      f.family_name = latinOf(p.family, o);
      f.sex = p.female ? 'F' : 'M';
      if (r.chance(0.8)) {
        const birth = r.chance(0.15) ? p.birth + 365 * (r.chance(0.5) ? 1 : -1) : p.birth;
        f.birth_date = dmy(birth, '.', r.chance(0.05));
        c |= B('birthYear') | B('birthDate');
      }
      if (r.chance(0.7)) {
        f.place_of_origin = r.pick(p.town.latin);
        c |= B('town');
      }
      push(i, 'world-a-camp-tr', f, c);
    }
    // English press and advocacy lists: a full name with bin/ibn, or a kunya, or first and family.
    if (r.chance(0.2)) {
      made++;
      const o = latinOpts('english', 0.6);
      const husband = r.chance(0.4);
      const f: Record<string, string> = {};
      let c = carriesFamily(husband);
      const family = latinOf(familyOf(husband), o);
      const kunya = !p.female && r.chance(0.08);
      const first = kunya ? `Abu ${latinOf(male(), o)}` : latinOf(p.first, o);
      if (!kunya) c |= B('first');
      const style = r.next();
      if (style < 0.25) {
        f.full_name = `${first} ${r.pick(['bin', 'ibn'])} ${latinOf(p.father, o)} ${family}`;
        c |= B('father');
      } else if (style < 0.5) {
        f.full_name = `${first} ${family}`;
      } else {
        f.first_name = first;
        f.family_name = family;
      }
      if (r.chance(0.5)) {
        f.arrest_date = r.chance(0.5) ? isoDay(shift(p.arrest, 30)).slice(0, 7) : isoDay(shift(p.arrest, 10));
        c |= B('arrestDate');
      }
      if (r.chance(0.5)) {
        f.governorate = governorateLatin(p.town.governorate, 'english');
        c |= B('governorate');
      } else if (r.chance(0.4)) {
        f.place_of_origin = r.pick(p.town.latin);
        c |= B('town');
      }
      if (r.chance(0.3)) {
        const b = detentionBranches[p.branch];
        f.arresting_branch = b ? b.nameEn.replace(/\s*\(.*\)$/, '') : '';
        c |= B('branch');
      }
      push(i, 'world-a-press-en', f, c);
    }
    // A branch's own register: three names, the number it gave, the exact arrest date.
    if (r.chance(0.35) || made === 0) {
      const f: Record<string, string> = {};
      let c = B('first') | B('father') | B('family') | B('branch') | B('detainee') | B('arrestDate');
      f.first_name = ar(p.first);
      f.father_name = ar(p.father);
      f.family_name = arFamily(p.family);
      const b = detentionBranches[p.branch];
      f.arresting_branch = b ? b.nameAr.replace(/\s*\(.*\)$/, '') : '';
      f.detainee_number = r.chance(0.3) ? arabicDigits(p.detainee) : p.detainee;
      f.arrest_date = isoDay(p.arrest);
      if (r.chance(0.6)) {
        f.birth_year = isoDay(p.birth).slice(0, 4);
        c |= B('birthYear');
      }
      push(i, `world-a-register-${p.branch}`, f, c);
    }
  });

  const order = shuffled(records, r.next);
  const out: WorldRecord[] = order.map((rec, k) => ({
    person: rec.person,
    carries: rec.carries,
    fields: {
      ...rec.fields,
      record_id: `wa-${String(k + 1).padStart(7, '0')}`,
      source: rec.fields.source ?? '',
    },
  }));
  return {
    name: 'A: diaspora & commission lists',
    description:
      'Arabic family reports with the full chain against French/German/Turkish/English Latin lists (articles in every habit, bin/ibn, family-first order, kunyas, married women under the husband’s name, day-first dates, Arabic-Indic digits)',
    records: out,
    people: truth,
  };
}
