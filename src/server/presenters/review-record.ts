import type { RecordWithContext } from '../../store/repositories/review-records.js';

/**
 * A record as the review and identification screens show it: a whitelist of fields. Notes and the forensic report
 * number are forensic material, shown only to roles with `forensic:read`.
 */
export function presentReviewRecord(row: RecordWithContext, forensic: boolean) {
  return {
    id: row.id,
    fullName: row.full_name,
    firstName: row.first_name,
    fatherName: row.father_name,
    grandfatherName: row.grandfather_name,
    familyName: row.family_name,
    motherName: row.mother_name,
    script: row.name_script,
    source: { id: row.source_id, name: row.source_name },
    kind: row.kind,
    sex: row.sex,
    birthDate: row.birth_date,
    birthYear: row.birth_year,
    governorateId: row.governorate_id,
    placeOfOrigin: row.place_of_origin,
    arrestDate: row.arrest_date,
    branchId: row.arresting_branch_id,
    detaineeNumber: row.detainee_number,
    deathDate: row.death_date,
    personId: row.person_id,
    ...(forensic ? { notes: row.notes, forensicReportNumber: row.forensic_report_number } : {}),
  };
}
