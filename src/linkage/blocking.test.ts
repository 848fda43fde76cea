import { describe, expect, it } from 'vitest';
import type { PersonRecordFields } from '../domain/person-record.js';
import {
  blockingRules,
  candidatePairs,
  coarseLinkRules,
  deletionVariants,
  linkingRules,
  partsByKey,
  skeletonsWithin,
  slipLinkRules,
} from './blocking.js';
import { compareAll, comparisons, similarSimilarity } from './comparisons.js';
import { NameSimilarity } from './similarity-cache.js';
import { featuresOf } from './test-fixtures.js';

/** The pairs one linking rule makes of the records, each pair and the list in order. */
function pairsUnder(f: ReturnType<typeof featuresOf>, name: string): number[][] {
  const { pairs } = candidatePairs(
    f,
    linkingRules.filter((r) => r.name === name),
  );
  return Array.from({ length: pairs.length }, (_, p) =>
    [pairs.a[p] as number, pairs.b[p] as number].sort(),
  ).sort();
}

describe('blocking', () => {
  it('pairs records that share a key across scripts, each pair once, and never unnamed rows by a name', () => {
    const f = featuresOf([
      { first_name: 'محمد', father_name: 'أحمد', family_name: 'المصري', birth_year: '1980' },
      { full_name: 'Mohammad Ahmad Al-Masri', birth_year: '1980' },
      { first_name: 'خالد', family_name: 'الحلبي' },
      { mother_name: 'فاطمة', birth_year: '1980' },
    ]);
    const { pairs, unnamed } = candidatePairs(f);
    const list = Array.from({ length: pairs.length }, (_, p) => [pairs.a[p], pairs.b[p]]);
    expect(list).toEqual([[0, 1]]);
    expect(unnamed).toBe(1);
  });

  it("pairs a record written by its own and its father's name with the whole chain, not two whole chains", () => {
    const f = featuresOf([
      { full_name: 'حسن محمد', death_date: '2014-01-28', detainee_number: '3600', arresting_branch: '235' },
      { first_name: 'حسن', father_name: 'محمد', family_name: 'عمغاوي', death_date: '2014-01-25' },
      { first_name: 'حسن', father_name: 'محمد', family_name: 'البرازي', birth_year: '1970' },
    ]);
    expect(pairsUnder(f, 'first+father (no family)')).toEqual([
      [0, 1],
      [0, 2],
    ]);
  });

  it('pairs Arabic names alike but for their dots (a scanned list read one wrong), not names of one skeleton', () => {
    const f = featuresOf([
      { full_name: 'غلي صطفى محمد الخطيب' },
      { first_name: 'علي', father_name: 'مصطفى', family_name: 'الخطيب' },
      { first_name: 'علي', family_name: 'الخطيب' },
      { first_name: 'Ali', family_name: 'Khatib' },
    ]);
    // غلي / علي meet; the two علي الخطيب are one skeleton (first+family's); the Latin row has no rasm.
    expect(pairsUnder(f, 'first+family (rasm)')).toEqual([
      [0, 1],
      [0, 2],
    ]);
  });

  it("pairs a card's detainee number under its agency (الجوية) with the number in that agency's branch only", () => {
    const f = featuresOf([
      { full_name: 'عبد الرحمن محمد', arresting_branch: 'الجوية', detainee_number: '6388' },
      { full_name: 'عبدالرحمن محمد علي الجزائري', arresting_branch: 'مطار المزة', detainee_number: '6388' },
      { full_name: 'ماهر سامر الخطيب', arresting_branch: '215', detainee_number: '6388' },
    ]);
    expect(pairsUnder(f, 'detainee_number+branch')).toEqual([[0, 1]]);
    // And the numbers agree as numbers of one branch (level 1); across two agencies they say nothing (0).
    const levels = new Uint8Array(comparisons.length);
    const detaineeAt = comparisons.findIndex((c) => c.name === 'detainee_number');
    compareAll(f, 0, 1, new NameSimilarity(f.names), levels);
    expect(levels[detaineeAt]).toBe(1);
    compareAll(f, 0, 2, new NameSimilarity(f.names), levels);
    expect(levels[detaineeAt]).toBe(0);
  });

  it('pairs a nameless forensic line by its detainee number and branch, and by nothing else', () => {
    const f = featuresOf([
      { arresting_branch: 'الجوية', detainee_number: '6388', death_date: '2013-05-02' },
      { full_name: 'عبدالرحمن محمد علي الجزائري', arresting_branch: 'مطار المزة', detainee_number: '6388' },
      { arresting_branch: '215', detainee_number: '6388', death_date: '2013-05-02' },
      { arresting_branch: 'الجوية', death_date: '2013-05-02' },
      { full_name: 'ماهر سامر الخطيب', arresting_branch: '215', death_date: '2013-05-02' },
    ]);
    const { pairs, unnamed } = candidatePairs(f);
    const list = Array.from({ length: pairs.length }, (_, p) => [pairs.a[p], pairs.b[p]]);
    expect(list).toEqual([[0, 1]]);
    expect(unnamed).toBe(3);
  });

  it("pairs a Caesar line's first name with the whole chain by the month of death, never two whole chains", () => {
    const f = featuresOf([
      { full_name: 'عمار محمود', arresting_branch: '215', detainee_number: '4560', death_date: '2014-12-09' },
      { first_name: 'عمار', father_name: 'محمود', family_name: 'طروس', death_date: '2014-12-09' },
      { first_name: 'عمار', father_name: 'خالد', family_name: 'الحلبي', death_date: '2014-12-20' },
      { full_name: 'عمار', arresting_branch: '227', death_date: '2014-11-30' },
    ]);
    // Two lines without a family name meet each other too (both lack it), if they share the month: not here.
    expect(pairsUnder(f, 'first+death_month (no family)')).toEqual([
      [0, 1],
      [0, 2],
    ]);
  });

  it('pairs a Caesar line read as first and family name with the whole chain by the day of death, not the month', () => {
    const f = featuresOf([
      // محود (محمود a letter short) is no listed first name, so the line reads as first + family name.
      { full_name: 'عمار محود', arresting_branch: '215', detainee_number: '4560', death_date: '2014-12-09' },
      { first_name: 'عمار', father_name: 'محمود', family_name: 'طروس', death_date: '2014-12-09' },
      { first_name: 'عمار', father_name: 'خالد', family_name: 'الحلبي', death_date: '2014-12-20' },
      { first_name: 'عمار', father_name: 'سامر', family_name: 'النجار', death_date: '2014-12-09' },
    ]);
    expect(f.father[0]).toBeLessThan(0);
    expect(f.family[0]).toBeGreaterThanOrEqual(0);
    // Two whole chains of one day (1, 3) are the other rules' to meet, or not.
    expect(pairsUnder(f, 'first+death_day (no father)')).toEqual([
      [0, 1],
      [0, 3],
    ]);
    expect(pairsUnder(f, 'first+death_month (no family)')).toEqual([]);
  });

  it('pairs a kunya and family name with the whole chain by the month of arrest, never two records with first names', () => {
    const f = featuresOf([
      { first_name: 'Abu Yasser', family_name: 'El-Kalsah', arrest_date: '2017-12-31' },
      { first_name: 'محمد', father_name: 'محمود', family_name: 'الكلصة', arrest_date: '2017-12-02' },
      { first_name: 'أحمد', family_name: 'الكلصة', arrest_date: '2017-12-20' },
      { first_name: 'Abu Ali', family_name: 'Kalsa', arrest_date: '2018-01-02' },
      { first_name: 'خالد', family_name: 'الكلصة', arrest_date: '2018-02-10' },
    ]);
    // A kunya row meets the records of its month and of the months either side (the two kunya rows once), never
    // two months off; the records with first names never meet here.
    expect(pairsUnder(f, 'family+arrest_month (no first)')).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 4],
    ]);
  });

  it('pairs a woman under two family names by her first name and year of birth, by name or by what the list says', () => {
    const f = featuresOf([
      { first_name: 'فاطمة', father_name: 'حسين', family_name: 'السماج', birth_year: '1994' },
      { first_name: 'Fatime', family_name: 'Katik', birth_date: '06/04/1994' },
      { first_name: 'نور', family_name: 'الحلبي', sex: 'أنثى', birth_year: '1980' },
      { first_name: 'Nour', family_name: 'Masri', sex: 'F', birth_year: '1980' },
      { first_name: 'نور', family_name: 'الشامي', birth_year: '1980' },
      { first_name: 'فاطمة', family_name: 'العظمة', birth_year: '1995' },
    ]);
    // نور is a man's name too: the third نور, whose list does not say, is not known to be a woman.
    expect(pairsUnder(f, 'first+birth_year (woman)')).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it('sub-blocks an oversized block and counts what it did not compare', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      first_name: 'محمد',
      family_name: 'المصري',
      birth_year: String(1970 + (i % 3)),
    }));
    const f = featuresOf(rows);
    const rule = blockingRules.filter((r) => r.name === 'first+family');
    const { pairs, stats } = candidatePairs(f, rule, { maxBlock: 12, window: 3 });
    expect(stats[0]).toMatchObject({ rule: 'first+family', oversizedBlocks: 1, oversizedRecords: 30 });
    // Three birth-year sub-blocks of 10: 3 × 45 pairs compared, the rest counted.
    expect(pairs.length).toBe(135);
    expect(stats[0]?.pairsNotCompared).toBe((30 * 29) / 2 - 135);
  });

  it('falls back to a sliding window when no sub-key splits a block', () => {
    const rows = Array.from({ length: 20 }, () => ({ first_name: 'Ali', family_name: 'Hasan' }));
    const f = featuresOf(rows);
    const rule = blockingRules.filter((r) => r.name === 'first+family');
    const { pairs, stats } = candidatePairs(f, rule, { maxBlock: 5, window: 2 });
    expect(stats[0]?.windowedBlocks).toBe(1);
    expect(pairs.length).toBe(19 + 18);
  });

  it('gives skeletons one slip apart a shared deletion variant, and short skeletons none', () => {
    const shared = (x: string, y: string) => deletionVariants(x).some((h) => deletionVariants(y).includes(h));
    expect(shared('MXZ', 'MFZ')).toBe(true);
    expect(shared('NRN', 'TNRN')).toBe(true);
    expect(shared('MXZ', 'TNRN')).toBe(false);
    expect(deletionVariants('MN')).toEqual([]);
  });

  it('in an oversized block, also pairs records arrested in the same month (a list row without father or birth year)', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      first_name: 'محمد',
      family_name: 'المصري',
      arrest_date: `2013-${String((i % 10) + 1).padStart(2, '0')}-0${(i % 3) + 1}`,
    }));
    const f = featuresOf(rows);
    const rule = blockingRules.filter((r) => r.name === 'first+family');
    const { pairs } = candidatePairs(f, rule, { maxBlock: 12, window: 3 });
    const list = new Set(Array.from({ length: pairs.length }, (_, p) => `${pairs.a[p]}-${pairs.b[p]}`));
    // Ten arrest months of three records each (i, i + 10, i + 20), far apart in the sliding window's order.
    for (let i = 0; i < 10; i++) {
      expect(list).toContain(`${i}-${i + 10}`);
      expect(list).toContain(`${i}-${i + 20}`);
      expect(list).toContain(`${i + 10}-${i + 20}`);
    }
  });

  it("in an oversized block, also pairs records arrested days apart across a month's end, not months apart", () => {
    // Thirty records of one name, one arrest date each, a month apart; and three more around the end of March.
    const rows: PersonRecordFields[] = Array.from({ length: 30 }, (_, i) => ({
      first_name: 'محمد',
      family_name: 'المصري',
      arrest_date: `${2001 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-10`,
    }));
    rows.push(
      { first_name: 'Mohamed', family_name: 'Al-Masri', arrest_date: '2019-04' },
      { first_name: 'محمد', family_name: 'المصري', arrest_date: '2019-03-26' },
      { first_name: 'محمد', family_name: 'المصري', arrest_date: '2019-02-26' },
      { first_name: 'محمد', family_name: 'المصري', arrest_date: '2019-05-08' },
    );
    const f = featuresOf(rows);
    const rule = blockingRules.filter((r) => r.name === 'first+family');
    // No sliding window: records with no overlap key but their month of arrest would meet their neighbours there.
    const { pairs } = candidatePairs(f, rule, { maxBlock: 12, window: 0 });
    const list = new Set(Array.from({ length: pairs.length }, (_, p) => `${pairs.a[p]}-${pairs.b[p]}`));
    // Known to the month, April meets a date in the last days of March (half a month on, April too) and one in the
    // first days of May (half a month back, April too).
    expect(list).toContain('30-31');
    expect(list).toContain('30-33');
    // A month and more apart: no key in common.
    expect(list).not.toContain('30-32');
    expect(list).not.toContain('31-32');
    expect(list).not.toContain('31-33');
  });

  it("in an oversized block, pairs two records by the father's name as another list's habit writes it", () => {
    // Thirty records of one name, each with a father of its own; then one man's two records, his father Vail in a
    // Turkish hand and وائل, with nothing else in common.
    const fathers = ['أحمد', 'خالد', 'عمر', 'علي', 'حسن', 'يوسف', 'سامر', 'ماهر', 'رياض', 'نزار'];
    const rows: PersonRecordFields[] = Array.from({ length: 30 }, (_, i) => ({
      first_name: 'محمد',
      father_name: fathers[i % 10] as string,
      family_name: 'المصري',
      birth_year: String(1950 + i),
    }));
    rows.push(
      { first_name: 'Muhammet', father_name: 'Vail', family_name: 'Al-Masri', birth_year: '1990' },
      { first_name: 'محمد', father_name: 'وائل', family_name: 'المصري', arrest_date: '2013-05-02' },
      { first_name: 'Mohamed', father_name: 'Nail', family_name: 'Al-Masri', birth_year: '1991' },
    );
    const f = featuresOf(rows);
    const rule = blockingRules.filter((r) => r.name === 'first+family');
    const { pairs } = candidatePairs(f, rule, { maxBlock: 12, window: 0 });
    const list = new Set(Array.from({ length: pairs.length }, (_, p) => `${pairs.a[p]}-${pairs.b[p]}`));
    expect(list).toContain('30-31');
    expect(list).not.toContain('31-32');
  });

  it('pairs a misspelt family name with the same first name once, and leaves same-name pairs to first + family', () => {
    const f = featuresOf([
      { first_name: 'شريف', father_name: 'خالد', family_name: 'البطيني' },
      { full_name: 'شريف خالد الدبطيني' },
      { first_name: 'Cherif', family_name: 'Batini' },
      { first_name: 'شريف', family_name: 'البطيني' },
      { first_name: 'شريف', family_name: 'الحلبي' },
    ]);
    const { pairs, stats } = candidatePairs(f, slipLinkRules);
    const list = Array.from({ length: pairs.length }, (_, p) => [pairs.a[p], pairs.b[p]].sort()).sort();
    // 0, 2 and 3 share the family name's skeleton (first + family compares them); 1 is one letter off all three.
    expect(list).toEqual([
      [0, 1],
      [1, 2],
      [1, 3],
    ]);
    expect(stats[0]?.rule).toBe('first+family~1');
  });

  it('pairs exactly the records a pair-by-pair reading of the spelling-tolerant rule pairs', () => {
    // Several first names and families of spellings one slip apart, in both scripts, mixed so that blocks hold
    // records of several kinds (first name × family skeleton) and pairs share more than one deletion variant.
    const firsts = ['شريف', 'Cherif', 'سامر', 'Samer', 'خالد'];
    // Kabrani / Karbani (KBRN / KRBN, two letters swapped) meet in two blocks but are not a slip (similarity 0.59).
    const families = [
      'البطيني',
      'الدبطيني',
      'Batini',
      'Kabrani',
      'الحلبي',
      'Karbani',
      'Halabi',
      'المحمد',
      'الحمد',
    ];
    const rows = [];
    for (let k = 0; k < 45; k++) {
      rows.push({ first_name: firsts[k % firsts.length], family_name: families[(k * 7) % families.length] });
    }
    const f = featuresOf(rows);
    const { pairs } = candidatePairs(f, slipLinkRules);
    const got = Array.from({ length: pairs.length }, (_, p) => `${pairs.a[p]}-${pairs.b[p]}`).sort();
    const similarity = new NameSimilarity(f.names);
    const skeleton = (i: number) => f.names.keyOf(f.family[i] as number);
    const variants = (i: number) => deletionVariants(f.names.keyText(skeleton(i)), 3);
    const expected: string[] = [];
    for (let i = 0; i < rows.length; i++) {
      for (let j = i + 1; j < rows.length; j++) {
        if (f.names.keyOf(f.first[i] as number) !== f.names.keyOf(f.first[j] as number)) continue;
        if (skeleton(i) === skeleton(j)) continue;
        if (!variants(i).some((v) => variants(j).includes(v))) continue;
        if (similarity.get(f.family[i] as number, f.family[j] as number) < similarSimilarity) continue;
        expected.push(`${i}-${j}`);
      }
    }
    expect(expected.length).toBeGreaterThan(10);
    expect(got).toEqual(expected.sort());
  });

  it('does not take two different names a letter apart for a slip', () => {
    const f = featuresOf([
      // Skeletons MHMD and HMD: one letter apart, two names.
      { first_name: 'سامر', family_name: 'المحمد', birth_year: '1980' },
      { first_name: 'سامر', family_name: 'الحمد', birth_year: '1980' },
    ]);
    const { pairs } = candidatePairs(f, slipLinkRules);
    expect(pairs.length).toBe(0);
  });
});

describe('sub-blocking', () => {
  it('parts a block by key, then record, and leaves out or keeps apart records without one, at any record number', () => {
    const parts = (block: number[], keepMissing: boolean) => {
      const key = new Map(block.map((i) => [i, i % 3 === 0 ? -1 : (i * 7) % 4]));
      const out: number[][] = [];
      partsByKey(
        Int32Array.from(block),
        (i) => key.get(i) as number,
        keepMissing,
        (p) => out.push([...p]),
      );
      return out;
    };
    const small = [17, 4, 9, 22, 5, 30, 11, 8, 2];
    expect(parts(small, false)).toEqual([[4, 8], [11], [2, 22], [5, 17]]);
    expect(parts(small, true)).toEqual([[9, 30], [4, 8], [11], [2, 22], [5, 17]]);
    // Record numbers past what fits one sorting number with the key: the same parts, by the slower path.
    const big = small.map((i) => i + 4_194_304 * 3);
    const shift = (ps: number[][]) => ps.map((p) => p.map((i) => i - 4_194_304 * 3));
    // (The offset is a multiple of 12: every record keeps its key.)
    expect(shift(parts(big, true))).toEqual(parts(small, true));
  });
});

describe('first + father with family names alike', () => {
  it('measures skeletons by letters inserted, dropped or changed, and stops past the limit', () => {
    expect(skeletonsWithin('TMT', 'TGT', 2)).toBe(true);
    expect(skeletonsWithin('DXN', 'ZDXN', 1)).toBe(true);
    expect(skeletonsWithin('KTSN', 'CTSN', 0)).toBe(false);
    expect(skeletonsWithin('FMN', 'FHN', 1)).toBe(true);
    expect(skeletonsWithin('SMLN', 'DMJN', 2)).toBe(true);
    expect(skeletonsWithin('SMLN', 'DMJR', 2)).toBe(false);
    expect(skeletonsWithin('BRN', 'BRNKTS', 2)).toBe(false);
    expect(skeletonsWithin('', 'KS', 2)).toBe(true);
  });

  it('pairs family names alike under one first and father name, and leaves names far apart unweighed', () => {
    const f = featuresOf([
      { first_name: 'محمد', father_name: 'أحمد', family_name: 'التميطي', birth_year: '1980' },
      { first_name: 'محمد', father_name: 'أحمد', family_name: 'التغيطي', birth_year: '1981' },
      { first_name: 'محمد', father_name: 'أحمد', family_name: 'الحلبي', birth_year: '1980' },
      { first_name: 'محمد', father_name: 'أحمد', family_name: 'الزعبي', birth_year: '1980' },
    ]);
    expect(pairsUnder(f, 'first+father≈')).toEqual([[0, 1]]);
    // The skeletons of the first and the other two are three letters apart or more: no weighing needed.
    const key = (i: number) => f.names.keyText(f.names.keyOf(f.family[i] as number));
    expect(skeletonsWithin(key(0), key(2), 2)).toBe(false);
    expect(skeletonsWithin(key(0), key(3), 2)).toBe(false);
  });
});

/** Whether records i and j share a key of the coarse family rule (first name exact, family coarse). */
function coarseMeeting(records: Parameters<typeof featuresOf>[0]): (i: number, j: number) => boolean {
  const f = featuresOf(records);
  const rule = coarseLinkRules[0] as (typeof coarseLinkRules)[number];
  const keys = records.map((_, i) => {
    const out: number[] = [];
    rule.keys(f, i, (k) => out.push(k));
    return out;
  });
  return (i, j) => (keys[i] as number[]).some((k) => (keys[j] as number[]).includes(k));
}

describe('the coarse family rule reads the other habits of lists', () => {
  it('gives a Turkish or German spelling of a family name the key of its English or French one', () => {
    const meet = coarseMeeting([
      { first_name: 'Mahmut', family_name: 'Casahe' },
      { first_name: 'Mahmoud', family_name: 'Dschasaha' },
      { first_name: 'Mahmoud', family_name: 'Djasaha' },
      { first_name: 'Mahmoud', family_name: 'Kassab' },
    ]);
    expect(meet(0, 1)).toBe(true);
    expect(meet(1, 2)).toBe(true);
    expect(meet(0, 2)).toBe(true);
    // Casahe read as English (ks) is not Kassab's key only by the other reading: Kassab stays apart from Djasaha.
    expect(meet(2, 3)).toBe(false);
  });
});

describe('the coarse family rule reads a Latin first name the other habits of lists', () => {
  it('meets Sulajman with سليمان and Camal with Jamal under one family name, and not another first name', () => {
    const f = featuresOf([
      { full_name: 'Sulajman Muhammad Ali', birth_year: '1991' },
      { first_name: 'سليمان', father_name: 'محمد', family_name: 'العلي' },
      { full_name: 'Camal Husayn Rabid', sex: 'M' },
      { full_name: 'Jamal Rabid' },
      { full_name: 'Kamal Rabid' },
    ]);
    const pairs = pairsUnder(f, 'first+family≈');
    expect(pairs).toContainEqual([0, 1]);
    expect(pairs).toContainEqual([2, 3]);
    // Jamal and Kamal are two names: no reading joins them.
    expect(pairs).not.toContainEqual([3, 4]);
  });
});

describe('the coarse family rule reads a first and a family name the other habits of lists at once', () => {
  it('meets Hamse Ranich with حمزه رنخ (German s for ز, ch for خ), Abdulhamit with عبد الحميد', () => {
    const f = featuresOf([
      { full_name: 'Hamse Ahmet Ranich', birth_year: '1957' },
      { first_name: 'حمزه', father_name: 'احمد', family_name: 'رنخ' },
      { first_name: 'Abdulhamit', father_name: 'Ali', family_name: 'Sarale' },
      { first_name: 'عبد الحميد', family_name: 'سرالة' },
      { first_name: 'عبد الحميت', family_name: 'شرالة' },
    ]);
    const pairs = pairsUnder(f, 'first+family≈');
    // Neither reading alone gives the pair a key: the first name read with s as z and the family name with ch as kh.
    expect(pairs).toContainEqual([0, 1]);
    expect(pairs).toContainEqual([2, 3]);
    // A reading is looked up among the names the records hold: an Arabic name is never read as a Latin one.
    expect(pairs).not.toContainEqual([3, 4]);
  });

  it('meets Ghiyas Tanshan with غياث طنشان (s for ث, as Turkish and Levantine speech say it)', () => {
    const f = featuresOf([
      { first_name: 'Ghiyas', family_name: 'Tanshan', birth_year: '1994' },
      { first_name: 'غياث', father_name: 'عبد الرحمن', family_name: 'طنشان' },
      { first_name: 'غياض', family_name: 'طنشان' },
    ]);
    const pairs = pairsUnder(f, 'first+family≈');
    expect(pairs).toContainEqual([0, 1]);
    expect(pairs).not.toContainEqual([0, 2]);
  });
});

describe('the coarse family rule reads a pet form of a first name as the name', () => {
  it('meets حمودة with محمد and صطوف with مصطفى under one family name, and scores the first names alike', () => {
    const f = featuresOf([
      { first_name: 'حمودة', father_name: 'خالد', family_name: 'الطحاكي' },
      { first_name: 'محمد', father_name: 'خالد', grandfather_name: 'محمد', family_name: 'الطحاكي' },
      { first_name: 'صطوف', family_name: 'العلي', birth_year: '1980' },
      { first_name: 'مصطفى', family_name: 'العلي' },
      { first_name: 'خالد', family_name: 'الطحاكي' },
    ]);
    const pairs = pairsUnder(f, 'first+family≈');
    expect(pairs).toContainEqual([0, 1]);
    expect(pairs).toContainEqual([2, 3]);
    // A pet form stands for its names only.
    expect(pairs).not.toContainEqual([0, 4]);
    const levels = new Uint8Array(16);
    const first = comparisons.findIndex((c) => c.name === 'first_name');
    compareAll(f, 0, 1, new NameSimilarity(f.names), levels);
    // A pet form scores 0.8 against its name (names' NICKNAME_SCORE): the near level's lower bound.
    expect(comparisons[first]?.levels[levels[first] as number]).toBe('near');
    compareAll(f, 0, 4, new NameSimilarity(f.names), levels);
    expect(comparisons[first]?.levels[levels[first] as number]).toBe('different');
  });
});

describe('the coarse family rule reads a Latin digraph as two letters', () => {
  it('meets Sakhahe with سكهاهة and Khadhan with خدحان, and still meets Shami with الشامي', () => {
    const meet = coarseMeeting([
      { first_name: 'Umar', family_name: 'Sakhahe' },
      { first_name: 'عمر', family_name: 'سكهاهة' },
      { first_name: 'Ahmad', family_name: 'Khadhan' },
      { first_name: 'أحمد', family_name: 'خدحان' },
      { first_name: 'Ahmad', family_name: 'Shami' },
      { first_name: 'أحمد', family_name: 'الشامي' },
    ]);
    expect(meet(0, 1)).toBe(true);
    expect(meet(2, 3)).toBe(true);
    // The reading adds a key; the name's own (ش) still meets الشامي.
    expect(meet(4, 5)).toBe(true);
    expect(meet(0, 3)).toBe(false);
  });

  it('reads a family name whose coarse key is empty (Hakheh: h and kh only) by its readings all the same', () => {
    const f = featuresOf([
      { full_name: 'Fatima al-Hakheh', arrest_date: '2013-08' },
      { first_name: 'فاطمة', father_name: 'كمال', family_name: 'الحكهة' },
      { first_name: 'فاطمة', family_name: 'الحجة' },
    ]);
    const pairs = pairsUnder(f, 'first+family≈');
    expect(pairs).toContainEqual([0, 1]);
    expect(pairs).not.toContainEqual([0, 2]);
  });
});

describe('a name beginning with عل written in Latin with al (Alwani, el-Alwani, Alwan)', () => {
  it('meets its Arabic spelling though the al is read as an article, and not a name without the ع', () => {
    const meet = coarseMeeting([
      { first_name: 'Omar', family_name: 'Alwani' },
      { first_name: 'عمر', family_name: 'العلواني' },
      { first_name: 'Omar', family_name: 'el-Alwani' },
      { first_name: 'عمر', family_name: 'علواني' },
      { first_name: 'Alwan', family_name: 'Hamwi' },
      { first_name: 'علوان', family_name: 'الحموي' },
      { first_name: 'Wan', family_name: 'Hamwi' },
    ]);
    expect(meet(0, 1)).toBe(true);
    expect(meet(2, 1)).toBe(true);
    expect(meet(2, 3)).toBe(true);
    expect(meet(4, 5)).toBe(true);
    // The reading adds a key; علوان's own still meets its spelling, and Wan is not Omar.
    expect(meet(6, 4)).toBe(true);
    expect(meet(6, 5)).toBe(true);
    expect(meet(6, 3)).toBe(false);
  });

  it('makes the pairs candidates when linking, by the first name and the family name so read', () => {
    const f = featuresOf([
      { full_name: 'Omar Alwani', arrest_date: '2013-08' },
      { first_name: 'عمر', father_name: 'خالد', family_name: 'العلواني', birth_year: '1980' },
      { full_name: 'Omar el-Alwani', arrest_date: '2013-09' },
    ]);
    const { pairs } = candidatePairs(f);
    const list = Array.from({ length: pairs.length }, (_, p) => [pairs.a[p], pairs.b[p]].sort().join('-'));
    expect(list).toContain('0-1');
    expect(list).toContain('1-2');
  });
});

describe('a family name of ج and letters the coarse skeleton leaves out', () => {
  it('meets its other spellings by ج (Cuayh / Djouayh / جعيه, Khajaja / Chadschadscha, Jayyaw / Cayyav)', () => {
    const f = featuresOf([
      { first_name: 'Mahmud', father_name: 'Abdullah', family_name: 'Cuayh' },
      { first_name: 'Mahmud', family_name: 'Djouayh', birth_date: '14/01/1999' },
      { first_name: 'محمود', father_name: 'عبد الله', family_name: 'جعيه' },
      { full_name: 'Moustafa Khajaja' },
      { full_name: 'Mustafa Muhammad Chadschadscha', birth_year: '1973' },
      { first_name: 'Fatima', family_name: 'Aljayyaw' },
      { first_name: 'Fatma', father_name: 'Mohammed', family_name: 'al-Cayyav' },
      // A name of other such letters still has no coarse key: Hakheh meets no one by it.
      { first_name: 'Mahmud', family_name: 'Hakheh' },
    ]);
    const pairs = pairsUnder(f, 'first+family≈');
    // Djouayh and جعيه have one exact key (J): first+family's pair, not this rule's.
    for (const pair of [
      [0, 1],
      [0, 2],
      [3, 4],
      [5, 6],
    ])
      expect(pairs).toContainEqual(pair);
    expect(pairs).not.toContainEqual([1, 7]);
  });
});

describe('the habit reading rule', () => {
  it("meets a family name read as another habit writes it beside a common first name's crowd", () => {
    // Sixty Mohammad Hassan share Tanay's coarse key (SN): the coarse rule's block is too large to compare whole,
    // and El-Tanay and El Tanaj (German j for ي) share nothing else it could split it by.
    const crowd = Array.from({ length: 60 }, (_, k) => ({
      first_name: 'Mohammad',
      family_name: 'Hassan',
      birth_year: String(1950 + (k % 40)),
      place_of_origin: `Town ${k}`,
    }));
    const f = featuresOf([
      { first_name: 'Mohammad', father_name: 'Nabeel', family_name: 'El-Tanay', birth_date: '03.02.1974' },
      { full_name: 'Muhammad El Tanaj', birth_year: '1975' },
      { full_name: 'Muhammad Al-Sahissi', birth_year: '1965' },
      { first_name: 'Muhammed', family_name: 'Ez-Zahissi', father_name: 'Mahmud', arrest_date: '28/11/2016' },
      // French r for غ.
      { first_name: 'Ahmad', family_name: 'Ralir', arrest_date: '2014-03' },
      { first_name: 'أحمد', father_name: 'محمد', family_name: 'غلير' },
      ...crowd,
    ]);
    const coarse = candidatePairs(f, coarseLinkRules.slice(0, 1));
    const found = (pairs: typeof coarse.pairs) =>
      Array.from({ length: pairs.length }, (_, p) => [pairs.a[p] as number, pairs.b[p] as number].sort());
    expect(found(coarse.pairs)).not.toContainEqual([0, 1]);
    const pairs = pairsUnder(f, 'first+family (habit reading)');
    expect(pairs).toContainEqual([0, 1]);
    expect(pairs).toContainEqual([2, 3]);
    expect(pairs).toContainEqual([4, 5]);
    // Tanay and Hassan are no readings of each other.
    expect(pairs.every(([a, b]) => (a as number) < 6 && (b as number) < 6)).toBe(true);
  });
});
