import { describe, expect, it } from 'vitest';
import { capitalsReading, isGivenNameOnly, orderReading, type ParsedName, parse } from './index.js';

type Expected = Partial<Omit<ParsedName, 'script' | 'confidence'>>;

describe('parse', () => {
  it.each<[string, string, Expected]>([
    // Four parts: first, father, grandfather, family.
    [
      'four Arabic parts',
      'محمد أحمد علي المصري',
      { first: 'محمد', father: 'أحمد', grandfather: 'علي', family: 'المصري' },
    ],
    [
      'four Latin parts',
      'Mohammad Ahmad Ali Al-Masri',
      { first: 'Mohammad', father: 'Ahmad', grandfather: 'Ali', family: 'Al-Masri' },
    ],
    // Three parts: first, father, family.
    [
      'three Arabic parts with a compound',
      'محمد عبد الرحمن المصري',
      { first: 'محمد', father: 'عبد الرحمن', family: 'المصري' },
    ],
    [
      'three Latin parts with a glued compound',
      'Mohammad Abdulrahman Al-Masri',
      { first: 'Mohammad', father: 'Abdulrahman', family: 'Al-Masri' },
    ],
    [
      'three Latin parts with an article inside the compound',
      'Muhammed Abd al-Rahman Elmasri',
      { first: 'Muhammed', father: 'Abd al-Rahman', family: 'Elmasri' },
    ],
    [
      'a glued Arabic compound',
      'محمد عبدالرحمن مصري',
      { first: 'محمد', father: 'عبدالرحمن', family: 'مصري' },
    ],
    // Two parts and one part.
    ['two Arabic parts', 'سامر الحلبي', { first: 'سامر', family: 'الحلبي' }],
    ['two Latin parts', 'Samer Halabi', { first: 'Samer', family: 'Halabi' }],
    ['one part', 'Mohammad', { first: 'Mohammad', given: ['Mohammad'] }],
    // Compounds stay one part.
    ['Abdul Rahman written apart', 'Abdul Rahman Hasan', { first: 'Abdul Rahman', family: 'Hasan' }],
    ['Abdel-Rahman hyphenated', 'Abdel-Rahman Hasan', { first: 'Abdel-Rahman', family: 'Hasan' }],
    ['Abd al Aziz with a loose article', 'Abd al Aziz Kurdi', { first: 'Abd al Aziz', family: 'Kurdi' }],
    ['عبد الله', 'عبد الله الخطيب', { first: 'عبد الله', family: 'الخطيب' }],
    ['Abdullah', 'Abdullah Khatib', { first: 'Abdullah', family: 'Khatib' }],
    ['نور الدين', 'نور الدين أحمد الحريري', { first: 'نور الدين', father: 'أحمد', family: 'الحريري' }],
    [
      'Nour Eddine',
      'Nour Eddine Ahmad Alhariri',
      { first: 'Nour Eddine', father: 'Ahmad', family: 'Alhariri' },
    ],
    ['Salah ed-Din', 'Salah ed-Din Yusuf', { first: 'Salah ed-Din', family: 'Yusuf' }],
    ['… الله', 'نصر الله حسن', { first: 'نصر الله', family: 'حسن' }],
    ['… Allah', 'Nasr Allah Hasan', { first: 'Nasr Allah', family: 'Hasan' }],
    // … Allah after a whole عبد compound is a name of its own (no name is عبد القادر الله).
    [
      'al-Allah after Abd al-Kadir',
      'Mustapha Abd Al-Kadir al-Allah',
      { first: 'Mustapha', father: 'Abd Al-Kadir', family: 'al-Allah' },
    ],
    [
      'الله after a glued عبدالقادر',
      'مصطفى عبدالقادر الله',
      { first: 'مصطفى', father: 'عبدالقادر', family: 'الله' },
    ],
    ['Abu Abd Allah', 'Abu Abd Allah Halabi', { first: 'Abu Abd Allah', family: 'Halabi' }],
    // … Eddine joins a name the lexicon lists with it, or one it does not list alone; not a listed name it never
    // makes a compound with.
    ['Adin after Yasser', 'Yasser Adin', { first: 'Yasser', family: 'Adin' }],
    ['Alaa Eddine', 'Alaa Eddine Halabi', { first: 'Alaa Eddine', family: 'Halabi' }],
    ['Abu Nour Eddine', 'Abu Nour Eddine', { first: 'Abu Nour Eddine', given: ['Abu Nour Eddine'] }],
    ['أبو with its name', 'أبو بكر الصديق', { first: 'أبو بكر', family: 'الصديق' }],
    ['Abu with its name', 'Abu Bakr Al-Siddiq', { first: 'Abu Bakr', family: 'Al-Siddiq' }],
    // Articles stay with their name.
    ['a loose Arabic article', 'محمد ال مصري', { first: 'محمد', family: 'ال مصري' }],
    ['a loose Latin article', 'Mohammad Al Masri', { first: 'Mohammad', family: 'Al Masri' }],
    ['an assimilated article', 'Ahmad ash-Shami', { first: 'Ahmad', family: 'ash-Shami' }],
    ['a French-style assimilated article', 'Ahmad Ech-Chammaa', { first: 'Ahmad', family: 'Ech-Chammaa' }],
    ['a German-style assimilated article', 'Salim Esch-Scharif', { first: 'Salim', family: 'Esch-Scharif' }],
    // Titles stay with the family name.
    [
      'a title after an Arabic family name',
      'وسيم رضا مردم بك',
      { first: 'وسيم', father: 'رضا', family: 'مردم بك' },
    ],
    ['Bey after a Latin family name', 'Naim Mardam Bey', { first: 'Naim', family: 'Mardam Bey' }],
    // Generation separators.
    [
      'bin between generations',
      'Mohammad bin Ahmad bin Ali Al-Masri',
      { first: 'Mohammad', father: 'Ahmad', grandfather: 'Ali', family: 'Al-Masri' },
    ],
    ['بن without a family name', 'محمد بن أحمد', { first: 'محمد', father: 'أحمد', family: undefined }],
    [
      'ibn without a family name',
      'Mohammad ibn Ahmad ibn Ali',
      { first: 'Mohammad', father: 'Ahmad', grandfather: 'Ali' },
    ],
    ['بنت', 'فاطمة بنت محمد', { first: 'فاطمة', father: 'محمد', family: undefined }],
    // Family name written first.
    ['after a comma', 'Al-Masri, Mohammad Ahmad', { first: 'Mohammad', father: 'Ahmad', family: 'Al-Masri' }],
    ['after an Arabic comma', 'المصري، محمد أحمد', { first: 'محمد', father: 'أحمد', family: 'المصري' }],
    [
      'an article-bearing first part',
      'المصري محمد أحمد',
      { first: 'محمد', father: 'أحمد', family: 'المصري' },
    ],
    [
      'an article-bearing first part before a given name ending in ى',
      'الطحان خديجة علي مصطفى',
      { first: 'خديجة', father: 'علي', grandfather: 'مصطفى', family: 'الطحان' },
    ],
    ['a nisba last keeps the order', 'الحاج محمد علي الحمصي', { first: 'محمد', family: 'الحمصي' }],
    ['an unlisted nisba last keeps the order', 'العمر محمد علي حمصي', { first: 'العمر', family: 'حمصي' }],
    // Titles before a name, in death notices and registers.
    [
      'a martyr in a death notice',
      'الشهيد عز الدين طلال الحكاني',
      { first: 'عز الدين', father: 'طلال', family: 'الحكاني' },
    ],
    ['the late', 'المرحوم عمر عبد الرحمن حكشه', { first: 'عمر', father: 'عبد الرحمن', family: 'حكشه' }],
    ['Dr', 'Dr Ahmad Hassan', { first: 'Ahmad', family: 'Hassan' }],
    ['Sheikh', 'Sheikh Ahmad Al-Ali', { first: 'Ahmad', family: 'Al-Ali' }],
    // A kunya or nickname written beside the name, in brackets, is no part of the chain.
    ['a kunya in brackets', 'احمد محمد العلي (أبو عمر)', { first: 'احمد', father: 'محمد', family: 'العلي' }],
    [
      'a nickname in brackets',
      'Ahmad Mohammad (Hamoudi) Al-Ali',
      { first: 'Ahmad', father: 'Mohammad', family: 'Al-Ali' },
    ],
    ['s/o as bin', 'Ahmad s/o Mohammad Al-Ali', { first: 'Ahmad', father: 'Mohammad', family: 'Al-Ali' }],
    ['a kunya in double quotes', 'Mohammad "Abu Ali" Khatib', { first: 'Mohammad', family: 'Khatib' }],
    [
      'a nickname in guillemets',
      'محمد «حمودة» أحمد العلي',
      { first: 'محمد', father: 'أحمد', family: 'العلي' },
    ],
    // A number beside the name (an age, a row number) is no part of it: it was read as a first name after a comma.
    [
      'an age after a comma',
      'Mohammad Ahmad Al-Khatib, 35',
      { first: 'Mohammad', father: 'Ahmad', family: 'Al-Khatib' },
    ],
    [
      'a row number before the name',
      '١٢ محمد أحمد الخطيب',
      { first: 'محمد', father: 'أحمد', family: 'الخطيب' },
    ],
    ['digits inside a word stay (Arabizi)', 'A7mad 3ali', { first: 'A7mad', family: '3ali' }],
    // A register writing the family name first, without an article: an unlisted first part, given names after it.
    [
      'a register family name first',
      'غليم وائل نور الدين سعيد',
      { first: 'وائل', father: 'نور الدين', grandfather: 'سعيد', family: 'غليم' },
    ],
    ['a listed first part stays first', 'مراد محمد زياد فراس', { first: 'مراد', family: 'فراس' }],
    // No father bears a woman's name: a woman's name second is hers, after a family name written first.
    [
      "a woman's name second",
      'حمدان رشا فراس عبد الرحمن',
      { first: 'رشا', father: 'فراس', grandfather: 'عبد الرحمن', family: 'حمدان' },
    ],
    ["a woman's name first stays first", 'فاطمة زينب محمد العلي', { first: 'فاطمة', family: 'العلي' }],
    ['not in a chain of three', 'رامي روان بصيري', { first: 'رامي', father: 'روان', family: 'بصيري' }],
    // A family name in capitals, as lists kept in English and French write it.
    ['a family name first in capitals', 'DHANI Ahmad', { first: 'Ahmad', family: 'DHANI' }],
    // Before a given name spelt in a way the lexicon does not list but reads (Ghazy for غازي), as before any other.
    ['before a given name ending in -y', 'LOUHAIK Ghazy', { first: 'Ghazy', family: 'LOUHAIK' }],
    ['not before a nisba', 'HUMAM Hajefi', { first: 'HUMAM', family: 'Hajefi' }],
    ['a given name in capitals is not a family name', 'FAHAD Takkazi', { first: 'FAHAD', family: 'Takkazi' }],
    [
      'in capitals with its article, before an unlisted -y name',
      'AL-HOUSSAIN Qousay',
      { first: 'Qousay', family: 'AL-HOUSSAIN' },
    ],
    ['all in capitals says nothing', 'AHMAD HASSAN', { first: 'AHMAD', family: 'HASSAN' }],
    // Abbreviations and initials.
    ['an abbreviation with a dot', 'Mhd. Ahmad Masri', { first: 'Mhd', father: 'Ahmad', family: 'Masri' }],
    ['initials', 'A.B. Masri', { given: ['A', 'B', 'Masri'] }],
  ])('parses %s', (_case, input, expected) => {
    const parsed = parse(input);
    for (const [key, value] of Object.entries(expected)) {
      expect(parsed[key as keyof ParsedName], key).toEqual(value);
    }
  });

  it('lists every part in written order, compounds as one', () => {
    expect(parse('Al-Masri, Mohammad Abd al-Rahman').given).toEqual([
      'Al-Masri',
      'Mohammad',
      'Abd al-Rahman',
    ]);
    expect(parse('محمد عبد الرحمن المصري').given).toEqual(['محمد', 'عبد الرحمن', 'المصري']);
  });

  it('reads an عبد misread by a letter, or short of one, as عبد before a name that only follows it', () => {
    // Scanned lists (SYNTHETIC names): a dot wrong (عند, غبد), a letter wrong (عبر), a letter lost (بد).
    expect(parse('عند القادر موسى محمد الخريري')).toMatchObject({ first: 'عبد القادر', father: 'موسى' });
    expect(parse('غبد الرزاق محمد العيتة').first).toBe('عبد الرزاق');
    expect(parse('عبر السلام عبد الرحمن التدفة').first).toBe('عبد السلام');
    expect(parse('عبد العزيز بد الكريم الكخيب')).toMatchObject({ first: 'عبد العزيز', father: 'عبد الكريم' });
    // Not before another word: عند (at) and عيد (a name) stay as written.
    expect(parse('عيد محمد الحلبي').given).toEqual(['عيد', 'محمد', 'الحلبي']);
    expect(parse('عند محمد الحلبي').given).toEqual(['عند', 'محمد', 'الحلبي']);
  });

  it('reports the script', () => {
    expect(parse('محمد أحمد').script).toBe('ar');
    expect(parse('Mohammad Ahmad').script).toBe('latn');
    expect(parse('محمد Ahmad').script).toBe('mixed');
  });

  it('is more confident about four parts than two, and about two than one', () => {
    const four = parse('Mohammad Ahmad Ali Al-Masri').confidence;
    const two = parse('Mohammad Masri').confidence;
    const one = parse('Mohammad').confidence;
    expect(four).toBeGreaterThan(two);
    expect(two).toBeGreaterThan(one);
    expect(one).toBeGreaterThan(0);
    expect(four).toBeLessThanOrEqual(1);
  });

  it.each([
    ['the empty string', ''],
    ['punctuation only', ' -- ,, ؟! '],
    ['control characters only', '\u0000\u0007\u200f'],
  ])('gives no parts and confidence 0 for %s', (_case, input) => {
    expect(parse(input)).toEqual({ given: [], script: 'none', confidence: 0 });
  });

  it('keeps a mixed-script token as one part with lower confidence', () => {
    const parsed = parse('Moحمد');
    expect(parsed.given).toEqual(['Moحمد']);
    expect(parsed.script).toBe('mixed');
    expect(parsed.confidence).toBeLessThan(parse('Mohammad').confidence);
  });

  it('bounds the parts of a 10,000-character name', () => {
    const parsed = parse('Mohammad '.repeat(1200));
    expect(parsed.given.length).toBeLessThanOrEqual(16);
    expect(parsed.first).toBe('Mohammad');
  });
});

describe('orderReading', () => {
  it('says family first or given first where the name says so, and offers the family-first reading otherwise', () => {
    expect(orderReading('الحراكي خديجة جميل سمير')).toEqual({ vote: 'family_first' });
    expect(orderReading('محمد احمد مصطفى النرشاوي')).toEqual({ vote: 'given_first' });
    // The last part misspelt (مطصفي): nothing in the name decides.
    expect(orderReading('نعالة ابراهيم محمد مطصفي')).toEqual({
      vote: 'either',
      familyFirst: { first: 'ابراهيم', father: 'محمد', grandfather: 'مطصفي', family: 'نعالة' },
    });
    expect(orderReading('ممعوق ساد عبد الكريم')).toEqual({
      vote: 'either',
      familyFirst: { first: 'ساد', father: 'عبد الكريم', family: 'ممعوق' },
    });
  });

  it('leaves to the list a name read family first from the lexicon alone', () => {
    // سليمان is a given name the lexicon does not list (the names' held-out set): read alone, the name is family
    // first, but a given name outside the lexicon reads the same, so the list's other names decide.
    expect(parse('سليمان ياسر حمدان')).toMatchObject({ first: 'ياسر', father: 'حمدان', family: 'سليمان' });
    expect(orderReading('سليمان ياسر حمدان')).toEqual({
      vote: 'either',
      familyFirst: { first: 'ياسر', father: 'حمدان', family: 'سليمان' },
    });
    expect(parse('سليمان ياسر حمدان', { guessOrder: false })).toMatchObject({
      first: 'سليمان',
      father: 'ياسر',
      family: 'حمدان',
    });
    // Read family first from more than the lexicon (an article first), it still votes so.
    expect(parse('الحراكي خديجة جميل سمير', { guessOrder: false })).toMatchObject({ first: 'خديجة' });
  });

  it('says nothing of two parts, a Latin name or a chain without a family name', () => {
    expect(orderReading('حسن محمد')).toBeUndefined();
    expect(orderReading('Naala Ibrahim Muhammad')).toBeUndefined();
    expect(orderReading('محمد بن أحمد بن علي')).toBeUndefined();
  });
});

describe('capitalsReading', () => {
  it("votes on a Latin list's marking of the family name by capitals", () => {
    // Synthetic names. One part in capitals that is read as the family name: the list marks family names so.
    expect(capitalsReading('DHANI Ahmad')).toEqual({ vote: 'capitals_family' });
    expect(capitalsReading('Fadi AL HARIRI')).toEqual({ vote: 'capitals_family' });
    expect(capitalsReading('LAMIR Mouhamad Ali')).toEqual({ vote: 'capitals_family' });
    // A given name in capitals beside a family name: capitals for emphasis.
    expect(capitalsReading('AHMAD Mohammed Al-Hassan')).toEqual({ vote: 'capitals_emphasis' });
    expect(capitalsReading('FAHAD Takkazi')).toEqual({ vote: 'capitals_emphasis' });
  });

  it('offers a given name in capitals among given names only as the family name, read as written alone', () => {
    expect(capitalsReading('ABBUD Mohamed')).toEqual({
      vote: 'either',
      familyFirst: { first: 'Mohamed', family: 'ABBUD' },
    });
    expect(capitalsReading('ABBUD Mohamed Ali')).toEqual({
      vote: 'either',
      familyFirst: { first: 'Mohamed', father: 'Ali', family: 'ABBUD' },
    });
    expect(parse('ABBUD Mohamed')).toMatchObject({ first: 'ABBUD', family: 'Mohamed' });
  });

  it('says nothing of a name without capitals, all in capitals, in Arabic, or with its capitals last', () => {
    expect(capitalsReading('Ahmad Mohammed')).toBeUndefined();
    expect(capitalsReading('AHMAD MOHAMMED')).toBeUndefined();
    expect(capitalsReading('أحمد محمد')).toBeUndefined();
    expect(capitalsReading('Mohamed Ali ABBUD')).toBeUndefined();
  });
});

describe('isGivenNameOnly', () => {
  it('is a listed given name that is no family name and has no article', () => {
    expect(isGivenNameOnly('محمد')).toBe(true);
    expect(isGivenNameOnly('Ahmad')).toBe(true);
    expect(isGivenNameOnly('الحلبي')).toBe(false);
    expect(isGivenNameOnly('حلبي')).toBe(false);
    expect(isGivenNameOnly('غليم')).toBe(false);
    expect(isGivenNameOnly('محمد أحمد')).toBe(false);
  });
});

describe('short names with the father', () => {
  it("reads the second of two Arabic parts as the father's name when asked and it is only a given name", () => {
    expect(parse('حسن محمد', { fatherInShortNames: true })).toMatchObject({ first: 'حسن', father: 'محمد' });
    expect(parse('حسن محمد', { fatherInShortNames: true }).family).toBeUndefined();
    expect(parse('حسن محمد')).toMatchObject({ first: 'حسن', family: 'محمد' });
    expect(parse('سامر الحلبي', { fatherInShortNames: true })).toMatchObject({ family: 'الحلبي' });
    expect(parse('Hassan Mohammad', { fatherInShortNames: true })).toMatchObject({ family: 'Mohammad' });
  });
});
