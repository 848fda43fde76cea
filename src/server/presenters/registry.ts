/**
 * Presenters for the registry: each names the fields a response may carry (a whitelist), so a column added to a
 * table never leaks by default. Sensitive fields need a permission: forensic report numbers and notes
 * 'forensic:read'; the author of a family report (the reporter's identity) 'reports:read'.
 */
import type { Visibility } from '../../access/caller.js';
import { forensicColumns } from '../../domain/person-record.js';
import type { PersonView } from '../../services/registry/registry.js';
import type { RecordView } from '../../store/repositories/records.js';
import type { AssertionTable, EventTable, RelationTable } from '../../store/schema.js';

export function presentRecord(r: RecordView, viewer: Visibility, options: { original?: boolean } = {}) {
  const out: Record<string, unknown> = {
    id: r.id,
    externalId: r.external_id,
    kind: r.kind,
    fullName: r.full_name,
    firstName: r.first_name,
    fatherName: r.father_name,
    grandfatherName: r.grandfather_name,
    familyName: r.family_name,
    motherName: r.mother_name,
    script: r.name_script,
    nameNormalized: r.name_normalized,
    source: { id: r.source_id, name: r.source_name },
    sex: r.sex,
    birthDate: r.birth_date,
    birthYear: r.birth_year,
    governorateId: r.governorate_id,
    placeOfOrigin: r.place_of_origin,
    arrestDate: r.arrest_date,
    branchId: r.arresting_branch_id,
    detaineeNumber: r.detainee_number,
    deathDate: r.death_date,
    personId: r.person_id,
    createdAt: r.created_at,
  };
  if (r.kind !== 'family_report' || viewer.reporters) out.createdBy = r.created_by;
  if (viewer.forensic) {
    out.forensicReportNumber = r.forensic_report_number;
    out.notes = r.notes;
  }
  if (options.original) {
    const original = JSON.parse(r.original) as Record<string, unknown>;
    if (!viewer.forensic) withoutForensic(r.kind, original);
    out.original = original;
  }
  return out;
}

/**
 * A record's original as received, without what is forensic in it: the forensic columns, and in a family report
 * the arrest place, which the record keeps as its notes (intake-record.ts) and must not show through the original
 * to whoever may not read notes.
 */
function withoutForensic(kind: string, original: Record<string, unknown>): void {
  for (const column of forensicColumns) delete original[column];
  const arrest = original.arrest;
  if (kind === 'family_report' && arrest && typeof arrest === 'object' && 'place' in arrest) {
    const { place: _place, ...rest } = arrest as Record<string, unknown>;
    original.arrest = rest;
  }
}

export function presentAssertion(a: AssertionTable) {
  return {
    id: a.id,
    recordId: a.record_id,
    personId: a.person_id,
    kind: a.kind,
    statement: a.statement,
    assertedAt: a.asserted_at,
    assertedBy: a.asserted_by,
    sourceId: a.source_id,
  };
}

export function presentEvent(e: EventTable) {
  return {
    id: e.id,
    personId: e.person_id,
    recordId: e.record_id,
    type: e.type,
    dateStart: e.date_start,
    dateEnd: e.date_end,
    datePrecision: e.date_precision,
    place: e.place,
    branchId: e.branch_id,
    governorateId: e.governorate_id,
    description: e.description,
  };
}

export function presentRelation(r: RelationTable) {
  return {
    id: r.id,
    personA: r.person_a,
    personB: r.person_b,
    type: r.type,
    certainty: r.certainty,
    note: r.note,
    createdAt: r.created_at,
    createdBy: r.created_by,
    retractedAt: r.retracted_at,
    retractedBy: r.retracted_by,
    retractReason: r.retract_reason,
  };
}

export function presentPerson(p: PersonView, viewer: Visibility) {
  return {
    id: p.id,
    ...(p.mergedFrom ? { mergedFrom: p.mergedFrom } : {}),
    status: p.status,
    displayName: p.records.find((r) => r.full_name)?.full_name ?? null,
    createdAt: p.createdAt,
    records: p.records.map((r) => ({
      ...presentRecord(r, viewer),
      link: {
        id: r.link.id,
        basis: r.link.basis,
        linkedAt: r.link.linkedAt,
        linkedBy: r.link.linkedBy,
        note: r.link.note,
        decisionId: r.link.decisionId,
        ...(r.link.model ? { model: r.link.model } : {}),
      },
    })),
    events: p.events.map(presentEvent),
    relations: p.relations.map(presentRelation),
    assertions: p.assertions.map(presentAssertion),
    identifications: p.identifications,
  };
}
