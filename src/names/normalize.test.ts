import { describe, expect, it } from 'vitest';
import { clean, detectScript, normalize } from './index.js';

describe('clean (display hygiene)', () => {
  it.each([
    ['strips the right-to-left mark', 'محمد\u200f', 'محمد'],
    ['strips the left-to-right mark', '\u200eAhmad', 'Ahmad'],
    ['strips bidi embeddings and overrides', '\u202bمحمد\u202c \u202eX\u202c', 'محمد X'],
    ['strips bidi isolates', '\u2067أحمد\u2069', 'أحمد'],
    ['strips the Arabic letter mark', 'علي\u061c', 'علي'],
    ['strips zero-width spaces and joiners', 'مح\u200bم\u200dد\u200c', 'محمد'],
    ['strips the byte order mark', '\ufeffSamer', 'Samer'],
    ['strips tatweel', 'محـــمد', 'محمد'],
    ['strips tashkeel', 'مُحَمَّدٌ', 'محمد'],
    ['strips the superscript alef', 'رحمٰن', 'رحمن'],
    ['strips Quranic annotation marks', 'محمد\u06d6\u06e2', 'محمد'],
    ['turns Arabic-Indic digits to ASCII', 'الفرع ٢٣٥', 'الفرع 235'],
    ['turns Persian digits to ASCII', 'فرع ۲۱۵', 'فرع 215'],
    ['turns Persian kaf to Arabic kaf', 'کریم', 'كريم'],
    ['turns Persian yeh to Arabic yeh', 'علی', 'علي'],
    ['unfolds Arabic presentation forms', 'ﻣﺤﻤﺪ', 'محمد'],
    ['unfolds fullwidth Latin', 'Ｓａｍｅｒ', 'Samer'],
    ['turns tabs and line breaks into spaces', 'Mohammad\tAhmad\nAli', 'Mohammad Ahmad Ali'],
    ['removes other control characters', 'Sa\u0000mer\u0007', 'Samer'],
    ['drops unpaired surrogates', 'Sa\ud800mer\udc00', 'Samer'],
    ['keeps paired surrogates', 'a😀b', 'a😀b'],
    ['collapses and trims whitespace', '  محمد   أحمد  ', 'محمد أحمد'],
    ['keeps hamza forms, case and punctuation', 'أحمد Al-Masri', 'أحمد Al-Masri'],
    ['drops honorific ligatures', 'محمد ﷺ', 'محمد'],
  ])('%s', (_rule, input, expected) => {
    expect(clean(input)).toBe(expected);
  });
});

describe('normalize (matching form)', () => {
  it.each([
    ['folds alif with hamza above', 'أحمد', 'احمد'],
    ['folds alif with hamza below', 'إبراهيم', 'ابراهيم'],
    ['folds alif madda', 'آمنة', 'امنه'],
    ['folds alif wasla', 'ٱلله', 'الله'],
    ['folds alif maqsura to yeh', 'مصطفى', 'مصطفي'],
    ['folds ta marbuta to heh', 'فاطمة', 'فاطمه'],
    ['folds waw with hamza', 'مؤيد', 'مويد'],
    ['folds yeh with hamza', 'رائد', 'رايد'],
    ['applies hygiene first', 'مُحَمَّد\u200f', 'محمد'],
    ['lower-cases Latin', 'MOHAMMAD', 'mohammad'],
    ['removes Latin diacritics', 'Chérif Hélou', 'cherif helou'],
    ['removes transliteration dots and macrons', 'Muḥammad Saʿīd', 'muhammad said'],
    ['drops apostrophes inside words', "Sa'id Ra’ed", 'said raed'],
    ['drops ʿayn and hamza letters', 'ʿAbd al-Raʾūf', 'abd al rauf'],
    ['turns hyphens into spaces', 'Abdel-Rahman Al-Masri', 'abdel rahman al masri'],
    ['turns dots and commas into spaces', 'Masri, Mhd.', 'masri mhd'],
    ['turns Arabic punctuation into spaces', 'المصري، محمد', 'المصري محمد'],
    ['spells out special Latin letters', 'Straße Søren Łukasz', 'strasse soren lukasz'],
    ['keeps digits', 'Branch 235', 'branch 235'],
    ['gives the empty string for punctuation only', ' -- ,, !! ', ''],
    ['gives the empty string for the empty string', '', ''],
  ])('%s', (_rule, input, expected) => {
    expect(normalize(input)).toBe(expected);
  });

  it('is idempotent on mixed text', () => {
    const text = 'مُحَمَّد عبد الرحمن Al-Masri, Saʿīd ٢٣٥';
    expect(normalize(normalize(text))).toBe(normalize(text));
  });
});

describe('idempotence where a removal reveals more to do', () => {
  it.each([
    // ۂ loses its hamza in folding, leaving the Persian ہ that clean writes ه.
    ['ۂ', 'ه'],
    ['بۂ', 'به'],
    // A zero-width space between a letter and its accent: once it goes, the two compose.
    ['e\u200b\u0301', 'e'],
    // A control character between two marks of different classes: once it goes, NFC orders them.
    ['a\u0592\u0000\u0737', 'a'],
  ])('normalize(%j) is %j, and again the same', (text, form) => {
    expect(normalize(text)).toBe(form);
    expect(normalize(normalize(text))).toBe(form);
    expect(clean(clean(text))).toBe(clean(text));
  });
});

describe('detectScript', () => {
  it.each([
    ['محمد', 'ar'],
    ['Mohammad', 'latn'],
    ['Chérif', 'latn'],
    ['محمد Mohammad', 'mixed'],
    ['Moحمد', 'mixed'],
    ['123 -- !', 'none'],
    ['', 'none'],
    ['Иван', 'none'],
    ['٢٣٥', 'none'],
  ])('reads %j as %s', (text, script) => {
    expect(detectScript(text)).toBe(script);
  });
});
