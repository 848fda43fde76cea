import { describe, expect, it } from 'vitest';
import type { PersonRecordFields } from '../domain/person-record.js';
import { pairwiseQuality } from './evaluate.js';
import { RecordFeatures } from './features.js';
import { linkFeatures } from './link.js';
import { MatchIndex } from './match-index.js';
import { CompiledModel, parseModel } from './model.js';
import { partForm } from './name-kit.js';
import { Scorer } from './scorer.js';
import { generate } from './synth/generator.js';
import { TermFrequencies } from './term-frequencies.js';
import { shippedModel } from './test-fixtures.js';
import { trainModel } from './train.js';

// A few thousand synthetic records: enough to see the model work, small enough for CI. Full sizes live in bench/.
const data = generate({ people: 2500, seed: 11 });
const truth = Int32Array.from(data.records, (r) => r.person);
function features(): RecordFeatures {
  const f = new RecordFeatures(data.records.length);
  for (const r of data.records) f.add(r.fields.record_id, r.fields);
  return f;
}

describe('linking synthetic records', () => {
  it("links the issue's typical pairs among thousands of other records (Latin diaspora rows, Persian letters, a town for a governorate)", async () => {
    const rows = [
      // Branch named by the service alone, a town written short, an arrest date five weeks apart.
      [
        'a1',
        {
          full_name: 'Abd Al-Salam Al-Azmeh',
          governorate: 'Dara',
          place_of_origin: 'Bosra',
          arrest_date: '2018-06-24',
          arresting_branch: 'Military Police',
        },
      ],
      [
        'a2',
        {
          full_name: 'عبد السـلام مـحمد العظمة',
          governorate: 'درعا',
          place_of_origin: 'بصرى الشام',
          arrest_date: '2018-07-31',
          arresting_branch: 'الشرطة العسكرية في القابون',
        },
      ],
      // A town on one side, its governorate on the other; Persian ی.
      ['b1', { full_name: 'Yusuf Mahmud Barazi', place_of_origin: 'Talbiseh', arrest_date: '2015-08-11' }],
      ['b2', { full_name: 'یوسف محمود مصطفى البرازي', governorate: 'حمص', arrest_date: '2015-09-04' }],
      // A town in the governorate column, dates two months apart.
      [
        'c1',
        {
          full_name: 'محمد عبدالكريم محمد العيسي',
          governorate: 'ريف دمشق',
          birth_year: '1984',
          arrest_date: '2018-02-06',
        },
      ],
      ['c2', { full_name: 'محمد عبدالكريم محمد عيسى', governorate: 'الزبداني', arrest_date: '2018-04-19' }],
    ] as const;
    const f = features();
    const at = rows.map(([id, fields]) =>
      f.add(`issue-${id}`, { source: id.endsWith('1') ? 'list-a' : 'list-b', ...fields }),
    );
    const { clusterOf } = await linkFeatures(f, new CompiledModel(shippedModel()));
    for (let k = 0; k < at.length; k += 2)
      expect(clusterOf[at[k] as number]).toBe(clusterOf[at[k + 1] as number]);
  });

  it('weighs a family name spelt by another hand within one script nearly as the same spelling, and links the two rows', async () => {
    // SYNTHETIC. A French list's Moussays and an English list's Musays: one name, a variant within one script. EM on
    // athar synth had put such a variant 2.7 bits under the same spelling (model.ts floorVariants).
    const f = features();
    const french = f.add('hands-fr', { source: 'list-fr', first_name: 'Naim', family_name: 'Moussays' });
    const english = f.add('hands-en', { source: 'list-en', first_name: 'Naim', family_name: 'Musays' });
    const same = f.add('hands-en-2', { source: 'list-de', first_name: 'Naim', family_name: 'Musays' });
    const other = f.add('hands-other', { source: 'list-en', first_name: 'Naim', family_name: 'Mansour' });
    const model = new CompiledModel(shippedModel());
    const scorer = new Scorer(f, model, TermFrequencies.of(f));
    const variant = scorer.score(french, english);
    expect(variant).toBeGreaterThan(scorer.score(same, english) - 0.5);
    expect(variant).toBeGreaterThan(scorer.score(other, english) + 10);
    const { clusterOf } = await linkFeatures(f, model);
    expect(clusterOf[french]).toBe(clusterOf[english]);
    expect(clusterOf[other]).not.toBe(clusterOf[english]);
  });

  it("links a nameless forensic line to the register line of its detainee number and branch, not a number's other use", async () => {
    // SYNTHETIC. A Caesar-style line gives only the branch (its agency), the detainee number and the date of death.
    const f = features();
    const register = f.add('nameless-register', {
      source: 'register-af-mezzeh',
      first_name: 'صباح',
      father_name: 'عمار',
      family_name: 'المظغوس',
      arrest_date: '2011-08-16',
      arresting_branch: 'فرع التحقيق في المخابرات الجوية - مطار المزة',
      detainee_number: '93635',
    });
    const forensic = f.add('nameless-forensic', {
      source: 'forensic-list',
      arresting_branch: 'الجوية',
      detainee_number: '٩٣٦٣٥',
      death_date: '2013-11-18',
    });
    // The same number in the same agency, dead before the register's man was taken: the number used again.
    const earlier = f.add('nameless-earlier', {
      source: 'forensic-list',
      arresting_branch: 'الجوية',
      detainee_number: '93635',
      death_date: '2009-02-03',
    });
    const { clusterOf } = await linkFeatures(f, new CompiledModel(shippedModel()));
    expect(clusterOf[forensic]).toBe(clusterOf[register]);
    expect(clusterOf[earlier]).not.toBe(clusterOf[register]);
  });

  it('links a register line written family first whose names cannot say so, as its register writes the others', async () => {
    const f = features();
    const register = [
      'الحراكي خديجة جميل سمير',
      'طقابة فاطمة احمد حسن',
      'صكبان زهراء محمد عبد الهادي',
      // Its last part misspelt (مصطفى), its first no listed given name: nothing in the name says its order.
      'نعالة ابراهيم محمد مطصفي',
    ].map((full_name, k) =>
      f.add(`register-${k}`, {
        source: 'register-qaboun',
        full_name,
        birth_year: '1955',
        governorate: 'ريف دمشق',
        arrest_date: '2011-09-01',
      }),
    );
    const report = f.add('report', {
      source: 'family-report',
      first_name: 'ابراهيم',
      father_name: 'محمد',
      family_name: 'نعالة',
      birth_year: '1955',
      place_of_origin: 'دوما',
      arrest_date: '2011-09-08',
    });
    const { clusterOf } = await linkFeatures(f, new CompiledModel(shippedModel()));
    expect(clusterOf[report]).toBe(clusterOf[register[3] as number]);
  });

  it('finds most true pairs with few false ones, with the shipped model', async () => {
    const result = await linkFeatures(features(), new CompiledModel(shippedModel()));
    const q = pairwiseQuality(result.clusterOf, truth);
    expect(q.precision).toBeGreaterThan(0.9);
    expect(q.recall).toBeGreaterThan(0.8);
    expect(result.clusterOf.length).toBe(data.records.length);
  });

  it('retrains by EM on the data into a valid model that still links well', async () => {
    const f = features();
    const { model, report } = trainModel(f, shippedModel(), {
      randomPairs: 200_000,
      now: '2026-01-01T00:00:00.000Z',
    });
    expect(() => parseModel(JSON.parse(JSON.stringify(model)))).not.toThrow();
    expect(model.version).toMatch(/^trained-[0-9a-f]{12}$/);
    expect(report.passes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(report.passes.map((p) => p.rule)).size).toBe(report.passes.length);
    const first = model.comparisons.find((c) => c.name === 'first_name')!;
    const exact = first.levels.find((l) => l.label === 'exact')!;
    expect(exact.m).toBeGreaterThan(exact.u);
    // Synthetic death dates are all full: a death date known to the year only is never seen, so it weighs
    // nothing, and each distribution still sums to 1.
    const death = model.comparisons.find((c) => c.name === 'death_date')!;
    const sameYear = death.levels.find((l) => l.label === 'same_year')!;
    expect(sameYear.m).toBe(sameYear.u);
    expect(sameYear.uWithinFamily).toBe(sameYear.u);
    expect(death.levels.reduce((sum, l) => sum + l.m, 0)).toBeCloseTo(1, 6);
    // Arrest years against full dates are common there, and agreement on the year is evidence for.
    const arrest = model.comparisons.find((c) => c.name === 'arrest_date')!;
    const arrestYear = arrest.levels.find((l) => l.label === 'same_year')!;
    expect(arrestYear.m).toBeGreaterThan(arrestYear.u);
    // A variant spelling weighs at least the weaker of exact and cross-script agreement (floorVariants).
    const variant = first.levels.find((l) => l.label === 'variant')!;
    const across = first.levels.find((l) => l.label === 'transliteration')!;
    expect(Math.log2(variant.m / variant.u)).toBeGreaterThanOrEqual(
      Math.min(Math.log2(exact.m / exact.u), Math.log2(across.m / across.u)) - 1e-9,
    );
    const q = pairwiseQuality((await linkFeatures(f, new CompiledModel(model))).clusterOf, truth);
    expect(q.f1).toBeGreaterThan(0.85);
  });
});

/** A match index over a few records, with the shipped model. */
/**
 * Sixty men of one family name (SYNTHETIC: four first names, three fathers' names), ids `${prefix}-k`, with what
 * `more` gives each: past 48, a long list the match index narrows.
 */
function sixtyOfOneFamily(
  prefix: string,
  familyName: string,
  more: (k: number) => PersonRecordFields,
): { id: string; fields: PersonRecordFields }[] {
  return Array.from({ length: 60 }, (_, k) => ({
    id: `${prefix}-${k}`,
    fields: {
      first_name: ['محمد', 'أحمد', 'خالد', 'عمر'][k % 4] as string,
      father_name: ['علي', 'حسن', 'يوسف'][k % 3] as string,
      family_name: familyName,
      ...more(k),
    },
  }));
}

/**
 * `count` men of one first and father's name (SYNTHETIC), each of his own family (`عائلة${k}`), ids `${prefix}-k`,
 * with what `more` gives each: namesakes a report's two names alone cannot tell apart.
 */
function namesakesOfManyFamilies(
  prefix: string,
  first: string,
  father: string,
  count: number,
  more: (k: number) => PersonRecordFields,
): { id: string; fields: PersonRecordFields }[] {
  return Array.from({ length: count }, (_, k) => ({
    id: `${prefix}-${k}`,
    fields: { first_name: first, father_name: father, family_name: `عائلة${k}`, ...more(k) },
  }));
}

function loaded(records: Parameters<MatchIndex['load']>[0]): MatchIndex {
  const index = new MatchIndex(new CompiledModel(shippedModel()));
  index.load(records);
  return index;
}

describe('the match index', () => {
  const held = new Set<number>();
  const seen = new Set<number>();
  data.records.forEach((r, i) => {
    if (seen.has(r.person)) held.add(i);
    seen.add(r.person);
  });
  const index = new MatchIndex(new CompiledModel(shippedModel()));
  index.load(
    data.records.filter((_, i) => !held.has(i)).map((r) => ({ id: r.fields.record_id, fields: r.fields })),
  );
  const personOf = new Map(data.records.map((r) => [r.fields.record_id, r.person]));

  it('returns a held-out report’s person among the top 10 for nearly every report', () => {
    const queries = [...held].slice(0, 300);
    const hits = queries.filter((q) => {
      const top = index.top(data.records[q]!.fields, 10);
      return top.some((c) => personOf.get(c.recordId) === data.records[q]!.person);
    });
    expect(hits.length / queries.length).toBeGreaterThan(0.95);
  });

  it('ranks by score, explains any candidate, and finds a record added after loading', () => {
    const q = [...held][0]!;
    const fields = data.records[q]!.fields;
    const top = index.top(fields, 5);
    expect(top.map((c) => c.weight)).toEqual([...top.map((c) => c.weight)].sort((a, b) => b - a));
    const explanation = index.explain(fields, top[0]!.recordId);
    expect(explanation?.probability).toBeCloseTo(top[0]!.probability, 6);
    const before = index.size;
    index.add('late-1', { ...fields, notes: 'a copy arriving later' });
    expect(index.size).toBe(before + 1);
    expect(index.top(fields, 3)[0]?.recordId).toBe('late-1');
  });

  it('finds a record from a bare list row whose family name has one slip, loaded or added later', () => {
    const small = loaded([
      {
        id: 'r-1',
        fields: { first_name: 'محمود', father_name: 'يونس', family_name: 'مفيز', birth_year: '1976' },
      },
      {
        id: 'r-2',
        fields: { first_name: 'محمود', father_name: 'خالد', family_name: 'الحلبي', birth_year: '1976' },
      },
    ]);
    small.add('r-3', {
      first_name: 'رشيد',
      father_name: 'محمد',
      family_name: 'التنراني',
      birth_year: '1976',
    });
    // No exact key is shared: the family name differs by one letter of its skeleton.
    expect(
      small.top({ full_name: 'Mahmoud Maxiz', birth_year: '1976' }, 10).map((c) => c.recordId),
    ).toContain('r-1');
    expect(small.top({ full_name: 'Rachid Al-anrani' }, 10).map((c) => c.recordId)).toEqual(['r-3']);
  });

  it('narrows a long list of one-slip candidates to those sharing one more thing with the report', () => {
    // maxPosting 8: a spelling-tolerant rule's list is narrowed once it holds more than 2 records.
    const small = new MatchIndex(new CompiledModel(shippedModel()), { maxPosting: 8 });
    const others = ['خالد', 'يونس', 'أحمد', 'علي'].map((father, k) => ({
      id: `other-${k}`,
      fields: { first_name: 'محمود', father_name: father, family_name: 'مفيز', birth_year: '1950' },
    }));
    small.load([
      {
        id: 'r-1',
        fields: { first_name: 'محمود', father_name: 'يونس', family_name: 'مفيز', birth_year: '1976' },
      },
      ...others,
    ]);
    const found = small.top({ full_name: 'Mahmoud Maxiz', birth_year: '1976' }, 10).map((c) => c.recordId);
    expect(found).toEqual(['r-1']);
    // Without a birth year nothing narrows the list: no candidate shares one more thing.
    expect(small.top({ full_name: 'Mahmoud Maxiz' }, 10)).toEqual([]);
  });

  it('reads a long narrowed list through its sub-lists with the same candidates as testing every record', () => {
    // maxPosting 40 narrows many lists of these few thousand records; one index keeps lists of 8 or more by
    // narrowing value, the other tests every record. Records added after loading are in neither's sub-lists.
    const loaded = data.records.filter((_, i) => !held.has(i));
    const late = loaded.splice(0, 200);
    const [split, whole] = [8, Number.POSITIVE_INFINITY].map((splitFrom) => {
      const x = new MatchIndex(new CompiledModel(shippedModel()), { maxPosting: 40, splitFrom });
      x.load(loaded.map((r) => ({ id: r.fields.record_id, fields: r.fields })));
      for (const r of late) x.add(r.fields.record_id, r.fields);
      return x;
    }) as [MatchIndex, MatchIndex];
    const queries = [...held].slice(0, 300).map((q) => data.records[q]!.fields);
    const tops = (x: MatchIndex) => queries.map((fields) => x.top(fields, 10));
    const found = tops(split);
    expect(found).toEqual(tops(whole));
    expect(found.flat().length).toBeGreaterThan(1000);
  });

  it("finds a forensic line's first and father's name alone when few records carry that pair", () => {
    const namesakes = Array.from({ length: 300 }, (_, k) => ({
      id: `namesake-${k}`,
      fields: { first_name: 'محمد', father_name: 'أحمد', family_name: `عائلة${k}` },
    }));
    const small = loaded([
      {
        id: 'r-1',
        fields: { first_name: 'حسن', father_name: 'ضرار', family_name: 'كحطان', birth_year: '1960' },
      },
      ...namesakes,
    ]);
    // Nothing but the two names, as a Caesar list writes them: a rare pair is read whole.
    expect(
      small.top({ full_name: 'حسن ضرار', arresting_branch: 'صيدنايا' }, 10).map((c) => c.recordId),
    ).toContain('r-1');
    // A pair this common (past BROAD_BARE) still needs one more thing in common: 300 namesakes are not candidates.
    expect(small.top({ full_name: 'محمد أحمد' }, 10)).toEqual([]);
  });

  it("finds a forensic line's first name by its date of death, and a man by his first and father's name and town", () => {
    // Sixty men of each first name and father's name: too many to read whole, so one more thing must be shared.
    const namesakes = Array.from({ length: 60 }, (_, k) => [
      {
        id: `h-${k}`,
        fields: { first_name: 'هيثم', family_name: `عائلة${k}`, death_date: `2019-0${1 + (k % 3)}-10` },
      },
      { id: `m-${k}`, fields: { first_name: 'محمود', father_name: 'عبد الله', family_name: `اسرة${k}` } },
    ]).flat();
    const small = loaded([
      { id: 'notice', fields: { full_name: 'المرحوم هيثم السباعي', death_date: '2019-04-17' } },
      {
        id: 'register',
        fields: {
          first_name: 'محمود',
          father_name: 'عبد الله',
          family_name: 'جعيه',
          place_of_origin: 'دوما',
        },
      },
      ...namesakes,
    ]);
    // A Caesar line: the first name, a branch and the date of death.
    expect(
      small
        .top({ full_name: 'هيثم', arresting_branch: '215', death_date: '2019-04-17' }, 10)
        .map((c) => c.recordId),
    ).toContain('notice');
    // A camp list's Turkish spelling of the family name (Cuayh) meets no key of it; the town is what is shared.
    expect(
      small
        .top(
          { first_name: 'Mahmud', father_name: 'Abdullah', family_name: 'Cuayh', place_of_origin: 'Duma' },
          10,
        )
        .map((c) => c.recordId),
    ).toContain('register');
  });

  it("finds a scanned list's name with its dots read wrong in two names at once", () => {
    const small = loaded([
      { id: 'hospital', fields: { full_name: 'علي مصطفى الحطيب', death_date: '2017-12-13' } },
      { id: 'prison', fields: { full_name: 'جهاد أحمد درويش', detainee_number: '97365' } },
      { id: 'other', fields: { full_name: 'علي مصطفى الحلبي', death_date: '2017-12-13' } },
    ]);
    // First and family name alike in their dotless letters (غلي / علي, الخطيب / الحطيب).
    expect(small.top({ full_name: 'غلي صطفى محمد الخطيب' }, 10).map((c) => c.recordId)).toContain('hospital');
    // First name and father's (حهاد / جهاد, أحمد), the family name a letter off (ددويش / درويش).
    expect(small.top({ full_name: 'حهاد أحمد ددويش' }, 10).map((c) => c.recordId)).toContain('prison');
  });

  it('finds a family name a Turkish or German list spelt its own way (Savade for سواده)', () => {
    const small = loaded([
      {
        id: 'register',
        fields: { first_name: 'محمود', father_name: 'عبد الله', family_name: 'سواده', birth_year: '1961' },
      },
      {
        id: 'other',
        fields: { first_name: 'محمود', father_name: 'خالد', family_name: 'الحلبي', birth_year: '1980' },
      },
    ]);
    expect(small.top({ first_name: 'Mahmud', family_name: 'Savade' }, 10).map((c) => c.recordId)).toContain(
      'register',
    );
  });

  it('finds a first name a German list spelt its own way (Sulajman for سليمان)', () => {
    const small = loaded([
      {
        id: 'register',
        fields: { first_name: 'سليمان', father_name: 'محمد', family_name: 'العشيني', birth_year: '1991' },
      },
      {
        id: 'other',
        fields: { first_name: 'سليم', father_name: 'خالد', family_name: 'الحلبي', birth_year: '1980' },
      },
    ]);
    expect(
      small.top({ first_name: 'Sulajman', family_name: 'Al-Uschajni' }, 10).map((c) => c.recordId),
    ).toContain('register');
  });

  it('finds a man a report names by his kunya and family name only, among few of that family', () => {
    // Sixty of one common family: a list that long is read only for those sharing one more thing.
    const common = Array.from({ length: 60 }, (_, k) => ({
      id: `masri-${k}`,
      fields: {
        first_name: `اسم${k}`,
        father_name: 'أحمد',
        family_name: 'المصري',
        birth_year: String(1950 + k),
      },
    }));
    const small = loaded([
      {
        id: 'register',
        fields: { full_name: 'أحمد نزار الحطيي', birth_year: '1992', detainee_number: '4471' },
      },
      { id: 'other', fields: { full_name: 'أحمد نزار الحلبي', birth_year: '1992' } },
      ...common,
    ]);
    // Abu Yusuf (father of Yusuf) is no first name: the family name alone finds the family's few records.
    const found = small
      .top({ full_name: 'أبو يوسف الحطيي', arrest_date: '2015-04' }, 10)
      .map((c) => c.recordId);
    expect(found).toContain('register');
    expect(found).not.toContain('other');
    // A common family name with nothing more in common gives none of its sixty records; with a birth year, those
    // born within a year of it.
    expect(small.top({ full_name: 'أبو يوسف المصري' }, 10)).toEqual([]);
    expect(
      small
        .top({ full_name: 'أبو يوسف المصري', birth_year: '1980' }, 10)
        .map((c) => c.recordId)
        .sort(),
    ).toEqual(['masri-29', 'masri-30', 'masri-31']);
  });

  it("finds a forensic line's first and father's name among a hundred namesakes, read whole", () => {
    // Synthetic: people named فراس, son of عبد الرحمن, of many families; a Caesar line gives those two names alone.
    const some = loaded(
      namesakesOfManyFamilies('firas', 'فراس', 'عبد الرحمن', 100, (k) => ({
        birth_year: String(1950 + (k % 40)),
      })),
    );
    // Nothing to narrow by: the list is read whole (up to BROAD_BARE), the closest first.
    const found = some.top({ full_name: 'فراس عبد الرحمن', death_date: '2013-05-24' }, 10);
    expect(found).toHaveLength(10);
    expect(found.every((c) => c.recordId.startsWith('firas-'))).toBe(true);
  });

  it("finds a woman listed under another family name by her first and father's name and the month of her arrest", () => {
    const others = namesakesOfManyFamilies('hala', 'هالة', 'محمود', 60, (k) => ({
      arrest_date: `${2000 + (k % 10)}-01-15`,
    }));
    const small = loaded([
      { id: 'register', fields: { full_name: 'هالة محمود قعادة', arrest_date: '2013-06-02' } },
      ...others,
    ]);
    // Synthetic: a camp list writes her under her husband's family name, taken a week and a half earlier.
    const found = small.top({ full_name: 'Hala Mahmut Mahache', arrest_date: '23/05/2013' }, 10);
    expect(found.map((c) => c.recordId)).toContain('register');
  });

  it("finds a forensic line's first name and death by the month a family's report says he was taken", () => {
    // Synthetic: the forensic lines give a first name and a date of death; the report a full name and an arrest.
    const small = loaded([
      {
        id: 'forensic',
        fields: { full_name: 'باسل', death_date: '14/08/2014', forensic_report_number: '8683' },
      },
      {
        id: 'forensic-2013',
        fields: { full_name: 'باسل', death_date: '14/08/2013', forensic_report_number: '7001' },
      },
    ]);
    const found = small.top(
      { first_name: 'باسل', father_name: 'غسان', family_name: 'القحيك', arrest_date: '2014-08-09' },
      10,
    );
    expect(found.map((c) => c.recordId)).toEqual(['forensic']);
  });

  it('judges whether a list names each person once, and again only once it has grown by an eighth', async () => {
    // Synthetic: a register of eight men, each once; then two lines repeating its first man, beyond doubt his.
    const man = (k: number) => ({
      source: 'synthetic register',
      first_name: ['محمد', 'أحمد', 'خالد', 'عمر', 'يوسف', 'سامر', 'باسل', 'فادي'][k] as string,
      father_name: ['علي', 'حسن', 'محمود', 'نزار'][k % 4] as string,
      family_name: ['الحلبي', 'العظمة', 'الخطيب', 'المصري', 'النجار', 'التخقي', 'القحيك', 'الزعبي'][
        k
      ] as string,
      mother_name: 'فاطمة',
      birth_date: `19${60 + k}-03-1${k}`,
      detainee_number: String(4400 + k),
    });
    const register = loaded(Array.from({ length: 8 }, (_, k) => ({ id: `reg-${k}`, fields: man(k) })));
    const list = register.features.source[register.indexOf('reg-0')] as number;
    expect((await register.judgeLists([list])).get(list)).toBe(true);
    register.add('reg-again-1', man(0));
    // Nine records: not an eighth more than eight; the verdict stands.
    expect((await register.judgeLists([list])).get(list)).toBe(true);
    register.add('reg-again-2', man(0));
    // Ten: judged again, and its three lines of one man are pairs beyond doubt.
    expect((await register.judgeLists([list])).get(list)).toBe(false);
  });

  it("finds a family's report of a man taken in the months before a forensic line's death, by its first name", () => {
    // Synthetic: the forensic line gives a first name and a date of death; the reports a full name and an arrest.
    const small = loaded([
      {
        id: 'taken-weeks-before',
        fields: { first_name: 'باسل', father_name: 'غسان', family_name: 'القحيك', arrest_date: '2014-06-20' },
      },
      {
        id: 'taken-after',
        fields: { first_name: 'باسل', father_name: 'سمير', family_name: 'الحلبي', arrest_date: '2014-09-02' },
      },
      {
        id: 'taken-a-year-before',
        fields: { first_name: 'باسل', father_name: 'نزار', family_name: 'العلي', arrest_date: '2013-07-11' },
      },
    ]);
    const found = small.top(
      { full_name: 'باسل', death_date: '14/08/2014', forensic_report_number: '8683' },
      10,
    );
    expect(found.map((c) => c.recordId)).toEqual(['taken-weeks-before']);
  });

  it("finds a register's man by his father's and grandfather's names when the report gives his kunya", () => {
    // Synthetic: the family's report names him by his kunya (أبو يوسف, where the first name goes) and his father's
    // and grandfather's names, no family name; the register by his whole chain. His brother, of the same father and grandfather, was taken elsewhere years later.
    const small = loaded([
      {
        id: 'register-line',
        fields: {
          full_name: 'عبدالله يوسف عبدالرحمن العتناوي',
          place_of_origin: 'السلمية',
          arrest_date: '03/05/2011',
        },
      },
      {
        id: 'brother',
        fields: {
          full_name: 'محمود يوسف عبدالرحمن العتناوي',
          place_of_origin: 'حماة',
          arrest_date: '2016-02-10',
        },
      },
      {
        id: 'namesake-father',
        fields: {
          full_name: 'عبدالله يوسف محمد الحموي',
          place_of_origin: 'السلمية',
          arrest_date: '2011-05-03',
        },
      },
    ]);
    const found = small.top(
      {
        first_name: 'أبو يوسف',
        father_name: 'يوسف',
        grandfather_name: 'عبد الرحمن',
        birth_year: '1978',
        place_of_origin: 'السلميه',
        arrest_date: '03/05/2011',
      },
      10,
    );
    expect(found[0]?.recordId).toBe('register-line');
  });

  it("finds a forensic line's man, both names misspelt, by the day he died", () => {
    // Synthetic: the forensic line writes يارس سعيدد for ياسر سعيد; the civil registry has his death that day.
    const small = loaded([
      {
        id: 'civil-registry',
        fields: { full_name: 'ياسر سعيد المساحي', birth_date: '1978-08-24', death_date: '2012-01-11' },
      },
      {
        id: 'another-day',
        fields: { full_name: 'ياسر سعيد الحمصي', birth_date: '1980-02-02', death_date: '2012-01-12' },
      },
    ]);
    const found = small.top(
      { full_name: 'يارس سعيدد', death_date: '2012-01-11', arresting_branch: 'الجوية' },
      10,
    );
    expect(found.map((c) => c.recordId)).toEqual(['civil-registry']);
  });

  it('finds a woman under another family name by her first name with her town, or with a month either side', () => {
    // Synthetic: a family's report of two women; a press list writes each under another family name (her
    // husband's), one with her town only, the other taken "26/04/2012" where the register says 13 May.
    const small = loaded([
      {
        id: 'fatima',
        fields: {
          first_name: 'فاطمة',
          father_name: 'عبدالحميد',
          family_name: 'السنحة',
          place_of_origin: 'القابون',
        },
      },
      {
        id: 'maryam',
        fields: { first_name: 'مريم', father_name: 'محمد', family_name: 'غنابة', arrest_date: '2012-05-13' },
      },
      { id: 'maryam-2010', fields: { first_name: 'مريم', family_name: 'الحلبي', arrest_date: '2010-05-13' } },
      {
        id: 'ahmad',
        fields: { first_name: 'أحمد', family_name: 'النجار', place_of_origin: 'القابون', sex: 'ذكر' },
      },
    ]);
    const ids = (fields: PersonRecordFields) => small.top(fields, 10).map((c) => c.recordId);
    expect(ids({ first_name: 'Fatma', family_name: 'El-Lahkhi', place_of_origin: 'Al-Qabun' })).toEqual([
      'fatima',
    ]);
    expect(ids({ first_name: 'Maryam', family_name: 'Mazib', arrest_date: '26/04/2012' })).toEqual([
      'maryam',
    ]);
    // A man's report reads namesakes of his town only under a family name alike his or none.
    expect(
      ids({ first_name: 'Ahmad', family_name: 'El-Bitar', place_of_origin: 'Al-Qabun', sex: 'male' }),
    ).toEqual([]);
    expect(
      ids({ first_name: 'Ahmad', family_name: 'El-Najar', place_of_origin: 'Al-Qabun', sex: 'male' }),
    ).toEqual(['ahmad']);
  });

  it('finds a man named by his kunya and family name alone, in a long list of that family, by the family name', () => {
    // Synthetic: sixty men of one family name, each with his first name and month of arrest; a press list names one
    // more by his kunya, his family name and his governorate, with no month.
    const family = loaded([
      ...sixtyOfOneFamily('sasis', 'صسص', (k) => ({ arrest_date: `${2011 + (k % 8)}-0${1 + (k % 9)}-10` })),
      { id: 'kunya', fields: { first_name: 'Abu Qasim', family_name: 'Sasis', governorate: 'Damascus' } },
    ]);
    // The register's line of him shares no birth year, father, town or month with the kunya's row: only the family
    // name meets them. The family's sixty other lines, past 48, are read only where they share one more thing.
    const found = family.top(
      {
        first_name: 'محمد',
        father_name: 'عمر',
        family_name: 'صسص',
        birth_year: '1964',
        arrest_date: '2018-04-06',
      },
      10,
    );
    expect(found.map((c) => c.recordId)).toContain('kunya');
  });

  it('finds the line of a report naming a man by his kunya, family name and arresting agency alone, by the agency', () => {
    // Synthetic: sixty men of one family name, taken by Military Intelligence and Air Force Intelligence, and one
    // taken by فرع الخطيب, a branch of General Intelligence.
    const family = loaded([
      ...sixtyOfOneFamily('takh', 'التخقي', (k) => ({
        birth_year: String(1950 + (k % 30)),
        arresting_branch: k % 2 === 0 ? 'فرع فلسطين' : 'إدارة المخابرات الجوية',
      })),
      {
        id: 'register',
        fields: {
          first_name: 'سامر',
          father_name: 'سعيد',
          family_name: 'التخقي',
          birth_year: '1985',
          arresting_branch: 'فرع الخطيب',
        },
      },
    ]);
    // A press list names him Abu Maher Al-Takhkee, taken by General Intelligence: no first name, date or place. The
    // family's list, past 48, is read only where it shares one more thing: here the agency.
    const found = family.top(
      { full_name: 'Abu Maher Al-Takhkee', arresting_branch: 'General Intelligence' },
      10,
    );
    expect(found.map((c) => c.recordId)).toEqual(['register']);
    // An agency none of them shares, with nothing else, meets none of them.
    expect(
      family.top({ full_name: 'Abu Maher Al-Takhkee', arresting_branch: 'Political Security' }, 10),
    ).toEqual([]);
  });

  it("finds a forensic line's two names among hundreds of namesakes by a death a month apart", () => {
    // Synthetic: 300 men named عبد الرحمن, son of محمد, of 300 families, born over forty years, none dead on record;
    // and the family's report of one, who died on 4 April 2014.
    const registry = loaded([
      ...namesakesOfManyFamilies('abd', 'عبد الرحمن', 'محمد', 300, (k) => ({
        birth_year: String(1950 + (k % 40)),
      })),
      {
        id: 'report',
        fields: {
          first_name: 'عبد الرحمن',
          father_name: 'محمد',
          family_name: 'المحمد',
          death_date: '2014-04-04',
        },
      },
    ]);
    // A Caesar line gives the two names and a death six weeks later: past 256 the two names' list is read only where
    // it shares one more thing, here the month of death (a month either side).
    const found = registry.top({ full_name: 'عبد الرحمن محمد', death_date: '18/05/2014' }, 10);
    expect(found.map((c) => c.recordId)).toContain('report');
    // A death a year away shares nothing with it.
    expect(
      registry.top({ full_name: 'عبد الرحمن محمد', death_date: '18/05/2015' }, 10).map((c) => c.recordId),
    ).not.toContain('report');
  });

  it('finds a register line written family first among many of those names by the month of arrest', () => {
    // Synthetic: sixty men named محمد of the family مراد, with other fathers, taken in other years; and a family's
    // report of محمد صالح مراد, taken on 18 March 2018.
    const family = loaded([
      ...Array.from({ length: 60 }, (_, k) => ({
        id: `murad-${k}`,
        fields: {
          first_name: 'محمد',
          father_name: ['علي', 'حسن', 'يوسف', 'خالد'][k % 4] as string,
          family_name: 'مراد',
          arrest_date: `${2011 + (k % 6)}-0${1 + (k % 9)}-10`,
        },
      })),
      { id: 'report', fields: { full_name: 'محمد صالح مراد', arrest_date: '18/03/2018' } },
    ]);
    // The register writes the family name first and nothing says so: read in order, a man named مراد, son of محمد.
    const found = family.top({ full_name: 'مراد محمد صالح محمد', arrest_date: '2018-03-18' }, 10);
    expect(found.map((c) => c.recordId)).toContain('report');
  });

  it("reads a month either side of a query's arrest whole only while its list is short", () => {
    // Synthetic: sixty women of one first name, of sixty families, taken in April 2012.
    const april = loaded(
      Array.from({ length: 60 }, (_, k) => ({
        id: `april-${k}`,
        fields: { first_name: 'مريم', family_name: `عائلة${k}`, arrest_date: '2012-04-10' },
      })),
    );
    // Her own month's list is read whole (up to 4,000); a neighbouring month's, past 48, keeps only the records that
    // share one more thing with her, and a query giving nothing more meets none of them.
    expect(
      april.top({ first_name: 'Maryam', family_name: 'Mazib', arrest_date: '2012-04-26' }, 10),
    ).toHaveLength(10);
    expect(april.top({ first_name: 'Maryam', family_name: 'Mazib', arrest_date: '2012-05-02' }, 10)).toEqual(
      [],
    );
  });

  it("reads a first name's year of birth for a woman under any family name, for a man under an alike one or none", () => {
    // Synthetic: men and women of one first name and year of birth, of many families; one man without a family name.
    const families = ['قعادة', 'الخطيب', 'النجار', 'العطار', 'الشامي', 'الحلبي', 'الزعبي', 'المصري'];
    const small = loaded([
      ...families.map((family, k) => ({
        id: `man-${k}`,
        fields: { first_name: 'سامر', family_name: family, birth_year: '1980', sex: 'ذكر' },
      })),
      { id: 'bare', fields: { first_name: 'سامر', father_name: 'خالد', birth_year: '1980', sex: 'ذكر' } },
      {
        id: 'alike',
        fields: { first_name: 'سامر', family_name: 'البيطارر', birth_year: '1980', sex: 'ذكر' },
      },
      { id: 'her', fields: { first_name: 'رهف', family_name: 'الخطيب', birth_year: '1980', sex: 'أنثى' } },
    ]);
    // A man of another family: the namesakes of other families are not read (they would rank as strangers), the
    // record without a family name and the one whose family name is alike are.
    const man = small.top(
      { first_name: 'سامر', family_name: 'البيطار', birth_year: '1980', sex: 'ذكر' },
      100,
    );
    expect(man.map((c) => c.recordId).sort()).toEqual(['alike', 'bare']);
    // A woman: her record under another family name (her husband's, her father's) is read by first name and year.
    const woman = small.top(
      { first_name: 'رهف', family_name: 'قعادة', birth_year: '1980', sex: 'أنثى' },
      100,
    );
    expect(woman.map((c) => c.recordId)).toContain('her');
  });

  it('finds a register line that writes the family name first, and is found from one', () => {
    const small = loaded([
      { id: 'register', fields: { full_name: 'دياب عبد الكريم نبيل خالد', birth_year: '1994' } },
      { id: 'other', fields: { full_name: 'عبد الكريم نبيل خالد السيد', birth_year: '1994' } },
    ]);
    // Read in order, the register's line is a man named دياب: his father's and first names are the report's first
    // and family names.
    const found = small.top({ first_name: 'عبد الكريم', family_name: 'دياب' }, 10).map((c) => c.recordId);
    expect(found).toContain('register');
    expect(found).not.toContain('other');
    // And a report written family first finds the record written in order.
    const inOrder = loaded([{ id: 'family', fields: { full_name: 'عبد الكريم نبيل خالد دياب' } }]);
    expect(inOrder.top({ full_name: 'دياب عبد الكريم' }, 10).map((c) => c.recordId)).toEqual(['family']);
  });

  it("reads a registry's lists in their own order of writing as it loads them, as linking does", () => {
    const register = ['الحراكي خديجة جميل سمير', 'طقابة فاطمة احمد حسن', 'نعالة ابراهيم محمد مطصفي'];
    const index = loaded(
      register.map((full_name, k) => ({ id: `r${k}`, fields: { full_name, source: 'register' } })),
    );
    const f = index.features;
    const i = index.indexOf('r2');
    expect(f.names.form(f.first[i] as number)).toBe(partForm('ابراهيم'));
    expect(f.names.form(f.family[i] as number)).toBe(partForm('نعالة'));
    const found = index.top({ first_name: 'ابراهيم', father_name: 'محمد', family_name: 'نعالة' }, 10);
    expect(found[0]?.recordId).toBe('r2');
  });

  it('weighs a register line written family first by its names read in order, and explains that reading', () => {
    const small = loaded([
      { id: 'register', fields: { full_name: 'دياب عبد الكريم نبيل خالد', birth_year: '1994' } },
      { id: 'namesake', fields: { full_name: 'عبد الكريم سمير دياب', birth_year: '1960' } },
    ]);
    const report = { full_name: 'عبد الكريم نبيل خالد دياب', birth_year: '1994' };
    const top = small.top(report, 10);
    expect(top.map((c) => c.recordId)).toEqual(['register', 'namesake']);
    expect(top[0]?.probability).toBeGreaterThan(0.5);
    const explained = small.explain(report, 'register');
    expect(explained?.nameOrder).toBe('b_family_first');
    // The reading's cost is the last step, and the waterfall adds up to the weight the match ranked by.
    expect(explained?.steps.at(-1)).toMatchObject({
      comparison: 'name_order',
      level: 'b_family_first',
      weight: -2,
    });
    expect(explained?.total).toBeCloseTo(top[0]?.weight as number, 2);
    // A pair in one order of writing is explained as before.
    expect(small.explain(report, 'namesake')?.nameOrder).toBeUndefined();
    // Indexed records: the report written family first against the register line written in order.
    const both = loaded([
      { id: 'report', fields: { full_name: 'دياب عبد الكريم نبيل خالد', birth_year: '1994' } },
      { id: 'line', fields: { full_name: 'عبد الكريم نبيل خالد دياب', birth_year: '1994' } },
    ]);
    expect(both.explainMatch('report', 'line')?.nameOrder).toBe('a_family_first');
    expect(both.explainMatch('report', 'line')?.total).toBeCloseTo(
      both.topFor('report', 10)[0]?.weight as number,
      2,
    );
    expect(both.explainPair('report', 'line')?.nameOrder).toBeUndefined();
  });

  it('answers a report without any name with no candidates', () => {
    expect(index.top({ mother_name: 'فاطمة', birth_year: '1980' }, 10)).toEqual([]);
  });
});
