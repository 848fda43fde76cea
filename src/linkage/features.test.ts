import { describe, expect, it } from 'vitest';
import { branches, governorates } from '../gazetteer/index.js';
import { compareAll, comparisons } from './comparisons.js';
import { detaineeNumberForm, none, RecordFeatures, sexCode } from './features.js';
import { partForm } from './name-kit.js';
import { NameSimilarity } from './similarity-cache.js';
import { featuresOf } from './test-fixtures.js';

/** The matching form of record i's name in a column, '' when it has none. */
const nameAt = (f: RecordFeatures, column: 'first' | 'father' | 'grandfather' | 'family', i: number) => {
  const v = f[column][i] as number;
  return v < 0 ? '' : f.names.form(v);
};

const level = (rows: Parameters<typeof featuresOf>[0], name: string) => {
  const f = featuresOf(rows);
  const out = new Uint8Array(comparisons.length);
  compareAll(f, 0, 1, new NameSimilarity(f.names), out);
  const c = comparisons.findIndex((x) => x.name === name);
  return comparisons[c]?.levels[out[c] as number];
};

describe('prepared records', () => {
  it('parses a full name when no parts are given, and lets parts win when both are', () => {
    const f = featuresOf([
      { full_name: 'محمد أحمد علي المصري' },
      { full_name: 'Mohammad Al-Masri', first_name: 'Mhd' },
    ]);
    expect(f.names.form(f.first[0] as number)).toBe('محمد');
    expect(f.names.form(f.grandfather[0] as number)).toBe('علي');
    expect(f.names.form(f.first[1] as number)).toBe('mhd');
    expect(f.names.form(f.family[1] as number)).toBe('masri');
  });

  it("gives scoring threads every column a comparison reads, and not the order of writing's", () => {
    const f = featuresOf([
      {
        full_name: 'محمد أحمد علي المصري',
        birth_year: '1980',
        place_of_origin: 'داريا',
        arrest_date: '2013-04-02',
      },
      {
        full_name: 'Mohammad Ahmad Al-Masri',
        birth_year: '1981',
        place_of_origin: 'Daraya',
        arrest_date: '2013-05',
      },
      {
        full_name: 'نعالة ابراهيم محمد مطصفي',
        sex: 'ذكر',
        death_date: '2014-01-17',
        arresting_branch: 'الفرع 235',
      },
    ]);
    const snapshot = f.snapshot(true);
    expect(Object.keys(snapshot.columns)).not.toContain('altFirst');
    expect(Object.keys(snapshot.columns)).not.toContain('nameOrder');
    expect(Object.keys(f.snapshot().columns)).toContain('altFirst');
    const worker = RecordFeatures.fromSnapshot(snapshot);
    const pairs = [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const;
    for (const [a, b] of pairs) {
      const mine = new Uint8Array(comparisons.length);
      const theirs = new Uint8Array(comparisons.length);
      compareAll(f, a, b, new NameSimilarity(f.names), mine);
      compareAll(worker, a, b, new NameSimilarity(worker.names), theirs);
      expect([...theirs]).toEqual([...mine]);
    }
  });

  it('resolves governorate and branch aliases to gazetteer codes', () => {
    const f = featuresOf([
      { governorate: 'Rural Damascus', arresting_branch: 'فرع فلسطين' },
      { governorate: 'ريف دمشق', arresting_branch: 'Branch 235' },
      { governorate: 'Atlantis', arresting_branch: 'الفرع 235' },
    ]);
    expect(f.governorate[0]).toBe(governorates.findIndex((g) => g.id === 'rif-dimashq'));
    expect(f.governorate[1]).toBe(f.governorate[0]);
    expect(f.governorate[2]).toBeGreaterThanOrEqual(100);
    const b235 = branches.findIndex((b) => b.id === 'branch-235');
    expect([f.branch[0], f.branch[1], f.branch[2]]).toEqual([b235, b235, b235]);
  });

  it('counts rows without any name and unreadable dates per column, treating them as missing', () => {
    const f = featuresOf([
      { mother_name: 'فاطمة', birth_date: '31/02/1990', arrest_date: '2013-2014' },
      { first_name: 'Ali', birth_date: '1990-01-01', birth_year: 'nineteen', death_date: '2015-13-01' },
    ]);
    expect(f.issues.rowsWithoutName).toBe(1);
    expect(f.issues.invalidDates).toEqual({ birth_date: 1, birth_year: 1, arrest_date: 1, death_date: 1 });
    expect(f.birthYear[0]).toBe(none);
    expect(f.hasName(0)).toBe(false);
    expect(f.hasName(1)).toBe(true);
  });

  it('reads a name family first from the lexicon alone only when its list writes so', () => {
    const f = featuresOf([
      // سليمان, a given name the lexicon does not list: in a family's reports it is the first name.
      { full_name: 'سليمان ياسر حمدان', source: 'family' },
      { full_name: 'محمد احمد مصطفى النرشاوي', source: 'family' },
      // In a register whose other names are written family first, it is the family name.
      { full_name: 'سليمان ياسر حمدان', source: 'register' },
      { full_name: 'الحراكي خديجة جميل سمير', source: 'register' },
    ]);
    f.settleNameOrder();
    const form = (column: 'first' | 'family', i: number) => nameAt(f, column, i);
    expect([form('first', 0), form('family', 0)]).toEqual([partForm('سليمان'), partForm('حمدان')]);
    expect([form('first', 2), form('family', 2)]).toEqual([partForm('ياسر'), partForm('سليمان')]);
  });

  it('reads a given name in capitals among given names as the family name when its list marks family names so', () => {
    // Synthetic lists. A league's list in French writes every family name in capitals; ABBUD, also a given name,
    // is its family name. Another list capitalises a word now and then, given names as often as family names.
    const f = featuresOf([
      { full_name: 'DHANI Ahmad', source: 'league' },
      { full_name: 'LAMIR Mouhamad Ali', source: 'league' },
      { full_name: 'Fadi AL HARIRI', source: 'league' },
      { full_name: 'ABBUD Mohamed', source: 'league' },
      { full_name: 'DHANI Ahmad', source: 'press' },
      { full_name: 'LAMIR Mouhamad Ali', source: 'press' },
      { full_name: 'Fadi AL HARIRI', source: 'press' },
      { full_name: 'AHMAD Mohammed Al-Hassan', source: 'press' },
      { full_name: 'KHALED Omar Al-Masri', source: 'press' },
      { full_name: 'ABBUD Mohamed', source: 'press' },
    ]);
    const form = (column: 'first' | 'family', i: number) => nameAt(f, column, i);
    expect([form('first', 3), form('family', 3)]).toEqual([partForm('ABBUD'), partForm('Mohamed')]);
    expect(f.settleNameOrder()).toBe(1);
    expect([form('first', 3), form('family', 3)]).toEqual([partForm('Mohamed'), partForm('ABBUD')]);
    // Three votes for capitals as the family's mark against two for emphasis: not twice as many, read as written.
    expect([form('first', 9), form('family', 9)]).toEqual([partForm('ABBUD'), partForm('Mohamed')]);
  });

  it('reads family name first the names a list could write either way, when its other names say it writes so', () => {
    const f = featuresOf([
      // A register: two names that say they are written family first, one that cannot say.
      { full_name: 'الحراكي خديجة جميل سمير', source: 'register' },
      { full_name: 'طقابة فاطمة احمد حسن', source: 'register' },
      { full_name: 'نعالة ابراهيم محمد مطصفي', source: 'register' },
      // A family's reports: given name first, and the same undecided name stays as written.
      { full_name: 'محمد احمد مصطفى النرشاوي', source: 'family' },
      { full_name: 'عمر أسامة محمد سلطان', source: 'family' },
      { full_name: 'نعالة ابراهيم محمد مطصفي', source: 'family' },
      // Names in their own columns never move.
      { first_name: 'نعالة', father_name: 'ابراهيم', family_name: 'مطصفي', source: 'register' },
    ]);
    const form = (column: 'first' | 'father' | 'grandfather' | 'family', i: number) => nameAt(f, column, i);
    const as = (...names: string[]) => names.map(partForm);
    expect([form('first', 2), form('family', 2)]).toEqual(as('نعالة', 'مطصفي'));
    expect(f.settleNameOrder()).toBe(1);
    expect(['first', 'father', 'grandfather', 'family'].map((c) => form(c as 'first', 2))).toEqual(
      as('ابراهيم', 'محمد', 'مطصفي', 'نعالة'),
    );
    expect([form('first', 5), form('family', 5)]).toEqual(as('نعالة', 'مطصفي'));
    expect([form('first', 6), form('family', 6)]).toEqual(as('نعالة', 'مطصفي'));
    expect(f.settleNameOrder()).toBe(0);
    // A name read family first because of the others does not vote: two more written given name first tie the
    // register's votes, and a new undecided name stays as written.
    f.add('r7', { full_name: 'محمد احمد مصطفى النرشاوي', source: 'register' });
    f.add('r8', { full_name: 'عمر أسامة محمد سلطان', source: 'register' });
    const late = f.add('r9', { full_name: 'ممعوق ساد عبد الكريم علي', source: 'register' });
    expect(f.settleNameOrder()).toBe(0);
    expect(form('family', late)).toBe(partForm('علي'));
  });

  it('treats a date in a year still to come (an OCR slip: 2073 for 2013) as missing and counts it', () => {
    const next = new Date().getUTCFullYear() + 1;
    const f = featuresOf([
      { first_name: 'Ali', arrest_date: '2073-02-08', death_date: `${next}-01-01`, birth_year: '2081' },
      { first_name: 'Ali', arrest_date: '2013-02-08', death_date: '2014-01-01', birth_year: '1981' },
    ]);
    expect(f.issues.invalidDates).toEqual({ birth_date: 0, birth_year: 1, arrest_date: 1, death_date: 1 });
    expect([f.arrestPrecision[0], f.deathPrecision[0], f.birthYear[0]]).toEqual([0, 0, none]);
    expect([f.arrestPrecision[1], f.deathPrecision[1], f.birthYear[1]]).toEqual([3, 3, 1981]);
  });

  it('reads detainee numbers by their digits', () => {
    expect(detaineeNumberForm('٠٠١٢٣')).toBe('123');
    expect(detaineeNumberForm('No. 4567')).toBe('4567');
    expect(detaineeNumberForm('')).toBe('');
  });
});

describe('comparison levels', () => {
  it('lets a unit and the agency above it not disagree, while two units still do', () => {
    const mezzeh = { arresting_branch: 'فرع التحقيق في المخابرات الجوية' };
    expect(level([{ arresting_branch: 'Air Force Intelligence' }, mezzeh], 'arresting_branch')).toBe(
      'missing',
    );
    expect(
      level([{ arresting_branch: 'State Security' }, { arresting_branch: 'Branch 235' }], 'arresting_branch'),
    ).toBe('different');
    expect(
      level([{ arresting_branch: 'Branch 235' }, { arresting_branch: 'فرع فلسطين' }], 'arresting_branch'),
    ).toBe('same');
  });

  it('reads a place written shorter, with every word of the longer, as the same place', () => {
    expect(level([{ place_of_origin: 'Bosra' }, { place_of_origin: 'بصرى الشام' }], 'place_of_origin')).toBe(
      'same',
    );
    expect(level([{ place_of_origin: 'Douma' }, { place_of_origin: 'داريا' }], 'place_of_origin')).toBe(
      'different',
    );
  });

  it('lets a place spelt in two transliteration habits say nothing, and places alike in two letters still differ', () => {
    for (const [a, b, want] of [
      ['مشهور', 'Machour', 'missing'],
      ['Machour', 'Mansoura', 'different'],
      // حمص and المزة share the coarse skeleton MS: too short to tell one name from two.
      ['حمص', 'المزة', 'different'],
    ]) {
      expect(level([{ place_of_origin: a }, { place_of_origin: b }], 'place_of_origin'), `${a} / ${b}`).toBe(
        want,
      );
    }
  });

  it('reads a city that names its governorate as one place in any spelling', () => {
    expect(level([{ place_of_origin: 'Aleppo' }, { place_of_origin: 'حلب' }], 'place_of_origin')).toBe(
      'same',
    );
    expect(level([{ place_of_origin: 'Lattakia' }, { place_of_origin: 'اللاذقية' }], 'place_of_origin')).toBe(
      'same',
    );
    expect(level([{ place_of_origin: 'Aleppo' }, { place_of_origin: 'Homs' }], 'place_of_origin')).toBe(
      'different',
    );
  });

  it('reads a town in the governorate column as its governorate, and a known town as its governorate when none is given', () => {
    const f = featuresOf([
      { governorate: 'الزبداني' },
      { place_of_origin: 'Talbiseh' },
      { governorate: 'Daraa', place_of_origin: 'Douma' },
    ]);
    expect(governorates[f.governorate[0] as number]?.id).toBe('rif-dimashq');
    expect(governorates[f.governorate[1] as number]?.id).toBe('homs');
    expect(governorates[f.governorate[2] as number]?.id).toBe('daraa');
    expect(
      level([{ place_of_origin: 'Moadamiyeh' }, { place_of_origin: 'معضمية الشام' }], 'place_of_origin'),
    ).toBe('same');
    expect(level([{ governorate: 'ريف دمشق' }, { place_of_origin: 'Zabadani' }], 'governorate')).toBe('same');
  });

  it('takes a kunya written as the first name for no first name at all', () => {
    const f = featuresOf([
      { first_name: 'Abu Ahmad', family_name: 'Halabi' },
      { full_name: 'أبو محمد الحلبي' },
      { first_name: 'Abu Bakr' },
    ]);
    expect(f.first[0]).toBe(none);
    expect(f.first[1]).toBe(none);
    expect(f.names.form(f.family[1] as number)).toBe('حلبي');
    expect(f.first[2]).not.toBe(none);
    expect(level([{ first_name: 'Abu Ahmad' }, { first_name: 'علي' }], 'first_name')).toBe('missing');
  });

  it.each([
    [{ birth_date: '1985-03-07' }, { birth_date: '07/03/1985' }, 'exact_date'],
    [{ birth_date: '1985-03-07' }, { birth_date: '1985-07-03' }, 'day_month_swapped'],
    [{ birth_date: '1985-03-07' }, { birth_year: '1985' }, 'same_year'],
    [{ birth_date: '1985-03-07' }, { birth_date: '1985-04-07' }, 'same_year_date_differs'],
    [{ birth_year: '1985' }, { birth_year: '1986' }, 'year_off_by_one'],
    [{ birth_year: '1985' }, { birth_year: '1990' }, 'different'],
    [{ birth_year: '1985' }, {}, 'missing'],
  ])('birth %j vs %j is %s', (a, b, want) => {
    expect(level([a, b], 'birth_date')).toBe(want);
  });

  it.each([
    [{ arrest_date: '2013-05-01' }, { arrest_date: '2013-05-01' }, 'same_day'],
    [{ arrest_date: '2013-05-01' }, { arrest_date: '2013-05-20' }, 'within_30_days'],
    [{ arrest_date: '2013-05-01' }, { arrest_date: '2014-03-01' }, 'within_a_year'],
    // A year to two apart (a family that misremembers the year), and further.
    [{ arrest_date: '2013-05-01' }, { arrest_date: '2015-05-01' }, 'within_two_years'],
    [{ arrest_date: '2013-05-01' }, { arrest_date: '2015-05-02' }, 'different'],
    // Known to the month against a full date or a month: agreement on all both give.
    [{ arrest_date: '2013-05' }, { arrest_date: '2013-05-20' }, 'same_month'],
    [{ arrest_date: '2013-05' }, { arrest_date: '20/05/2013' }, 'same_month'],
    [{ arrest_date: '2013-05' }, { arrest_date: '2013-05' }, 'same_month'],
    [{ arrest_date: '2013-05' }, { arrest_date: '2013-06-10' }, 'within_30_days'],
    [{ arrest_date: '2013-05' }, { arrest_date: '2013-04' }, 'within_30_days'],
    [{ arrest_date: '2013-05' }, { arrest_date: '2013-12-31' }, 'within_a_year'],
    [{ arrest_date: '2013-05' }, { arrest_date: '2015-03' }, 'within_two_years'],
    [{ arrest_date: '2013-05' }, { arrest_date: '2016-05-20' }, 'different'],
    // Known to the year: the calendar year decides, not the distance from 1 January.
    [{ arrest_date: '2013' }, { arrest_date: '2013-11-20' }, 'same_year'],
    [{ arrest_date: '2013' }, { arrest_date: '2013-12-31' }, 'same_year'],
    [{ arrest_date: '2013' }, { arrest_date: '2013-02' }, 'same_year'],
    [{ arrest_date: '2013' }, { arrest_date: '2013' }, 'same_year'],
    [{ arrest_date: '2013' }, { arrest_date: '2012-12-31' }, 'within_a_year'],
    [{ arrest_date: '2013' }, { arrest_date: '2014-11' }, 'within_a_year'],
    [{ arrest_date: '2013' }, { arrest_date: '2015-12-31' }, 'within_two_years'],
    [{ arrest_date: '2013' }, { arrest_date: '2016-01-01' }, 'different'],
    [{ arrest_date: '2013' }, {}, 'missing'],
  ])('arrest %j vs %j is %s', (a, b, want) => {
    expect(level([a, b], 'arrest_date')).toBe(want);
  });

  it.each([
    [{ death_date: '2014-02-28' }, { death_date: '28/02/2014' }, 'same_day'],
    [{ death_date: '2014-02' }, { death_date: '2014-02-28' }, 'same_month'],
    [{ death_date: '2014' }, { death_date: '2014-02-28' }, 'same_year'],
    [{ death_date: '2014' }, { death_date: '2015-01-02' }, 'within_a_year'],
  ])('death %j vs %j is %s', (a, b, want) => {
    expect(level([a, b], 'death_date')).toBe(want);
  });

  it.each([
    [
      { detainee_number: '1234', arresting_branch: 'Branch 235' },
      { detainee_number: '١٢٣٤', arresting_branch: 'فرع فلسطين' },
      'same_number_same_branch',
    ],
    [{ detainee_number: '1234', arresting_branch: 'Branch 235' }, { detainee_number: '1234' }, 'same_number'],
    [
      { detainee_number: '1234', arresting_branch: 'Branch 235' },
      { detainee_number: '99', arresting_branch: 'Palestine Branch' },
      'different_number_same_branch',
    ],
    [
      { detainee_number: '1234', arresting_branch: 'Branch 235' },
      { detainee_number: '99', arresting_branch: 'Branch 215' },
      'missing',
    ],
  ])('detainee %j vs %j is %s', (a, b, want) => {
    expect(level([a, b], 'detainee_number')).toBe(want);
  });

  it('tells names within a script from names across scripts', () => {
    expect(level([{ first_name: 'محمد' }, { first_name: 'محمد' }], 'first_name')).toBe('exact');
    expect(level([{ first_name: 'محمد' }, { first_name: 'Mohammad' }], 'first_name')).toBe('transliteration');
    expect(level([{ first_name: 'Mohammad' }, { first_name: 'Mohamad' }], 'first_name')).toBe('variant');
    // A vowel or a habit short of a variant: near (0.8–0.9), weighed above similar.
    expect(level([{ family_name: 'Mahbabe' }, { family_name: 'Mahbube' }], 'family_name')).toBe('near');
    expect(level([{ family_name: 'Dakih' }, { family_name: 'Dakir' }], 'family_name')).toBe('similar');
    expect(level([{ family_name: 'Thamaw' }, { family_name: 'ثماو' }], 'family_name')).toBe(
      'transliteration_near',
    );
    expect(level([{ first_name: 'Samir' }, { first_name: 'سامر' }], 'first_name')).toBe(
      'transliteration_similar',
    );
    expect(level([{ first_name: 'سامر' }, { first_name: 'Khaled' }], 'first_name')).toBe(
      'transliteration_different',
    );
    expect(level([{ mother_name: 'فاطمة الحلبي' }, { mother_name: 'فاطمه' }], 'mother_name')).toBe(
      'first_agrees',
    );
    expect(level([{ mother_name: 'فاطمة الحلبي' }, { mother_name: 'فاطمة حلبي' }], 'mother_name')).toBe(
      'full_agrees',
    );
  });
});

describe('sex as lists write it', () => {
  it('reads Arabic, English, French, German and Turkish words and letters', () => {
    for (const male of [
      'ذكر',
      'M',
      'male',
      'Homme',
      'masculin',
      'männlich',
      'Erkek',
      'E',
      'ذ',
      'مذكر',
      'boy',
      'Garçon',
    ])
      expect(sexCode(male)).toBe(1);
    for (const female of [
      'أنثى',
      'انثى',
      'F',
      'female',
      'Femme',
      'féminin',
      'weiblich',
      'W',
      'Kadın',
      'K',
      'أ',
      'مؤنث',
      'امرأة',
      'girl',
      'Mädchen',
      'kız',
    ])
      expect(sexCode(female)).toBe(2);
    for (const unknown of ['', 'unknown', 'غير معروف', 'x']) expect(sexCode(unknown)).toBe(none);
  });
});
