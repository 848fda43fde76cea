import { describe, expect, it } from 'vitest';
import {
  countTokenFrequencies,
  explainSimilarity,
  keys,
  NAME_MATCH_THRESHOLD,
  phoneticKey,
  similarity,
} from './index.js';

const base = 'Mohammad Abdulrahman Al-Masri';

describe('full-name similarity', () => {
  it.each([
    ['the same name in Arabic', 'محمد عبد الرحمن المصري'],
    ['another transliteration', 'Muhammed Abd al-Rahman Elmasri'],
    ['a registry spelling with a joined compound and no article', 'محمد عبدالرحمن مصري'],
    ['a glued article', 'Mohammad Abdulrahman Almasri'],
    ['a dropped article', 'Mohamed Abdelrahman Masri'],
    ['a split compound', 'Mohammad Abdul Rahman Al-Masri'],
    ['the grandfather added', 'Mohammad Abdulrahman Hasan Al-Masri'],
    ['the father missing', 'Mohammad Al-Masri'],
    ['the family name first after a comma', 'Al-Masri, Mohammad Abdulrahman'],
    ['the family name first without a comma', 'Masri Mohammad Abdulrahman'],
  ])('matches %s', (_case, other) => {
    expect(similarity(base, other)).toBeGreaterThanOrEqual(NAME_MATCH_THRESHOLD);
  });

  it.each([
    ['a brother', 'Ahmad Abdulrahman Al-Masri'],
    ['a brother in Arabic', 'أحمد عبد الرحمن المصري'],
    ['a cousin', 'Mahmoud Hasan Al-Masri'],
    ['the father', 'Abdulrahman Ali Al-Masri'],
    ['someone else', 'Samer Hussein Al-Halabi'],
  ])('does not match %s', (_case, other) => {
    expect(similarity(base, other)).toBeLessThan(NAME_MATCH_THRESHOLD);
  });

  it('scores siblings below a missing grandfather', () => {
    const full = 'Samer Khaled Omar Al-Halabi';
    expect(similarity(full, 'Samer Khaled Al-Halabi')).toBeGreaterThan(
      similarity(full, 'Samir Khaled Omar Al-Halabi'),
    );
  });

  it('scores identical names 1 and names without letters 0', () => {
    expect(similarity(base, base)).toBe(1);
    expect(similarity('  محمد  أحمد ', 'محمد أحمد')).toBe(1);
    expect(similarity('', base)).toBe(0);
    expect(similarity('!!!', '!!!')).toBe(0);
  });

  it('is symmetric', () => {
    const pairs = [
      [base, 'محمد عبدالرحمن مصري'],
      ['Al-Masri, Mohammad', 'Mohammad Hasan Masri'],
      ['Samer Halabi', 'سمير حلبي'],
    ];
    for (const [a, b] of pairs)
      expect(similarity(a as string, b as string)).toBe(similarity(b as string, a as string));
  });

  it('counts an agreement on a common name for less when frequencies are given', () => {
    const names = [
      ...Array.from({ length: 300 }, (_, i) => `محمد ${['أحمد', 'علي', 'حسن', 'خالد'][i % 4]} المصري`),
      ...Array.from({ length: 30 }, () => 'Zuhair Kabbani'),
      'Ghiath Tarabishi',
    ];
    const frequencies = countTokenFrequencies(names);
    expect(frequencies.counts.get('MHMD')).toBe(300);
    // Only the first name agrees: with frequencies, the very common محمد says less.
    const a = 'Mohammad Ghiath Tarabishi';
    const b = 'Mohammad Zuhair Kabbani';
    expect(similarity(a, b, { frequencies })).toBeLessThan(similarity(a, b));
    // Disagreement counts in full whatever the frequencies.
    const c = 'Ghiath Mohammad Tarabishi';
    const d = 'Zuhair Mohammad Tarabishi';
    expect(similarity(c, d, { frequencies })).toBeLessThan(NAME_MATCH_THRESHOLD);
  });

  it('explains the parts, the alignment and why', () => {
    const e = explainSimilarity(base, 'محمد المصري');
    expect(e.score).toBe(similarity(base, 'محمد المصري'));
    expect(e.verdict).toBe('match');
    expect(e.a.first).toBe('Mohammad');
    expect(e.b.family).toBe('المصري');
    expect(e.pairs.map((p) => [p.a, p.b])).toEqual([
      ['Mohammad', 'محمد'],
      ['Al-Masri', 'المصري'],
    ]);
    expect(e.pairs[0]?.why).toContain('محمد');
    expect(e.missing).toEqual([
      { side: 'a', part: 'Abdulrahman', role: 'father', weight: expect.any(Number) },
    ]);
    expect(explainSimilarity('Al-Masri, Mohammad', 'Mohammad Masri').reordered).toBe('none');
    expect(explainSimilarity('Masri Mohammad Ahmad', 'Mohammad Ahmad Masri').reordered).not.toBe('none');
    expect(explainSimilarity('Samer Halabi', 'Samir Halabi').verdict).not.toBe('match');
  });
});

describe('blocking keys', () => {
  it('meet across scripts and spellings', () => {
    const a = keys('محمد عبد الرحمن المصري');
    for (const other of [
      'Mohammad Abdulrahman Al-Masri',
      'Muhammed Abd al-Rahman Elmasri',
      'Mhd Abderrahmane Masri',
    ]) {
      const b = keys(other);
      expect(b, other).toContain('k:MHMD');
      expect(b, other).toContain('k:MSR');
      expect(b.filter((k) => a.includes(k)).length, other).toBeGreaterThanOrEqual(3);
    }
    expect(a).toContain('fk:MHMD|MSR');
  });

  it('include a Double Metaphone key that Arabic parts share', () => {
    expect(phoneticKey('Mohammad')).toBe(phoneticKey('محمد'));
    expect(phoneticKey('Hussein')).toBe(phoneticKey('حسين'));
    expect(keys('Hussein')).toContain(`p:${phoneticKey('Hussein')}`);
  });

  it('are empty for a name without letters', () => {
    expect(keys('')).toEqual([]);
    expect(keys('-- !!')).toEqual([]);
  });
});
