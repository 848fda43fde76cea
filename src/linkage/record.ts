/** The person-record CSV of design.md: every column is optional except that a file needs a header. */
export const personRecordColumns = [
  'record_id',
  'source',
  'full_name',
  'first_name',
  'father_name',
  'grandfather_name',
  'family_name',
  'mother_name',
  'sex',
  'birth_date',
  'birth_year',
  'governorate',
  'place_of_origin',
  'arrest_date',
  'arresting_branch',
  'detainee_number',
  'death_date',
  'forensic_report_number',
  'notes',
] as const;

export type PersonRecordColumn = (typeof personRecordColumns)[number];

/** One row as given: text per column, absent or empty when the source did not say. */
export type PersonRecordFields = Partial<Record<PersonRecordColumn, string>>;

/** The date columns, whose unreadable values are counted per column and treated as missing. */
export const dateColumns = ['birth_date', 'birth_year', 'arrest_date', 'death_date'] as const;
export type DateColumn = (typeof dateColumns)[number];
