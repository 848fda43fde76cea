import { type PersonRecordColumn, personRecordColumns } from '../domain/person-record.js';

/**
 * Guesses which person-record column each header of a file holds, from how documentation teams name them in Arabic
 * and English (`اسم الأب`, `الاسم الثلاثي`, `Father's name`, `DOB` …). The guess is a proposal: `athar import`
 * shows it and imports with it only once the user confirms it (docs/exchange.md).
 */

export type GuessConfidence = 'exact' | 'alias' | 'keyword' | 'none';

export interface HeaderGuess {
  header: string;
  column: PersonRecordColumn | null;
  confidence: GuessConfidence;
  /** Why not, when a header that looked like a column lost it to another header. */
  note?: string;
}

export interface HeaderGuesses {
  guesses: HeaderGuess[];
  /** The proposed map, in the MAP.json form: only headers that are not already column names. */
  map: { columns: Record<string, PersonRecordColumn> };
  /** Whether anything beyond exact column names was guessed: the user must confirm. */
  needsConfirmation: boolean;
}

/** Folds a header for comparison: Arabic letter variants and marks, case, punctuation and spacing. */
export function foldHeader(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u064b-\u065f\u0670\u0640]/g, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .replace(/ة/g, 'ه')
    .replace(/ؤ/g, 'و')
    .replace(/ئ/g, 'ي')
    .replace(/['’‘`´]/g, '')
    .replace(/[_\-./:()[\]#،,]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const aliases: Record<PersonRecordColumn, string[]> = {
  record_id: [
    'id',
    'record id',
    'no',
    'number',
    'serial',
    'serial no',
    'seq',
    'الرقم',
    'رقم',
    'الرقم التسلسلي',
    'تسلسل',
    'التسلسل',
    'م',
    'رقم السجل',
    'رقم القيد',
  ],
  source: ['source', 'المصدر', 'مصدر المعلومات', 'الجهة المصدر'],
  full_name: [
    'name',
    'full name',
    'fullname',
    'person name',
    'detainee name',
    'name of detainee',
    'الاسم',
    'الاسم الكامل',
    'الاسم الثلاثي',
    'الاسم الرباعي',
    'الاسم والكنيه',
    'اسم المعتقل',
    'اسم المعتقل الكامل',
    'اسم المختفي',
    'اسم الشخص',
    'الاسم الكامل للمعتقل',
  ],
  first_name: [
    'first name',
    'firstname',
    'given name',
    'forename',
    'الاسم الاول',
    'الاسم الشخصي',
    'الاسم الصغير',
  ],
  father_name: ['father', 'father name', 'fathers name', 'name of father', 'اسم الاب', 'الاب', 'اب'],
  grandfather_name: ['grandfather', 'grandfather name', 'grandfathers name', 'اسم الجد', 'الجد'],
  family_name: [
    'family name',
    'family',
    'last name',
    'lastname',
    'surname',
    'الكنيه',
    'العائله',
    'اسم العائله',
    'الشهره',
    'اللقب',
    'النسبه',
  ],
  mother_name: ['mother', 'mother name', 'mothers name', 'name of mother', 'اسم الام', 'الام', 'ام'],
  sex: ['sex', 'gender', 'الجنس', 'النوع'],
  birth_date: [
    'dob',
    'date of birth',
    'birth date',
    'birthdate',
    'born',
    'تاريخ الولاده',
    'تاريخ الميلاد',
    'المواليد',
    'مواليد',
    'الميلاد',
    'الولاده',
  ],
  birth_year: ['birth year', 'year of birth', 'yob', 'سنه الولاده', 'سنه الميلاد', 'عام الولاده'],
  governorate: ['governorate', 'province', 'muhafaza', 'mohafaza', 'المحافظه'],
  place_of_origin: [
    'place of origin',
    'origin',
    'hometown',
    'home town',
    'town',
    'city',
    'village',
    'place of birth',
    'البلده',
    'المدينه',
    'القريه',
    'مكان القيد',
    'الاصل',
    'محل الولاده',
    'مكان الولاده',
    'مكان الاقامه',
    'المنطقه',
  ],
  arrest_date: [
    'arrest date',
    'date of arrest',
    'arrested',
    'arrested on',
    'detention date',
    'date of detention',
    'disappearance date',
    'تاريخ الاعتقال',
    'تاريخ الاحتجاز',
    'تاريخ الاختفاء',
    'تاريخ التوقيف',
    'تاريخ الاعتقال او الاختفاء',
  ],
  arresting_branch: [
    'branch',
    'arresting branch',
    'security branch',
    'detained by',
    'arrested by',
    'الفرع',
    'الجهه',
    'الجهه المعتقله',
    'الجهه الخاطفه',
    'فرع الاعتقال',
    'الفرع الامني',
    'مكان الاحتجاز',
  ],
  detainee_number: [
    'detainee number',
    'detainee no',
    'prisoner number',
    'prisoner no',
    'رقم المعتقل',
    'رقم السجين',
    'رقم الموقوف',
  ],
  death_date: [
    'death date',
    'date of death',
    'died',
    'died on',
    'تاريخ الوفاه',
    'تاريخ الاستشهاد',
    'تاريخ الموت',
  ],
  forensic_report_number: [
    'forensic report',
    'forensic report number',
    'forensic number',
    'examination number',
    'exam number',
    'رقم التقرير',
    'رقم التقرير الطبي',
    'رقم الفحص',
    'رقم الطب الشرعي',
    'رقم الكشف',
  ],
  notes: ['notes', 'note', 'remarks', 'comments', 'comment', 'ملاحظات', 'ملاحظه', 'تفاصيل'],
};

const aliasIndex = new Map<string, PersonRecordColumn>();
for (const column of personRecordColumns) {
  aliasIndex.set(foldHeader(column), column);
  aliasIndex.set(foldHeader(column.replace(/_/g, ' ')), column);
  for (const alias of aliases[column]) aliasIndex.set(foldHeader(alias), column);
}

/** Words that point at a column inside a longer header (checked in this order: the first that fits wins). */
const keywords: [RegExp, PersonRecordColumn][] = [
  [/\b(grand ?father)\b|الجد/, 'grandfather_name'],
  [/\bfather\b|(^| )(ال)?اب( |$)/, 'father_name'],
  [/\bmother\b|(^| )(ال)?ام( |$)/, 'mother_name'],
  [/\b(death|died)\b|وفاه|استشهاد/, 'death_date'],
  [/\b(birth|born|dob)\b|ولاده|ميلاد|مواليد/, 'birth_date'],
  [
    /\b(arrest|detention|disappear\w*)\b.*\b(date|on|when)\b|\b(date|when)\b.*\b(arrest|detention)\b|تاريخ (الاعتقال|الاحتجاز|الاختفاء|التوقيف)/,
    'arrest_date',
  ],
  [/\bbranch\b|فرع|الجهه/, 'arresting_branch'],
  [/\b(forensic|examination)\b|تقرير|الطب الشرعي/, 'forensic_report_number'],
  [/\b(detainee|prisoner)\b.*\b(no|number)\b|رقم (المعتقل|السجين)/, 'detainee_number'],
  [/\b(governorate|province)\b|محافظه/, 'governorate'],
  [/\b(family|surname|last)\b|الكنيه|العائله/, 'family_name'],
  [/\b(first|given)\b|الاسم الاول/, 'first_name'],
  [/\b(gender|sex)\b|الجنس/, 'sex'],
  [/\b(note|notes|remark|remarks|comment)\b|ملاحظ/, 'notes'],
  [/\bname\b|الاسم|اسم/, 'full_name'],
];

const rank: Record<GuessConfidence, number> = { exact: 3, alias: 2, keyword: 1, none: 0 };

export function guessHeaders(headers: readonly string[]): HeaderGuesses {
  const guesses: HeaderGuess[] = headers.map((raw) => {
    const header = raw.replace(/^\ufeff/, '').trim();
    const lowered = header.toLowerCase();
    if ((personRecordColumns as readonly string[]).includes(lowered)) {
      return { header, column: lowered as PersonRecordColumn, confidence: 'exact' };
    }
    const folded = foldHeader(header);
    const alias = aliasIndex.get(folded);
    if (alias) return { header, column: alias, confidence: 'alias' };
    for (const [pattern, column] of keywords)
      if (pattern.test(folded)) return { header, column, confidence: 'keyword' };
    return { header, column: null, confidence: 'none' };
  });
  // One header per column: the surest keeps it.
  const best = new Map<PersonRecordColumn, HeaderGuess>();
  for (const g of guesses) {
    if (!g.column) continue;
    const held = best.get(g.column);
    if (!held || rank[g.confidence] > rank[held.confidence]) best.set(g.column, g);
  }
  for (const g of guesses) {
    if (g.column && best.get(g.column) !== g) {
      g.note = `${g.column} is taken by "${best.get(g.column)?.header}"`;
      g.column = null;
      g.confidence = 'none';
    }
  }
  const columns: Record<string, PersonRecordColumn> = {};
  for (const g of guesses) if (g.column && g.confidence !== 'exact') columns[g.header] = g.column;
  return { guesses, map: { columns }, needsConfirmation: Object.keys(columns).length > 0 };
}
