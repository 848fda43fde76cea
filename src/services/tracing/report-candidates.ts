import { probabilityOf } from '../../linkage/model.js';
import { IdentificationRepository } from '../../store/repositories/identifications.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import { TracingRepository } from '../../store/repositories/tracing.js';
import type { Store } from '../../store/store.js';

export interface CandidateInput {
  recordId: string;
  /** log2 Bayes factor with the prior: the pair's match weight. */
  weight: number;
  explanation: unknown;
}

/**
 * Keeps what the archive holds that may be a family report's missing person (liaisons see it; the family's status
 * never changes because of it): the registry records the report matched, each with its probability and
 * explanation, and whether evidence is involved — an identification of the candidate's person, or of the report's
 * own person (a card that names the report's record). Replaces the report's earlier candidates.
 */
export async function storeReportCandidates(
  store: Pick<Store, 'db' | 'capabilities'>,
  reportRecordId: string,
  candidates: readonly CandidateInput[],
  modelVersion: string,
  at: string,
): Promise<number> {
  const tracing = new TracingRepository(store.db, store.capabilities);
  const reportId = await tracing.reportOfRecord(reportRecordId);
  if (!reportId) return 0;
  const links = new RecordLinkRepository(store.db);
  const persons = await links.activeOf([reportRecordId, ...candidates.map((c) => c.recordId)]);
  const identifications = new IdentificationRepository(store.db);
  const evidenceOf = async (personId: string | undefined) =>
    personId ? ((await identifications.standingOfPerson(personId))[0]?.evidenceId ?? null) : null;
  const rows = [];
  for (const c of candidates) {
    rows.push({
      record_id: c.recordId,
      evidence_id: await evidenceOf(persons.get(c.recordId)?.personId),
      probability: probabilityOf(c.weight),
      match_weight: c.weight,
      model_version: modelVersion,
      explanation: JSON.stringify(c.explanation),
      created_at: at,
    });
  }
  const own = persons.get(reportRecordId)?.personId;
  for (const ident of own ? await identifications.standingOfPerson(own) : []) {
    rows.push({
      record_id: null,
      evidence_id: ident.evidenceId,
      probability: ident.status === 'proposed' ? 0.5 : 1,
      match_weight: null,
      model_version: modelVersion,
      explanation: JSON.stringify({ identification: ident.id, status: ident.status, basis: ident.basis }),
      created_at: at,
    });
  }
  await tracing.setCandidates(reportId, rows);
  return rows.length;
}
