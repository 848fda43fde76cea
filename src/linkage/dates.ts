/**
 * Dates as person records give them: a day, a month or only a year. Accepted forms (design.md): ISO
 * `YYYY-MM-DD`, `DD/MM/YYYY`, `YYYY-MM`, `YYYY`; Arabic-Indic digits are read as ASCII, `.` and `-` are
 * accepted in place of `/` in the day-first form, and a day-first date whose month is over 12 is read month-first.
 * Also `YYYY/MM/DD`, `MM/YYYY`, and a month by its name with a year and perhaps a day, as families and lists write
 * dates from memory: the Syrian month names (حزيران 2013, ١٥ تشرين الأول ٢٠١٢), the Egyptian ones (يونيو), English,
 * French, German and Turkish names and their short forms (June 2013, 15 juin 2013, 15. Juni 2013, Haziran 2013).
 */
export interface PartialDate {
  year: number;
  /** 1–12, or 0 when only the year is known. */
  month: number;
  /** 1–31, or 0 when the day is not known. */
  day: number;
}

export type DateParse = { kind: 'empty' } | { kind: 'invalid' } | { kind: 'date'; date: PartialDate };

const empty: DateParse = { kind: 'empty' };
const invalid: DateParse = { kind: 'invalid' };

export const minYear = 1850;
export const maxYear = 2100;

function asciiDigits(text: string): string {
  return text
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x660))
    .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x6f0));
}

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  if (month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) return 29;
  return monthDays[month - 1] ?? 0;
}

/** The number of digits 0-9 at text[from, from+count), or -1 if any is not a digit. */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** The common exact shapes (YYYY-MM-DD, DD/MM/YYYY, YYYY), read without regular expressions. */
function fastParse(text: string): DateParse | undefined {
  if (text.length === 10) {
    if (text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45) {
      const y = digits(text, 0, 4);
      const m = digits(text, 5, 2);
      const d = digits(text, 8, 2);
      if (y >= 0 && m >= 0 && d >= 0) return make(y, m, d);
    } else if (text.charCodeAt(2) === 47 && text.charCodeAt(5) === 47) {
      const d = digits(text, 0, 2);
      const m = digits(text, 3, 2);
      const y = digits(text, 6, 4);
      if (y >= 0 && m >= 0 && d >= 0) return dayFirst(y, m, d);
    }
  } else if (text.length === 4) {
    const y = digits(text, 0, 4);
    if (y >= 0) return make(y, 0, 0);
  }
  return undefined;
}

function make(year: number, month: number, day: number): DateParse {
  if (year < minYear || year > maxYear) return invalid;
  if (month < 0 || month > 12) return invalid;
  if (month === 0 && day !== 0) return invalid;
  if (day < 0 || (month > 0 && day > daysInMonth(year, month))) return invalid;
  return { kind: 'date', date: { year, month, day } };
}

/**
 * A day-first date (DD/MM/YYYY); when its month cannot be one (over 12) and its day can, it is read month-first,
 * as lists kept in English often write dates (07/20/1973): the only reading it has.
 */
function dayFirst(year: number, month: number, day: number): DateParse {
  if (month > 12 && day >= 1 && day <= 12) return make(year, day, month);
  return make(year, month, day);
}

/** Reads one date field; blank is `empty`, anything unreadable is `invalid` (callers count it, then treat it as missing). */
export function parseDate(raw: string | null | undefined): DateParse {
  if (raw === null || raw === undefined) return empty;
  const fast = fastParse(raw);
  if (fast) return fast;
  const text = unhedged(asciiDigits(raw.trim()));
  if (text === '') return empty;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (m) return make(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (m) return dayFirst(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{4})-(\d{1,2})$/.exec(text);
  if (m) return make(Number(m[1]), Number(m[2]), 0);
  m = /^(\d{4})$/.exec(text);
  if (m) return make(Number(m[1]), 0, 0);
  m = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(text);
  if (m) return make(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{4})[/.](\d{1,2})$/.exec(text);
  if (m) return make(Number(m[1]), Number(m[2]), 0);
  m = /^(\d{1,2})[/.-](\d{4})$/.exec(text);
  if (m) return make(Number(m[2]), Number(m[1]), 0);
  return namedMonthDate(text);
}

const hedgeBefore =
  /^(~|≈|c\.|ca\.?|circa|approx\.?|approximately|about|around|env\.?|environ|vers|etwa|ungefähr|yaklaşık|حوالي|حوالى|نحو|تقريبا|تقريباً)\s*/iu;
const hedgeAfter = /\s*(\?|؟|approx\.?|env\.?|ca\.?|تقريبا|تقريباً|تقريبًا)$/iu;

/**
 * Words for a part of a year, or for "the year" ("أواخر عام 2012", "صيف 2013", "early 2013", "mi-2013", "Anfang
 * 2014", "2013 sonu"): a family remembers a season or the end of a year, and what the words leave — the year, or a
 * month when one is named — is what such a date says.
 */
const partWords = [
  // English: a longer form before its prefix (summer of, summer), as in the text.
  'early',
  'mid',
  'middle of',
  'late',
  'beginning of',
  'start of',
  'end of',
  'summer of',
  'summer',
  'winter of',
  'winter',
  'spring of',
  'spring',
  'autumn of',
  'autumn',
  'fall of',
  'fall',
  // French, German.
  'début',
  'debut',
  'mi',
  'fin',
  'été',
  'ete',
  'hiver',
  'printemps',
  'automne',
  'anfang',
  'mitte',
  'ende',
  'sommer',
  'frühjahr',
  'fruhjahr',
  'frühling',
  'fruhling',
  'herbst',
  // Arabic.
  'منتصف',
  'أواسط',
  'اواسط',
  'أوائل',
  'اوائل',
  'أواخر',
  'اواخر',
  'بداية',
  'بدايات',
  'نهاية',
  'نهايات',
  'مطلع',
  'أول',
  'اول',
  'آخر',
  'اخر',
  'صيف',
  'شتاء',
  'ربيع',
  'خريف',
];
const partBefore = new RegExp(`^(?:(?:${partWords.join('|')})(?:\\s+|-))?(?:(?:عام|سنة|العام)\\s+)?`, 'iu');
const partAfter =
  /\s+(?:başı|basi|ortası|ortasi|sonu|yazı|yazi|kışı|kisi|baharı|bahari|sonbaharı|sonbahari)$/iu;

/**
 * A date without the words that say it is approximate ("حوالي 1985", "1985 تقريبا", "c. 1985", "1985?") or name a
 * part of the year (partBefore): families give years so, and the comparison already allows a year off by one. The
 * text unchanged when that leaves nothing.
 */
function unhedged(text: string): string {
  if (/^\d/.test(text) && /\d$/.test(text)) return text;
  const bare = text
    .replace(hedgeBefore, '')
    .replace(hedgeAfter, '')
    .replace(partBefore, '')
    .replace(partAfter, '')
    .trim();
  return bare === '' ? text : bare;
}

/** Month names (folded: lower case, no accents, Arabic hamza and alif maqsura plain) and their months. */
const monthNames = new Map<string, number>();
for (const [month, names] of [
  [1, 'january jan janvier janv januar janner ocak يناير'],
  [2, 'february feb fevrier fevr fev februar subat شباط فبراير'],
  [3, 'march mar mars marz mart اذار مارس'],
  [4, 'april apr avril avr nisan نيسان ابريل'],
  [5, 'may mai mayis ايار مايو'],
  [6, 'june jun juin juni haziran حزيران يونيو يونيه'],
  [7, 'july jul juillet juil juli temmuz تموز يوليو يوليه'],
  [8, 'august aug aout agustos اب اغسطس'],
  [9, 'september sep sept septembre eylul ايلول سبتمبر'],
  [10, 'october oct octobre oktober okt ekim اكتوبر'],
  [11, 'november nov novembre kasim نوفمبر'],
  [12, 'december dec decembre dezember dez aralik ديسمبر'],
] as const) {
  for (const name of names.split(' ')) monthNames.set(name, month);
}
// The Syrian months of two words: تشرين الأول / الثاني (October, November), كانون الأول / الثاني (December, January).
const twoWordMonths: readonly [RegExp, number][] = [
  [/تشرين\s*(ال)?اول/g, 10],
  [/تشرين\s*(ال)?ثاني/g, 11],
  [/كانون\s*(ال)?اول/g, 12],
  [/كانون\s*(ال)?ثاني/g, 1],
];
// Words a written date may carry besides its day, month and year ("June 24, 2013", "le 1er juin", "عام 2013").
const fillers = new Set([
  'of',
  'the',
  'le',
  'de',
  'du',
  'en',
  'in',
  'im',
  'am',
  'sene',
  'yili',
  'عام',
  'سنة',
  'سنه',
  'في',
]);

/**
 * A date with its month by name: one year (four digits), one month (its names may be given twice: "حزيران (يونيو)
 * 2013"), and at most one day; anything else in the text (a season, "mid-2013") leaves it unreadable.
 */
function namedMonthDate(text: string): DateParse {
  let folded = text
    .toLowerCase()
    .replace(/ı/g, 'i')
    .replace(/[أإآ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .normalize('NFD')
    .replace(/[\u0300-\u036f\u064b-\u0655\u0640]/g, '');
  for (const [pattern, month] of twoWordMonths) folded = folded.replace(pattern, ` m${month} `);
  const words = folded
    .replace(/(\d)(st|nd|rd|th|er)\b/g, '$1')
    .split(/[\s,.()/،-]+/)
    .filter((w) => w !== '');
  let year = -1;
  let month = -1;
  let day = 0;
  for (const word of words) {
    if (/^\d{4}$/.test(word)) {
      if (year >= 0) return invalid;
      year = Number(word);
    } else if (/^\d{1,2}$/.test(word)) {
      if (day > 0) return invalid;
      day = Number(word);
    } else {
      const named = /^m\d+$/.test(word) ? Number(word.slice(1)) : monthNames.get(word);
      if (named !== undefined) {
        if (month >= 0 && month !== named) return invalid;
        month = named;
      } else if (!fillers.has(word)) return invalid;
    }
  }
  if (year < 0 || month < 0 || day < 0) return invalid;
  return make(year, month, day);
}

/**
 * Why a field that parseDate calls invalid is not a date, in words a person can act on: a form athar reads with a
 * year outside the range, a day the month does not have, or a form it does not read at all.
 */
export function whyNotDate(raw: string): string {
  const text = asciiDigits(raw.trim());
  const year =
    /^(\d{4})(-\d{1,2}){0,2}$/.exec(text)?.[1] ?? /^\d{1,2}[/.-]\d{1,2}[/.-](\d{4})$/.exec(text)?.[1];
  const forms = 'YYYY-MM-DD, DD/MM/YYYY, YYYY-MM, YYYY or a month by name (June 2013, حزيران 2013)';
  if (year !== undefined) {
    const y = Number(year);
    if (y < minYear || y > maxYear)
      return `the year ${y} is outside ${minYear}–${maxYear}, the years athar accepts`;
    return `no such month or day; use ${forms} with a real day`;
  }
  return `use ${forms} (years ${minYear}–${maxYear})`;
}

/** Reads a bare year column (`birth_year`). */
export function parseYear(raw: string | null | undefined): DateParse {
  if (raw === null || raw === undefined) return empty;
  const fast = raw.length === 4 ? digits(raw, 0, 4) : -1;
  if (fast >= 0) return make(fast, 0, 0);
  const text = unhedged(asciiDigits(raw.trim()));
  if (text === '') return empty;
  if (!/^\d{4}$/.test(text)) return invalid;
  return make(Number(text), 0, 0);
}

/** Days since 1970-01-01 of the date's first day (month 1 / day 1 when not known). */
export function epochDay(date: PartialDate): number {
  return Math.floor(Date.UTC(date.year, Math.max(1, date.month) - 1, Math.max(1, date.day)) / 86_400_000);
}

/**
 * The calendar month (year × 12 + month − 1) of a day since 1970-01-01, by integer arithmetic (H. Hinnant's
 * civil_from_days): the comparison loop asks it for every pair with a coarse date, and a Date would allocate.
 */
export function monthOfEpochDay(days: number): number {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return year * 12 + month - 1;
}

/** ISO form at the precision given: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. */
export function formatDate(date: PartialDate): string {
  const y = String(date.year).padStart(4, '0');
  if (date.month === 0) return y;
  const m = String(date.month).padStart(2, '0');
  if (date.day === 0) return `${y}-${m}`;
  return `${y}-${m}-${String(date.day).padStart(2, '0')}`;
}
