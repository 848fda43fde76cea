import {
  type PfifNote,
  type PfifPerson,
  pfifFooter,
  pfifHeader,
  pfifPersonXml,
  pfifStatuses,
  pfifTime,
} from './pfif.js';

/**
 * What `athar export` writes, row by row: CSV (RFC 4180, UTF-8, the person-record columns so a records export
 * imports again), JSON (one document, items streamed) and PFIF 1.4. Pure: rows in, text out.
 */

export const exportKinds = ['records', 'persons', 'evidence'] as const;
export type ExportKind = (typeof exportKinds)[number];
export const exportFormats = ['csv', 'json', 'pfif'] as const;
export type ExportFormat = (typeof exportFormats)[number];

/** records: the person-record CSV of design.md first, then what athar adds. */
export const recordColumns = [
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
  'kind',
  'external_id',
  'person_id',
  'created_at',
] as const;

export const personColumns = [
  'person_id',
  'created_at',
  'record_count',
  'record_ids',
  'full_name',
  'first_name',
  'father_name',
  'grandfather_name',
  'family_name',
  'mother_name',
  'sex',
  'birth_date',
  'governorate',
  'arrest_date',
  'arresting_branch',
  'detainee_number',
  'death_date',
] as const;

export const evidenceColumns = [
  'id',
  'sha256',
  'size_bytes',
  'media_type',
  'original_name',
  'width',
  'height',
  'pdq',
  'pdq_quality',
  'graphic',
  'decode_status',
  'source',
  'ingest_run_id',
  'created_at',
] as const;

export type ExportRow = Record<string, string | number | null | undefined>;

export function columnsOf(kind: ExportKind): readonly string[] {
  return kind === 'records' ? recordColumns : kind === 'persons' ? personColumns : evidenceColumns;
}

export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(columns: readonly string[], row: ExportRow): string {
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) line += ',';
    line += csvField(row[columns[i] as string]);
  }
  return `${line}\n`;
}

/**
 * The frame around the rows of one format; `item` is called once per row. Items stand alone: whoever puts them in
 * order writes `separator` between two of them (JSON's comma), so pages encoded apart, in worker threads, join.
 */
export interface ExportEncoder {
  head(): string;
  separator: string;
  item(row: ExportRow, notes?: readonly PfifNote[]): string;
  tail(): string;
}

export interface ExportMeta {
  kind: ExportKind;
  exportedAt: string;
  purpose: string | null;
  /** The repository's domain: PFIF record ids are `<domain>/<kind>.<id>`. */
  domain: string;
  /**
   * Every row holds exactly the kind's columns, in order, null where empty (a records export's rows do): JSON then
   * writes the row as it is instead of copying it first (a sixth of a million-record JSON export's time).
   */
  exactRows?: boolean;
}

/** A claim of a PFIF status kind as a PFIF note (others are not PFIF's business). */
export function pfifNoteOf(
  domain: string,
  claim: { id: string; kind: string; statement: string | null; asserted_at: string; source: string | null },
  personRecordId: string,
): PfifNote | undefined {
  if (!(pfifStatuses as readonly string[]).includes(claim.kind)) return undefined;
  return {
    note_record_id: `${domain}/note.${claim.id}`,
    person_record_id: personRecordId,
    author_name: claim.source ?? domain,
    source_date: pfifTime(claim.asserted_at),
    status: claim.kind,
    text: claim.statement ?? claim.kind.replace(/_/g, ' '),
  };
}

function pfifPersonOf(meta: ExportMeta, row: ExportRow): PfifPerson {
  const id = meta.kind === 'persons' ? `person.${row.person_id}` : `record.${row.record_id}`;
  let description = '';
  const describe = (label: string, value: unknown) => {
    if (!value) return;
    description += `${description === '' ? '' : '\n'}${label}${value}`;
  };
  describe('father: ', row.father_name);
  describe('grandfather: ', row.grandfather_name);
  describe('mother: ', row.mother_name);
  describe('arrested: ', row.arrest_date);
  describe('arresting branch: ', row.arresting_branch);
  describe('detainee number: ', row.detainee_number);
  describe('death: ', row.death_date);
  describe('', row.notes);
  let given = '';
  for (const part of [row.first_name, row.father_name, row.grandfather_name])
    if (part) given += given === '' ? part : ` ${part}`;
  // Fields set one by one (not spread from conditionals): no short-lived object per optional field and row.
  const person: PfifPerson = {
    person_record_id: `${meta.domain}/${id}`,
    entry_date: pfifTime(meta.exportedAt),
    source_name: String(row.source ?? meta.domain),
    source_date: pfifTime(String(row.created_at ?? meta.exportedAt)),
    full_name: String(row.full_name ?? given ?? ''),
  };
  if (given) person.given_name = given;
  if (row.family_name) person.family_name = String(row.family_name);
  if (row.alternate_names) person.alternate_names = String(row.alternate_names);
  if (description) person.description = description;
  if (row.sex === 'm') person.sex = 'male';
  else if (row.sex === 'f') person.sex = 'female';
  if (row.birth_date) person.date_of_birth = String(row.birth_date);
  else if (row.birth_year) person.date_of_birth = String(row.birth_year);
  if (row.place_of_origin) person.home_city = String(row.place_of_origin);
  if (row.governorate) person.home_state = String(row.governorate);
  person.home_country = 'SY';
  return person;
}

export function encoderFor(format: ExportFormat, meta: ExportMeta): ExportEncoder {
  const columns = columnsOf(meta.kind);
  if (format === 'csv')
    return {
      head: () => csvLine(columns, Object.fromEntries(columns.map((c) => [c, c]))),
      separator: '',
      item: (row) => csvLine(columns, row),
      tail: () => '',
    };
  if (format === 'json') {
    return {
      head: () =>
        `{"format":"athar-export","version":1,"kind":${JSON.stringify(meta.kind)},"exportedAt":${JSON.stringify(meta.exportedAt)},"purpose":${JSON.stringify(meta.purpose)},"items":[\n`,
      separator: ',\n',
      item: meta.exactRows
        ? (row) => JSON.stringify(row)
        : (row) => {
            const obj: Record<string, unknown> = {};
            for (const c of columns) obj[c] = row[c] ?? null;
            return JSON.stringify(obj);
          },
      tail: () => '\n]}\n',
    };
  }
  if (meta.kind === 'evidence') throw new Error('PFIF describes people: export evidence as csv or json');
  return {
    head: () => pfifHeader,
    separator: '',
    item: (row, notes) => pfifPersonXml(pfifPersonOf(meta, row), notes ?? []),
    tail: () => pfifFooter,
  };
}
