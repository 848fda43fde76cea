/**
 * From the fields a source gave to a record ready to store: names parsed and normalised, script detected, dates read
 * at the precision given, places resolved through the gazetteer's aliases, and the name keys that search reads.
 * Pure: no database; the registry service stores what this returns.
 */

import {
  type PersonRecordColumn,
  type PersonRecordFields,
  personRecordColumns,
} from '../../domain/person-record.js';
import { identifierKey } from '../../evidence/identifiers.js';
import { aliasKey, resolveBranch, resolveGovernorate, resolveTown } from '../../gazetteer/index.js';
import { formatDate, maxYear, minYear, parseDate, parseYear, whyNotDate } from '../../linkage/dates.js';
import { sexCode } from '../../linkage/features.js';
import { detectScript, keys, normalize, parse, prepareToken } from '../../names/index.js';

/** A problem with one field: rows with errors are not stored; warnings are stored beside a stored row's report. */
export interface FieldIssue {
  field: PersonRecordColumn | 'record';
  message: string;
}

/** The stored columns a record's fields give (all but ids, source, kind and times). */
export interface PreparedRecord {
  original: string;
  full_name: string | null;
  first_name: string | null;
  father_name: string | null;
  grandfather_name: string | null;
  family_name: string | null;
  mother_name: string | null;
  name_normalized: string | null;
  name_script: string;
  sex: string | null;
  birth_date: string | null;
  birth_year: number | null;
  governorate_id: string | null;
  place_of_origin: string | null;
  arrest_date: string | null;
  arresting_branch_id: string | null;
  detainee_number: string | null;
  death_date: string | null;
  forensic_report_number: string | null;
  notes: string | null;
}

/** How place texts become ids: the gazetteer's own resolution, or that and the aliases stored since. */
export interface PlaceNames {
  branch(text: string): string | undefined;
  governorate(text: string): string | undefined;
}

export const gazetteerPlaces: PlaceNames = {
  branch: (text) => resolveBranch(text)?.id,
  // A town written in the governorate column stands for its governorate (as linkage reads it).
  governorate: (text) => resolveGovernorate(text)?.id ?? resolveTown(text)?.governorate,
};

/** The gazetteer first, then aliases users added (a spelling met in the field resolves on the next import). */
export function withStoredAliases(stored: {
  branches: ReadonlyMap<string, string>;
  governorates: ReadonlyMap<string, string>;
}): PlaceNames {
  return {
    branch: (text) => gazetteerPlaces.branch(text) ?? stored.branches.get(aliasKey(text)),
    governorate: (text) => gazetteerPlaces.governorate(text) ?? stored.governorates.get(aliasKey(text)),
  };
}

export type Preparation =
  | { ok: true; record: PreparedRecord; nameKeys: string[]; warnings: FieldIssue[] }
  | { ok: false; errors: FieldIssue[] };

const maxFieldLength = 2000;

function text(value: string | undefined): string | null {
  if (value === undefined) return null;
  const t = value.trim();
  return t === '' ? null : t;
}

/**
 * Prepares one record. Names: when parts are missing and a full name is given, the parse fills them; when only
 * parts are given, they make the full name. Unreadable dates and sexes are errors; places the gazetteer does not
 * know are warnings (the text stays in `original`).
 */
export function prepareRecord(fields: PersonRecordFields, places: PlaceNames = gazetteerPlaces): Preparation {
  const errors: FieldIssue[] = [];
  const warnings: FieldIssue[] = [];
  const original: Record<string, string> = {};
  for (const column of personRecordColumns) {
    const v = fields[column];
    if (v === undefined || v === '') continue;
    if (v.length > maxFieldLength)
      errors.push({ field: column, message: `longer than ${maxFieldLength} characters` });
    if (column !== 'record_id' && column !== 'source') original[column] = v;
  }

  let first = text(fields.first_name);
  let father = text(fields.father_name);
  let grandfather = text(fields.grandfather_name);
  let family = text(fields.family_name);
  let full = text(fields.full_name);
  if (full && !first && !father && !grandfather && !family) {
    const p = parse(full, { fatherInShortNames: true });
    first = p.first ?? null;
    father = p.father ?? null;
    grandfather = p.grandfather ?? null;
    family = p.family ?? null;
  }
  const parts = [first, father, grandfather, family].filter((p): p is string => p !== null);
  if (!full && parts.length > 0) full = parts.join(' ');
  const mother = text(fields.mother_name);
  const normalized = normalize(parts.length > 0 ? parts.join(' ') : (full ?? ''));

  const date = (column: 'birth_date' | 'arrest_date' | 'death_date'): string | null => {
    const parsed = parseDate(fields[column]);
    if (parsed.kind === 'invalid') {
      errors.push({
        field: column,
        message: `${JSON.stringify(fields[column])} is not a date: ${whyNotDate(fields[column] ?? '')}`,
      });
      return null;
    }
    return parsed.kind === 'date' ? formatDate(parsed.date) : null;
  };
  const birthDate = date('birth_date');
  const arrestDate = date('arrest_date');
  const deathDate = date('death_date');
  let birthYear: number | null = null;
  const year = parseYear(fields.birth_year);
  if (year.kind === 'invalid') {
    errors.push({
      field: 'birth_year',
      message: `${JSON.stringify(fields.birth_year)} is not a year (YYYY, ${minYear}–${maxYear})`,
    });
  } else if (year.kind === 'date') {
    birthYear = year.date.year;
  }
  if (birthDate) {
    const fromDate = Number(birthDate.slice(0, 4));
    if (birthYear !== null && birthYear !== fromDate) {
      errors.push({ field: 'birth_year', message: `${birthYear} disagrees with birth_date ${birthDate}` });
    }
    birthYear = fromDate;
  }

  let sex: string | null = null;
  const rawSex = text(fields.sex);
  if (rawSex) {
    const code = sexCode(rawSex);
    if (code === 1) sex = 'm';
    else if (code === 2) sex = 'f';
    else
      errors.push({
        field: 'sex',
        message: `${JSON.stringify(rawSex)} is not a sex (m, f, male, female, ذكر, أنثى)`,
      });
  }

  const governorateText = text(fields.governorate);
  const governorate = governorateText ? places.governorate(governorateText) : undefined;
  if (governorateText && !governorate) {
    warnings.push({
      field: 'governorate',
      message: `${JSON.stringify(governorateText)} is not a known governorate`,
    });
  }
  const branchText = text(fields.arresting_branch);
  const branch = branchText ? places.branch(branchText) : undefined;
  if (branchText && !branch) {
    warnings.push({
      field: 'arresting_branch',
      message: `${JSON.stringify(branchText)} is not a known branch`,
    });
  }

  if (errors.length > 0) return { ok: false, errors };
  const scriptOf = [full, first, father, grandfather, family, mother].filter(Boolean).join(' ');
  return {
    ok: true,
    record: {
      original: JSON.stringify(original),
      full_name: full,
      first_name: first,
      father_name: father,
      grandfather_name: grandfather,
      family_name: family,
      mother_name: mother,
      name_normalized: normalized === '' ? null : normalized,
      name_script: detectScript(scriptOf),
      sex,
      birth_date: birthDate,
      birth_year: birthYear,
      governorate_id: governorate ?? null,
      place_of_origin: text(fields.place_of_origin),
      arrest_date: arrestDate,
      arresting_branch_id: branch ?? null,
      detainee_number: text(fields.detainee_number),
      death_date: deathDate,
      forensic_report_number: text(fields.forensic_report_number),
      notes: text(fields.notes),
    },
    nameKeys: [
      ...nameKeys({ first, father, grandfather, family, full }),
      ...detaineeKeys(text(fields.detainee_number)),
    ],
    warnings,
  };
}

/**
 * The search keys of a record's name: the names module's part keys (`k:` skeleton, `p:` phonetic) of every part,
 * and `fk:` first|family. A record known only by a full name that did not parse into parts takes the keys of the
 * full name.
 */
/**
 * The key a detainee number is found by, however it was written (digits in either script, separators): what card
 * labels meet the registry through (docs/tracing.md). Kept with the name keys, which are indexed.
 */
export function detaineeKeys(detaineeNumber: string | null): string[] {
  const key = detaineeNumber ? identifierKey(detaineeNumber) : '';
  return key ? [`${detaineeKeyPrefix}${key}`] : [];
}

export const detaineeKeyPrefix = 'dn:';

export function nameKeys(name: {
  first: string | null;
  father: string | null;
  grandfather: string | null;
  family: string | null;
  full?: string | null;
}): string[] {
  const parts = [name.first, name.father, name.grandfather, name.family].filter((p): p is string => !!p);
  if (parts.length === 0) return name.full ? keys(name.full) : [];
  const out = new Set<string>();
  for (const part of parts) {
    for (const k of keys(part)) if (!k.startsWith('fk:')) out.add(k);
  }
  if (name.first && name.family) {
    const f = prepareToken(name.first).key;
    const l = prepareToken(name.family).key;
    if (f !== '' && l !== '') out.add(`fk:${f}|${l}`);
  }
  return [...out];
}
