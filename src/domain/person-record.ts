/**
 * The person-record of design.md: the CSV's columns, their names in the API, which are sensitive, and the kinds
 * of record. Import, linkage, the registry, presenters and the web interface all read this one table.
 */
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

/** Each column's name in the API (camelCase); `record_id` and `source` have their own meaning there. */
export const apiNames = {
  record_id: 'externalId',
  source: 'sourceId',
  full_name: 'fullName',
  first_name: 'firstName',
  father_name: 'fatherName',
  grandfather_name: 'grandfatherName',
  family_name: 'familyName',
  mother_name: 'motherName',
  sex: 'sex',
  birth_date: 'birthDate',
  birth_year: 'birthYear',
  governorate: 'governorate',
  place_of_origin: 'placeOfOrigin',
  arrest_date: 'arrestDate',
  arresting_branch: 'arrestingBranch',
  detainee_number: 'detaineeNumber',
  death_date: 'deathDate',
  forensic_report_number: 'forensicReportNumber',
  notes: 'notes',
} as const satisfies Record<PersonRecordColumn, string>;

/** The API's name for a person-record column (any other field name is its own). */
export function apiField(column: string): string {
  return (apiNames as Record<string, string>)[column] ?? column;
}

/**
 * Columns only `forensic:read` may see: forensic report numbers, and notes (sources write arrest places and
 * medical details there). A presenter hides them wherever a record is shown, its original text included.
 */
export const forensicColumns: ReadonlySet<PersonRecordColumn> = new Set(['forensic_report_number', 'notes']);

export const recordKinds = [
  'family_report',
  'registry_line',
  'death_notice',
  'diaspora_list',
  'evidence_card',
  'other',
] as const;
export type RecordKind = (typeof recordKinds)[number];
