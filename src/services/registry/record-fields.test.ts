import { describe, expect, it } from 'vitest';
import { prepareRecord } from './record-fields.js';
import { scoreName } from './record-search.js';

// Synthetic names only.
describe('preparing a record', () => {
  it('parses a full name, reads dates at their precision and resolves places by alias', () => {
    const p = prepareRecord({
      full_name: 'محمد عبد الرحمن المصري',
      arrest_date: '١٥/٠٣/٢٠١٢',
      birth_date: '1985-04',
      governorate: 'ريف دمشق',
      arresting_branch: 'الفرع 215',
      sex: 'ذكر',
    });
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    expect(p.record).toMatchObject({
      first_name: 'محمد',
      father_name: 'عبد الرحمن',
      family_name: 'المصري',
      name_script: 'ar',
      arrest_date: '2012-03-15',
      birth_date: '1985-04',
      birth_year: 1985,
      arresting_branch_id: 'branch-215',
      sex: 'm',
    });
    expect(p.record.governorate_id).toBeTruthy();
    expect(JSON.parse(p.record.original)).toMatchObject({ arrest_date: '١٥/٠٣/٢٠١٢' });
  });

  it('gives the same name keys in both scripts', () => {
    const ar = prepareRecord({ first_name: 'محمد', father_name: 'عبد الرحمن', family_name: 'المصري' });
    const la = prepareRecord({ full_name: 'Mohammad Abdulrahman Al-Masri' });
    if (!ar.ok || !la.ok) throw new Error('not prepared');
    expect(ar.record.full_name).toBe('محمد عبد الرحمن المصري');
    expect(new Set(ar.nameKeys)).toEqual(new Set(la.nameKeys));
    expect(ar.nameKeys).toContain('fk:MHMD|MSR');
  });

  it('names every bad field, and warns of places it does not know', () => {
    const bad = prepareRecord({ birth_date: '1990-13-01', birth_year: '19x0', sex: 'q', death_date: 'soon' });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.errors.map((e) => e.field).sort()).toEqual([
        'birth_date',
        'birth_year',
        'death_date',
        'sex',
      ]);
    const odd = prepareRecord({
      full_name: 'Ali Hasan',
      governorate: 'Atlantis',
      birth_year: '1980',
      birth_date: '1981',
    });
    expect(odd.ok).toBe(false);
    const warn = prepareRecord({
      full_name: 'Ali Hasan',
      governorate: 'Atlantis',
      arresting_branch: 'Nowhere',
    });
    expect(warn.ok && warn.warnings.map((w) => w.field)).toEqual(['governorate', 'arresting_branch']);
  });
});

describe('scoring a name against a record', () => {
  const record = {
    first_name: 'Mohammad',
    father_name: 'Abdulrahman',
    grandfather_name: null,
    family_name: 'Al-Masri',
    full_name: 'Mohammad Abdulrahman Al-Masri',
  };
  it('covers the query part by part and says why', () => {
    const s = scoreName('محمد المصري', record, true);
    expect(s.score).toBeGreaterThan(0.9);
    expect(s.why).toEqual([
      expect.stringMatching(/first name "Mohammad"/),
      expect.stringMatching(/family name "Al-Masri"/),
    ]);
    expect(scoreName('Omar Khatib', record).score).toBeLessThan(0.72);
  });
});

describe('date messages (issue 21, Reliability 4)', () => {
  it('says what is accepted: a year outside the range, a day that does not exist, a form not read', () => {
    const messages = (value: string) => {
      const p = prepareRecord({ full_name: 'Synthetic Person', birth_date: value });
      return p.ok ? [] : p.errors.map((e) => e.message);
    };
    expect(messages('1800')).toEqual([
      '"1800" is not a date: the year 1800 is outside 1850–2100, the years athar accepts',
    ]);
    expect(messages('31/02/1990')[0]).toMatch(/no such month or day/);
    expect(messages('soon')[0]).toMatch(
      /use YYYY-MM-DD, DD\/MM\/YYYY, YYYY-MM, YYYY or a month by name \(June 2013, حزيران 2013\) \(years 1850–2100\)/,
    );
    expect(messages('حزيران 2013')).toEqual([]);
  });
});
