import type { PersonRecordFields } from '../../domain/person-record.js';
import { newId } from '../../ids.js';
import type { Capabilities } from '../../store/capabilities.js';
import { SourceRepository } from '../../store/repositories/sources.js';
import type { Db } from '../../store/store.js';
import { storeNewRecords } from '../registry/new-records.js';
import { prepareRecord } from '../registry/record-fields.js';
import { recordRow } from '../registry/registry.js';
import type { ReportInput } from './report-input.js';

/**
 * The record a family report makes: kind family_report, from a source of kind family (one per report, since
 * each family is its own witness), names as given plus their parsed parts and matching forms. Contact details
 * and the ante-mortem profile are NOT part of the record: they live in their own tables.
 *
 * Fields are prepared by the registry's own preparation (record-fields.ts), so a report is stored, keyed and
 * found by name search like any other record.
 */
export async function recordFromReport(
  db: Db,
  capabilities: Capabilities,
  input: Pick<ReportInput, 'person' | 'arrest' | 'language'>,
  meta: { reportId: string; createdBy: string | null; at: string },
): Promise<string> {
  const { person, arrest } = input;
  // The name must be unique but must not carry the report's id (sources are listed to every staff role, and the
  // id would tie a source to its report and its family): a random tag of the source's own id instead.
  const ownId = newId();
  const { id: sourceId } = await new SourceRepository(db).create({
    id: ownId,
    name: `family report ${ownId.replaceAll('-', '').slice(-12)}`,
    kind: 'family',
    description: 'A missing-person report filed by the family (family intake).',
    createdBy: meta.createdBy,
    at: meta.at,
  });

  // The registry's own preparation: parts parsed from a full name, matching forms, script, places, name keys.
  const fields: PersonRecordFields = {
    full_name: person.fullName,
    first_name: person.firstName,
    father_name: person.fatherName,
    grandfather_name: person.grandfatherName,
    family_name: person.familyName,
    mother_name: person.motherName,
    sex: person.sex,
    birth_date: person.birthDate,
    governorate: person.governorate,
    place_of_origin: person.placeOfOrigin,
    arrest_date: arrest?.date,
    arresting_branch: arrest?.branch,
    ...(arrest?.place ? { notes: `arrested at: ${arrest.place}` } : {}),
  };
  const prepared = prepareRecord(fields);
  // The report's schema has already checked every value; a refusal here is a disagreement between the two.
  if (!prepared.ok)
    throw new Error(`report fields the registry refuses: ${prepared.errors.map((e) => e.field).join(', ')}`);
  const { row: record, keys } = recordRow(
    { sourceId, kind: 'family_report', externalId: meta.reportId, fields },
    prepared,
    meta.at,
    meta.createdBy,
  );
  // As received, in the script given: the person and arrest sections only.
  record.original = JSON.stringify({ person, ...(arrest ? { arrest } : {}), language: input.language });
  // A registry change: staged in the tamper-evident log in the same transaction (digests only, no names); the
  // record is its own person until the tracing loop matches it.
  await storeNewRecords(db, capabilities, [record], keys, {
    logKind: 'record.created',
    at: meta.at,
    by: meta.createdBy,
  });
  return record.id;
}
