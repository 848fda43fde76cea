import { resolveBranch, resolveGovernorate } from '../gazetteer/index.js';
import { newId } from '../ids.js';
import { recordEntry } from '../ledger/entries.js';
import { detectScript, normalize, parse } from '../names/index.js';
import type { RecordTable } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { appendLogEntry } from './ledger.js';
import { nameKeys } from './record-fields.js';
import type { ReportInput } from './report-input.js';

/**
 * The record a family report makes: kind family_report, from a source of kind family (one per report, since
 * each family is its own witness), names as given plus their parsed parts and matching forms. Contact details
 * and the ante-mortem profile are NOT part of the record: they live in their own tables.
 *
 * Its name keys are the registry's (record-fields.ts), so name search finds reports like any other record.
 */
export async function recordFromReport(
  db: Db,
  input: Pick<ReportInput, 'person' | 'arrest' | 'language'>,
  meta: { reportId: string; createdBy: string | null; at: string },
): Promise<string> {
  const { person, arrest } = input;
  const sourceId = newId();
  await db
    .insertInto('sources')
    .values({
      id: sourceId,
      name: `family report ${meta.reportId}`,
      kind: 'family',
      description: 'A missing-person report filed by the family (family intake).',
      reliability_notes: null,
      created_at: meta.at,
      created_by: meta.createdBy,
    })
    .execute();

  // Parts the family gave win; a full name alone is parsed into parts (names/parse).
  const parsed = person.fullName ? parse(person.fullName) : undefined;
  const first = person.firstName ?? parsed?.first ?? null;
  const father = person.fatherName ?? parsed?.father ?? null;
  const grandfather = person.grandfatherName ?? parsed?.grandfather ?? null;
  const family = person.familyName ?? parsed?.family ?? null;
  const parts = [first, father, grandfather, family].filter((p): p is string => p !== null);
  const fullName = person.fullName ?? (parts.length > 0 ? parts.join(' ') : null);
  const normalized = parts.length > 0 ? parts.map(normalize).join(' ') : fullName ? normalize(fullName) : '';
  const script = detectScript([fullName, ...parts, person.motherName].filter(Boolean).join(' '));

  const recordId = newId();
  const record: RecordTable = {
    id: recordId,
    source_id: sourceId,
    external_id: meta.reportId,
    kind: 'family_report',
    // As received, in the script given: the person and arrest sections only.
    original: JSON.stringify({ person, ...(arrest ? { arrest } : {}), language: input.language }),
    full_name: fullName,
    first_name: first,
    father_name: father,
    grandfather_name: grandfather,
    family_name: family,
    mother_name: person.motherName ?? null,
    name_normalized: normalized || null,
    name_script: script,
    sex: person.sex ?? null,
    birth_date: person.birthDate ?? null,
    birth_year: person.birthDate ? Number(person.birthDate.slice(0, 4)) : null,
    governorate_id: resolveGovernorate(person.governorate)?.id ?? null,
    place_of_origin: person.placeOfOrigin ?? null,
    arrest_date: arrest?.date ?? null,
    arresting_branch_id: resolveBranch(arrest?.branch)?.id ?? null,
    detainee_number: null,
    death_date: null,
    forensic_report_number: null,
    notes: arrest?.place ? `arrested at: ${arrest.place}` : null,
    created_at: meta.at,
    created_by: meta.createdBy,
  };
  await db.insertInto('records').values(record).execute();
  // Name keys, as the registry writes them, so that the report is found by name search like any record.
  const keys = nameKeys({ first, father, grandfather, family, full: fullName });
  if (keys.length > 0) {
    await db
      .insertInto('record_name_keys')
      .values(keys.map((key) => ({ key, record_id: recordId })))
      .execute();
  }
  // A registry change: staged in the tamper-evident log in the same transaction (digests only, no names).
  await appendLogEntry(db, recordEntry('record.created', record));
  return recordId;
}
