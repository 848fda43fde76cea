/**
 * The test worlds' own name material, written for them (not athar synth's pools): names in a small romanisation,
 * from which the Arabic spelling and several Latin spelling habits are derived letter by letter.
 *
 * Romanisation: a i u short vowels (not written in Arabic), A I U long (ا ي و), Y final alif maqsura (ى), E final
 * ta marbuta (ة); H ḥ, X kh, $ sh, G gh, 9 ʿayn, ' hamza, T ṭ, S ṣ, D ḍ, Z ẓ, C th, & dh; other letters as in
 * English; a doubled consonant is one Arabic letter. "al-" is the article.
 */

export interface PoolName {
  roman: string;
  /** Arabic spelling when the letter rule would get it wrong. */
  arabic?: string;
  /** Conventional Latin spellings lists actually use (tried before the letter rule). */
  latin?: readonly string[];
}

const n = (roman: string, latin?: string[], arabic?: string): PoolName => ({
  roman,
  ...(latin ? { latin } : {}),
  ...(arabic ? { arabic } : {}),
});

/** Male first names, most common first. */
export const maleFirst: readonly PoolName[] = [
  n('muHammad', ['Mohammad', 'Mohamed', 'Muhammad', 'Mohammed', 'Muhammed', 'Mohamad']),
  n("'aHmad", ['Ahmad', 'Ahmed', 'Ahmet']),
  n('maHmUd', ['Mahmoud', 'Mahmud', 'Mahmut']),
  n('muSTafY', ['Mustafa', 'Moustafa', 'Mustapha', 'Mostafa']),
  n('9alI', ['Ali']),
  n('9umar', ['Omar', 'Umar', 'Ömer']),
  n('XAlid', ['Khaled', 'Khalid', 'Halit', 'Chaled']),
  n('yUsuf', ['Yusuf', 'Youssef', 'Yousef', 'Jussuf']),
  n("'ibrAhIm", ['Ibrahim', 'Ebrahim', 'Brahim']),
  n('Hasan', ['Hasan', 'Hassan']),
  n('Husayn', ['Hussein', 'Husein', 'Hüseyin', 'Houssein'], 'حسين'),
  n('9abd allAh', ['Abdullah', 'Abdallah', 'Abdalla', 'Abdulla'], 'عبد الله'),
  n('9abd al-raHmAn', ['Abdulrahman', 'Abdel Rahman', 'Abderrahmane'], 'عبد الرحمن'),
  n('9abd al-salAm', ['Abdulsalam', 'Abdessalam', 'Abdel Salam'], 'عبد السلام'),
  n('9abd al-karIm', ['Abdulkarim', 'Abdelkarim', 'Abdülkerim'], 'عبد الكريم'),
  n('9abd al-razzAq', ['Abdulrazzaq', 'Abderrazak'], 'عبد الرزاق'),
  n('9abd al-qAdir', ['Abdulkader', 'Abdelkader', 'Abdulkadir'], 'عبد القادر'),
  n('9abd al-9azIz', ['Abdulaziz', 'Abdelaziz'], 'عبد العزيز'),
  n('9abd al-Hamid', ['Abdulhamid', 'Abdelhamid'], 'عبد الحميد'),
  n('sAmir', ['Samer', 'Samir']),
  n('bAsil', ['Basel', 'Bassel', 'Basil']),
  n("wA'il", ['Wael', 'Wail', 'Ouael'], 'وائل'),
  n('mAhir', ['Maher']),
  n('fAdI', ['Fadi', 'Fady']),
  n('rAmI', ['Rami', 'Ramy']),
  n('TAriq', ['Tarek', 'Tariq', 'Tarik']),
  n('ziyAd', ['Ziad', 'Ziyad']),
  n('jamAl', ['Jamal', 'Djamel', 'Cemal']),
  n('kamAl', ['Kamal', 'Kemal']),
  n('salIm', ['Salim', 'Selim']),
  n('sulaymAn', ['Suleiman', 'Sulaiman', 'Süleyman', 'Soliman']),
  n('9uCmAn', ['Othman', 'Osman', 'Uthman']),
  n('nizAr', ['Nizar']),
  n('hayCam', ['Haitham', 'Haytham', 'Heitham']),
  n("'ayman", ['Ayman', 'Aiman', 'Eyman']),
  n("'anas", ['Anas', 'Enes']),
  n("'usAmE", ['Osama', 'Usama', 'Oussama']),
  n('HamzE', ['Hamza', 'Hamzeh']),
  n('bilAl', ['Bilal', 'Bellal']),
  n('mu9A&', ['Muath', 'Moaz', 'Muaz'], 'معاذ'),
  n('9ammAr', ['Ammar', 'Amar']),
  n('yAsir', ['Yasser', 'Yaser', 'Yasir']),
  n('nASir', ['Nasser', 'Naser']),
  n('manSUr', ['Mansour', 'Mansur']),
  n('sa9Id', ['Said', 'Saeed', 'Saïd']),
  n('riyAD', ['Riad', 'Riyad', 'Riyadh']),
  n('firAs', ['Firas', 'Feras']),
  n('GassAn', ['Ghassan', 'Gassan']),
  n('mAzin', ['Mazen', 'Mazin']),
  n('nabIl', ['Nabil', 'Nabeel']),
  n('jihAd', ['Jihad', 'Cihad', 'Djihad']),
  n("'iyAd", ['Iyad', 'Eyad', 'Iad']),
  n('9imAd', ['Imad', 'Emad']),
  n('majd', ['Majd', 'Majed']),
  n('qAsim', ['Qasim', 'Kassem', 'Kasim']),
  n('SAliH', ['Saleh', 'Salih', 'Salah']),
  n('$AdI', ['Shadi', 'Chadi']),
  n('riDwAn', ['Radwan', 'Ridwan', 'Rıdvan']),
  n('muhannad', ['Mohannad', 'Muhannad']),
  n('9adnAn', ['Adnan']),
  n('faySal', ['Faisal', 'Faysal', 'Fayçal']),
  n('mUsY', ['Musa', 'Moussa', 'Mousa']),
  n('9IsY', ['Issa', 'Isa', 'Eissa']),
  n('yaHyY', ['Yahya', 'Yehia', 'Yahia']),
  n('hi$Am', ['Hisham', 'Hicham', 'Hischam']),
  n('walId', ['Walid', 'Oualid', 'Velid']),
  n("'akram", ['Akram']),
  n('HAzim', ['Hazem', 'Hazim']),
  n('tAmir', ['Tamer', 'Tamir']),
  n("lu'ayy", ['Louay', 'Luay', 'Loay'], 'لؤي'),
  n('Ziyad', ['Dhiyad']),
  n('munIr', ['Mounir', 'Munir']),
  n("ra'Uf", ['Raouf', 'Rauf'], 'رؤوف'),
  n('$ukrI', ['Shukri', 'Choukri', 'Şükrü']),
  n('na9Im', ['Naim', 'Naeem']),
];

/** Female first names. */
export const femaleFirst: readonly PoolName[] = [
  n('fATimE', ['Fatima', 'Fatma', 'Fatimah', 'Fatmeh']),
  n('maryam', ['Maryam', 'Mariam', 'Meryem']),
  n('zaynab', ['Zeinab', 'Zainab', 'Zeynep']),
  n('XadIjE', ['Khadija', 'Hatice', 'Khadijeh']),
  n("9A'i$E", ['Aisha', 'Aicha', 'Ayşe'], 'عائشة'),
  n("'AminE", ['Amina', 'Amine', 'Emine'], 'آمنة'),
  n('ranA', ['Rana']),
  n('hAlE', ['Hala']),
  n('samar', ['Samar']),
  n('lInA', ['Lina', 'Leena']),
  n('rIm', ['Reem', 'Rim']),
  n('hibE', ['Heba', 'Hiba']),
  n('sArE', ['Sara', 'Sarah']),
  n('dImE', ['Dima']),
  n('rahaf', ['Rahaf']),
  n("'ImAn", ['Iman', 'Eman', 'Imane']),
  n('munY', ['Mona', 'Muna']),
  n('salmY', ['Salma', 'Selma']),
  n('HanAn', ['Hanan']),
  n("wafA'", ['Wafaa', 'Wafa'], 'وفاء'),
  n('nisrIn', ['Nisreen', 'Nesrine', 'Nisrin']),
  n('GAdE', ['Ghada', 'Rhada']),
  n('rUlA', ['Rula', 'Roula']),
  n('9abIr', ['Abir', 'Abeer']),
];

/** Family names that lists write in one conventional way, with the article where they have it. */
export const commonFamilies: readonly PoolName[] = [
  n('al-9aZmE', ['Al-Azmeh', 'Azmeh', 'El Azem']),
  n('al-barAzI', ['Al-Barazi', 'Barazi']),
  n('al-HalabI', ['Al-Halabi', 'Halabi', 'Halaby']),
  n('al-maSrI', ['Al-Masri', 'Masri', 'El Masry']),
  n('al-XaTIb', ['Al-Khatib', 'Khatib', 'El Khatib', 'Hatip']),
  n('qabbAnI', ['Kabbani', 'Qabbani']),
  n('HaddAd', ['Haddad']),
  n('al-$AmI', ['Al-Shami', 'Shami', 'Chami']),
  n('al-HamwI', ['Al-Hamwi', 'Hamwi', 'Hamoui']),
  n('al-9alI', ['Al-Ali', 'Ali']),
  n('al-Hasan', ['Al-Hassan', 'Hassan']),
  n('al-9umar', ['Al-Omar', 'Omar']),
  n('al-XalIl', ['Al-Khalil', 'Khalil']),
  n('al-aHmad', ['Al-Ahmad', 'Ahmad']),
  n('darwI$', ['Darwish', 'Derviş', 'Darwiche']),
  n('al-najjAr', ['Al-Najjar', 'Najjar', 'Neccar']),
  n('al-sayyid', ['Al-Sayed', 'As-Sayyid', 'El Sayed']),
  n('al-9IsY', ['Al-Issa', 'Issa', 'Al-Eisa'], 'العيسى'),
  n('al-zu9bI', ['Al-Zoubi', 'Zoubi', 'Al-Zubi']),
  n('al-HarIrI', ['Al-Hariri', 'Hariri']),
];

/** Towns, each in its governorate (gazetteer ids), with Latin spellings. */
export interface Town {
  arabic: string;
  latin: readonly string[];
  governorate: string;
}
const t = (arabic: string, latin: string[], governorate: string): Town => ({ arabic, latin, governorate });
export const towns: readonly Town[] = [
  t('دوما', ['Douma', 'Duma'], 'rif-dimashq'),
  t('داريا', ['Daraya', 'Darayya'], 'rif-dimashq'),
  t('الزبداني', ['Zabadani', 'Al-Zabadani', 'Zebdani'], 'rif-dimashq'),
  t('معضمية الشام', ['Moadamiyeh', 'Muadamiyat al-Sham'], 'rif-dimashq'),
  t('التل', ['Al-Tall', 'Tal'], 'rif-dimashq'),
  t('حرستا', ['Harasta'], 'rif-dimashq'),
  t('الميدان', ['Midan', 'Al-Midan'], 'damascus'),
  t('برزة', ['Barzeh', 'Barza'], 'damascus'),
  t('القابون', ['Qaboun', 'Al-Qabun', 'Kaboun'], 'damascus'),
  t('بصرى الشام', ['Bosra', 'Busra al-Sham', 'Bosra al-Cham'], 'daraa'),
  t('نوى', ['Nawa'], 'daraa'),
  t('انخل', ['Inkhil', 'Inkhel'], 'daraa'),
  t('طفس', ['Tafas'], 'daraa'),
  t('تلبيسة', ['Talbiseh', 'Talbisa'], 'homs'),
  t('الرستن', ['Rastan', 'Al-Rastan', 'Er-Rastan'], 'homs'),
  t('القصير', ['Qusayr', 'Al-Qusayr', 'Kusair'], 'homs'),
  t('تدمر', ['Palmyra', 'Tadmur', 'Tadmor'], 'homs'),
  t('حلفايا', ['Halfaya'], 'hama'),
  t('كفرزيتا', ['Kafr Zita', 'Kafrzita'], 'hama'),
  t('مورك', ['Morek', 'Murak'], 'hama'),
  t('السلمية', ['Salamiyah', 'Salamieh', 'Selemiye'], 'hama'),
  t('معرة النعمان', ['Maarat al-Numan', 'Maarret Nouman', 'Maarat Numan'], 'idlib'),
  t('سراقب', ['Saraqib', 'Sarakeb'], 'idlib'),
  t('جسر الشغور', ['Jisr al-Shughur', 'Jisr ash-Shughur', 'Cisr-i Şuğur'], 'idlib'),
  t('أريحا', ['Ariha'], 'idlib'),
  t('الباب', ['Al-Bab', 'Bab', 'El Bab'], 'aleppo'),
  t('منبج', ['Manbij', 'Menbic', 'Manbidj'], 'aleppo'),
  t('عندان', ['Anadan', 'Andan'], 'aleppo'),
  t('اعزاز', ['Azaz', 'Aazaz', 'Azez'], 'aleppo'),
  t('الميادين', ['Mayadin', 'Al-Mayadeen'], 'deir-ez-zor'),
  t('البوكمال', ['Albukamal', 'Abu Kamal', 'Al-Bukamal'], 'deir-ez-zor'),
  t('الطبقة', ['Tabqa', 'Al-Tabqah'], 'raqqa'),
  t('القامشلي', ['Qamishli', 'Kamışlı', 'Qamichli'], 'hasakah'),
  t('جبلة', ['Jableh', 'Jabla', 'Djeblé'], 'latakia'),
  t('بانياس', ['Baniyas', 'Banias'], 'tartus'),
  t('شهبا', ['Shahba', 'Chahba'], 'as-suwayda'),
  t('خان أرنبة', ['Khan Arnabah', 'Han Arnaba'], 'quneitra'),
];

const consonants: Record<string, string> = {
  b: 'ب',
  t: 'ت',
  C: 'ث',
  j: 'ج',
  H: 'ح',
  X: 'خ',
  d: 'د',
  '&': 'ذ',
  r: 'ر',
  z: 'ز',
  s: 'س',
  $: 'ش',
  S: 'ص',
  D: 'ض',
  T: 'ط',
  Z: 'ظ',
  '9': 'ع',
  G: 'غ',
  f: 'ف',
  q: 'ق',
  k: 'ك',
  l: 'ل',
  m: 'م',
  n: 'ن',
  h: 'ه',
  w: 'و',
  y: 'ي',
};

/** The Arabic spelling of one romanised word (no article). */
function arabicWord(roman: string): string {
  let out = '';
  for (let k = 0; k < roman.length; k++) {
    const c = roman[k] as string;
    const prev = roman[k - 1];
    if (c === "'") {
      const v = roman[k + 1];
      if (k === 0) out += v === 'i' ? 'إ' : v === 'A' ? 'آ' : 'أ';
      else out += prev === 'i' || roman[k + 1] === 'i' ? 'ئ' : prev === 'u' ? 'ؤ' : 'ء';
      if (k === 0 && v === 'A') k++;
      continue;
    }
    if (c === 'A') out += 'ا';
    else if (c === 'I') out += 'ي';
    else if (c === 'U') out += 'و';
    else if (c === 'Y') out += 'ى';
    else if (c === 'E') out += 'ة';
    else if (c === 'a' || c === 'i' || c === 'u') continue;
    else if (c === prev) continue;
    else out += consonants[c] ?? '';
  }
  return out;
}

/** The Arabic spelling of a name (article and words included). */
export function arabicOf(name: PoolName): string {
  if (name.arabic) return name.arabic;
  return name.roman
    .split(' ')
    .map((w) => (w.startsWith('al-') ? `ال${arabicWord(w.slice(3))}` : arabicWord(w)))
    .join(' ');
}

export type Habit = 'english' | 'french' | 'german' | 'turkish';

type Choice = string | readonly string[];
const letterHabits: Record<Habit, Record<string, Choice>> = {
  english: {
    H: 'h',
    X: 'kh',
    $: 'sh',
    G: 'gh',
    '9': ['', "'", ''],
    "'": '',
    T: 't',
    S: 's',
    D: 'd',
    Z: ['z', 'dh'],
    C: 'th',
    '&': ['dh', 'th', 'z'],
    A: 'a',
    I: ['i', 'ee', 'i'],
    U: ['u', 'oo', 'ou'],
    E: ['a', 'ah', 'eh'],
    Y: 'a',
    q: ['q', 'k'],
  },
  french: {
    H: 'h',
    X: 'kh',
    $: 'ch',
    G: ['gh', 'r'],
    '9': '',
    "'": '',
    T: 't',
    S: 's',
    D: 'd',
    Z: 'z',
    C: 't',
    '&': 'd',
    j: 'dj',
    u: 'ou',
    U: 'ou',
    A: 'a',
    I: 'i',
    E: ['a', 'é', 'e'],
    Y: 'a',
    q: 'k',
    w: 'ou',
    y: 'y',
  },
  german: {
    H: 'h',
    X: 'ch',
    $: 'sch',
    G: 'gh',
    '9': '',
    "'": '',
    T: 't',
    S: 's',
    D: 'd',
    Z: 's',
    C: 's',
    '&': 's',
    j: 'dsch',
    y: 'j',
    z: 's',
    A: 'a',
    I: 'i',
    U: 'u',
    E: ['a', 'e'],
    Y: 'a',
    q: 'k',
  },
  turkish: {
    H: 'h',
    X: 'h',
    $: 'ş',
    G: 'ğ',
    '9': '',
    "'": '',
    T: 't',
    S: 's',
    D: 'd',
    Z: 'z',
    C: 's',
    '&': 'z',
    j: 'c',
    w: 'v',
    A: 'a',
    I: 'i',
    U: 'u',
    E: 'e',
    Y: 'a',
    q: 'k',
  },
};

const sunLetters = new Set(['t', 'C', 'd', '&', 'r', 'z', 's', '$', 'S', 'D', 'T', 'Z', 'l', 'n']);

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A Latin spelling of one romanised word under a habit; `pick` chooses among a letter's renderings. */
function latinWord(roman: string, habit: Habit, pick: (choices: readonly string[]) => string): string {
  const table = letterHabits[habit];
  let out = '';
  for (let k = 0; k < roman.length; k++) {
    const c = roman[k] as string;
    const r = table[c];
    let s = r === undefined ? c : typeof r === 'string' ? r : pick(r);
    // Turkish: a final d is often written t (Mehmet, Ahmet), short a in a last syllable e (Muhammed).
    if (habit === 'turkish' && c === 'd' && k === roman.length - 1) s = pick(['d', 't']);
    if (habit === 'turkish' && c === 'a' && k >= roman.length - 3 && k > 0) s = pick(['a', 'e']);
    // French and German double an s between vowels (Oussama, Hassan).
    if ((habit === 'french' || habit === 'german') && c === 's' && /[aiuAIU]/.test(roman[k + 1] ?? '')) {
      if (/[aiuAIU]/.test(roman[k - 1] ?? '')) s = 'ss';
    }
    out += s;
  }
  return out;
}

export interface LatinOptions {
  habit: Habit;
  pick: (choices: readonly string[]) => string;
  chance: (p: number) => boolean;
  /** Use the list's conventional spelling when the name has one. */
  conventional: number;
}

function latinArticle(first: string, o: LatinOptions): string {
  const assimilated = sunLetters.has(first) && o.chance(0.25);
  const art = o.habit === 'french' ? o.pick(['El', 'Al', 'el']) : o.pick(['Al', 'Al', 'al', 'El']);
  if (assimilated) {
    const sun = latinWord(first, o.habit, o.pick).slice(0, first === '$' ? 2 : 1);
    return `${art.charAt(0)}${sun.toLowerCase()}-`;
  }
  return art + o.pick(['-', '-', ' ', '', '-']);
}

/** A family name (or any name carrying the article) in Latin script, with the article's many habits. */
export function latinOf(name: PoolName, o: LatinOptions): string {
  if (name.latin && o.chance(o.conventional)) return o.pick(name.latin);
  const words = name.roman.split(' ');
  if (words[0] === '9abd' && words[1] === 'allAh')
    return o.pick(['Abdullah', 'Abdallah', 'Abdalla', 'Abd Allah']);
  if (words[0] === '9abd' && words.length === 2) {
    const rest = (words[1] as string).replace(/^al-/, '');
    const tail = latinWord(rest, o.habit, o.pick);
    const sun = sunLetters.has(rest[0] as string);
    const prefixes =
      o.habit === 'french'
        ? ['Abdel ', 'Abdel', 'Abd el-', sun ? `Abde${tail.charAt(0)}` : 'Abdel']
        : o.habit === 'turkish'
          ? ['Abdul', 'Abdül', 'Abdul ']
          : ['Abdul', 'Abdul ', 'Abd Al-', 'Abd al-', 'Abdel '];
    const prefix = o.pick(prefixes);
    return prefix.endsWith(' ') || prefix.endsWith('-') ? prefix + capital(tail) : capital(prefix + tail);
  }
  return words
    .map((w) => {
      if (!w.startsWith('al-')) return capital(latinWord(w, o.habit, o.pick));
      const bare = w.slice(3);
      const word = latinWord(bare, o.habit, o.pick);
      if (o.chance(0.2)) return capital(word);
      const article = latinArticle(bare[0] as string, o);
      return article.endsWith('-') || article.endsWith(' ') ? article + capital(word) : article + word;
    })
    .join(' ');
}

/** Consonants and their weights for generated family-name roots (common Arabic root letters weigh more). */
const rootLetters = 'b t j H X d r z s $ S T 9 f q k l m n h w y D G C'.split(' ');
const rootWeights = [5, 4, 3, 6, 3, 5, 7, 2, 6, 3, 3, 2, 5, 4, 4, 4, 6, 6, 6, 3, 3, 3, 1, 1, 1];

/** Patterns that make a family name of a root (C1 C2 C3), with whether it takes the article. */
const patterns: readonly [string, boolean][] = [
  ['1a23I', true], // nisba: al-Halabi
  ['1a22A3', true], // trade: al-Najjar
  ['1u2ay3I', true],
  ['1A2i3', false],
  ['1a2A3', true],
  ['1a2I3I', true],
  ['1a23A3E', false],
  ['1u2ay3', false],
  ['1a2A3E', false],
  ['1a22U3', true],
  ['1a2i3', false],
  ['1a23E', true],
];

/**
 * Family names built from random roots and patterns (so the worlds have tens of thousands of family names, none
 * taken from athar's lists); deterministic for the draws given.
 */
export function makeFamily(next: () => number): PoolName {
  const total = rootWeights.reduce((s, w) => s + w, 0);
  const letter = () => {
    let x = next() * total;
    for (let k = 0; k < rootLetters.length; k++) {
      x -= rootWeights[k] as number;
      if (x < 0) return rootLetters[k] as string;
    }
    return 'r';
  };
  let c1 = letter();
  let c2 = letter();
  let c3 = letter();
  while (c2 === c1) c2 = letter();
  while (c3 === c2) c3 = letter();
  if (c1 === 'w' || c1 === 'y') c1 = 'm';
  const [pattern, article] = patterns[Math.floor(next() * patterns.length)] as [string, boolean];
  const body = pattern.replace('1', c1).replace(/2/g, c2).replace(/3/g, c3);
  return { roman: article ? `al-${body}` : body };
}
