import { msg } from './msg.js';

/** Record fields the screens show, in the order a reader expects them (names first, then dates and places). */
export const recordFields = [
  'fullName',
  'firstName',
  'fatherName',
  'grandfatherName',
  'familyName',
  'motherName',
  'sex',
  'birthDate',
  'governorateId',
  'placeOfOrigin',
  'arrestDate',
  'branchId',
  'detaineeNumber',
  'deathDate',
] as const;

const labels: Record<string, string> = {
  record_id: msg('Number of the record in its source'),
  source: msg('Source'),
  full_name: msg('Full name'),
  first_name: msg('First name'),
  father_name: msg('Father’s name'),
  grandfather_name: msg('Grandfather’s name'),
  family_name: msg('Family name'),
  mother_name: msg('Mother’s name'),
  sex: msg('Sex'),
  birth_date: msg('Date of birth'),
  birth_year: msg('Year of birth'),
  governorate: msg('Governorate'),
  governorate_id: msg('Governorate'),
  place_of_origin: msg('Place of origin'),
  arrest_date: msg('Date of arrest'),
  arresting_branch: msg('Arresting branch'),
  branch_id: msg('Branch'),
  detainee_number: msg('Detainee number'),
  death_date: msg('Date of death'),
  forensic_report_number: msg('Forensic report number'),
  notes: msg('Notes'),
  family_line: msg('Family line (father and family name)'),
  name_order: msg('Order of the names'),
  date: msg('Date'),
  place: msg('Place'),
  branch: msg('Branch'),
  name: msg('Name'),
  phone: msg('Phone number'),
  email: msg('E-mail'),
  relation: msg('Relation'),
};

/** The linkage model names some comparisons apart from the record field they read. */
const comparisonOfField: Record<string, string> = {
  governorate_id: 'governorate',
  branch_id: 'arresting_branch',
};

/** The comparison (as the review API names agreement and steps) that reads a record field. */
export function comparisonOf(field: string): string {
  const s = snake(field);
  return comparisonOfField[s] ?? s;
}

/** snake_case form of a field name, so `firstName` and `first_name` (the model's comparisons) share a label. */
export function snake(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The English label (a translation key) of a record field or comparison; unknown fields show as written. */
export function fieldLabel(field: string): string {
  return labels[snake(field)] ?? field;
}

/** Level names of the linkage model, in words (translation keys). */
const levelLabels: Record<string, string> = {
  exact: msg('exact'),
  variant: msg('spelling variant'),
  near: msg('close spelling'),
  similar: msg('similar'),
  different: msg('different'),
  transliteration: msg('same name in the other script'),
  transliteration_near: msg('close in the other script'),
  transliteration_similar: msg('similar in the other script'),
  transliteration_different: msg('different in the other script'),
  different_for_a_woman: msg('different (a woman may be listed under her husband’s family name)'),
  transliteration_different_for_a_woman: msg(
    'different in the other script (a woman may be listed under her husband’s family name)',
  ),
  // Which side was read so is the explanation's own a or b, not always the screen's record A or B: one label.
  a_family_first: msg('one record read with its family name written first'),
  b_family_first: msg('one record read with its family name written first'),
  full_agrees: msg('agrees in full'),
  first_agrees: msg('first name agrees'),
  first_agrees_rest_differs: msg('first name agrees, the rest differs'),
  same: msg('same'),
  exact_date: msg('same date'),
  same_day: msg('same day'),
  day_month_swapped: msg('day and month swapped'),
  same_month: msg('same month'),
  same_year: msg('same year'),
  same_year_date_differs: msg('same year, date differs'),
  within_30_days: msg('within 30 days'),
  within_a_year: msg('within a year'),
  within_two_years: msg('a year to two apart'),
  year_off_by_one: msg('a year apart'),
  same_number: msg('same number'),
  same_number_same_branch: msg('same number, same branch'),
  different_number_same_branch: msg('different number, same branch'),
  missing: msg('missing'),
  agrees: msg('agrees'),
  null: msg('missing'),
};

export function levelLabel(level: string): string {
  return levelLabels[level] ?? level;
}
