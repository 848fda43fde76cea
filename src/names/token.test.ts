import { describe, expect, it } from 'vitest';
import {
  compareTokens,
  explainTokens,
  LEXICON_DIFFERENT_CEILING,
  prepareToken,
  TOKEN_MATCH_THRESHOLD,
  tokenKey,
  tokenSimilarity,
} from './index.js';

describe('token similarity', () => {
  it.each([
    // Listed spellings of one name, across and within scripts.
    ['محمد', 'Mohammad'],
    ['محمد', 'Mhd'],
    ['Mohammad', 'Muhammad'],
    ['Mohamed', 'Mouhamad'],
    ['حسين', 'Hussein'],
    ['Hussein', 'Houssein'],
    ['Husayn', 'حسين'],
    ['Chadi', 'Shadi'],
    ['شادي', 'Chadi'],
    ['Qasim', 'Kassem'],
    ['قاسم', 'Kassim'],
    ['عبد الرحمن', 'Abderrahmane'],
    ['Abd al-Rahman', 'Abdulrahman'],
    ['Abdel-Rahman', 'عبدالرحمن'],
    ['نور الدين', 'Noureddine'],
    ['Nour Eddine', 'Nureddin'],
    ['المصري', 'Elmasri'],
    ['Al-Masri', 'مصري'],
    // Spellings the lexicon does not list.
    ['سليمان', 'Souleiman'],
    ['عبيدة', 'Obeida'],
    ['حذيفة', 'Hudhayfa'],
    ['فتحي', "Fat'hi"],
    ['أدهم', 'Adham'],
    ['Mo7ammad', 'محمد'],
    ['Bayraktar', 'Bairakdar'],
    ['مردم بك', 'Mardam'],
    ['Mardam Bey', 'Mardambek'],
  ])('takes %s and %s for the same name', (a, b) => {
    expect(tokenSimilarity(a, b)).toBeGreaterThanOrEqual(TOKEN_MATCH_THRESHOLD);
  });

  it.each([
    ['سامر', 'سمير'],
    ['Samer', 'Samir'],
    ['سامر', 'Samir'],
    ['حسن', 'حسين'],
    ['Hasan', 'Hussein'],
    ['محمد', 'محمود'],
    ['Mohammad', 'Mahmoud'],
    ['محمد', 'أحمد'],
    ['محمد', 'حامد'],
    ['Ahmad', 'Hamed'],
    ['عمر', 'عمار'],
    ['Omar', 'Ammar'],
    ['جميل', 'جميلة'],
    ['سعيد', 'سعد'],
    ['كمال', 'كامل'],
  ])('keeps %s and %s apart', (a, b) => {
    expect(tokenSimilarity(a, b)).toBeLessThanOrEqual(LEXICON_DIFFERENT_CEILING);
  });

  it.each([
    ['Nabil', 'Nabila'],
    ['نبيل', 'نبيلة'],
    ['Amin', 'Amina'],
    ['Hamd', 'Hamdi'],
  ])('keeps the unlisted pair %s and %s below a match', (a, b) => {
    expect(tokenSimilarity(a, b)).toBeLessThan(TOKEN_MATCH_THRESHOLD);
  });

  it('scores unrelated names low', () => {
    expect(tokenSimilarity('Mohammad', 'Ghassan')).toBeLessThan(0.5);
    expect(tokenSimilarity('محمد', 'Ziad')).toBeLessThan(0.5);
  });

  it('scores identical tokens 1 and letterless tokens 0', () => {
    expect(tokenSimilarity('Mohammad', 'MOHAMMAD')).toBe(1);
    expect(tokenSimilarity('مُحَمَّد', 'محمد')).toBe(1);
    expect(tokenSimilarity('', '')).toBe(0);
    expect(tokenSimilarity('--', 'Samer')).toBe(0);
  });

  it('is symmetric across scripts', () => {
    for (const [a, b] of [
      ['محمد', 'Mouhamed'],
      ['Souleiman', 'سليمان'],
      ['Almasri', 'مصري'],
    ] as const) {
      expect(tokenSimilarity(a, b)).toBe(tokenSimilarity(b, a));
    }
  });

  it('compares prepared tokens the same as the convenience call', () => {
    const a = prepareToken('Houssam');
    const b = prepareToken('حسام');
    expect(compareTokens(a, b)).toBe(tokenSimilarity('Houssam', 'حسام'));
  });

  it('explains why two tokens score what they score', () => {
    const e = explainTokens(prepareToken('Samer'), prepareToken('Samir'));
    expect(e.reason).toBe('different-lexicon-entries');
    expect(e.detail).toContain('سامر');
    expect(explainTokens(prepareToken('Mhd'), prepareToken('محمد')).reason).toBe('same-lexicon-entry');
    expect(explainTokens(prepareToken('Souleiman'), prepareToken('سليمان')).reason).toBe('spelling');
  });
});

describe('tokenKey', () => {
  it.each([
    [['محمد', 'Mohammad', 'Muhammed', 'Mhd', 'Mouhamad'], 'MHMD'],
    [['حسين', 'Hussein', 'Houssein', 'Husayn'], 'HSN'],
    [['شادي', 'Chadi', 'Shadi'], 'CD'],
    [['قاسم', 'Qasim', 'Kassem'], 'KSM'],
    [['عبد الرحمن', 'Abdulrahman', 'Abd al-Rahman', 'Abderrahmane'], 'BDRHMN'],
    [['المصري', 'Al-Masri', 'Elmasri', 'Masri'], 'MSR'],
    [['سليمان', 'Suleiman', 'Sulayman'], 'SLMN'],
  ])('gives %j the key %s', (tokens, key) => {
    for (const t of tokens) expect(tokenKey(t), t).toBe(key);
  });

  it('marks vowel-only tokens and letterless ones', () => {
    expect(tokenKey('آية')).toBe('-');
    expect(tokenKey('Aya')).toBe('-');
    expect(tokenKey('')).toBe('');
    expect(tokenKey('!!')).toBe('');
  });
});
