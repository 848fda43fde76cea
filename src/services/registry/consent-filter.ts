import type { Caller } from '../../access/caller.js';
import { seesWithdrawnRecords } from '../../domain/consent.js';
import { ReportRepository } from '../../store/repositories/reports.js';
import type { Db } from '../../store/store.js';

/**
 * Consent in the registry's reads (docs/intake.md): a record whose family report does not (or no longer) consent to
 * internal use is, for every role but the liaisons, not there. Pages leave such records out in their query
 * (`RecordFilter.withoutWithdrawn`), so pages come back full; single reads ask here.
 */
export function seesWithdrawn(caller: Caller): boolean {
  return seesWithdrawnRecords.has(caller.actor?.role ?? '');
}

/**
 * Which of these records the caller must not see. Only family reports carry consent, so a page without them costs
 * no query (the person page is a hot path).
 */
export async function hiddenFrom(
  db: Db,
  caller: Caller,
  records: readonly { id: string; kind: string }[],
): Promise<Set<string>> {
  if (seesWithdrawn(caller)) return new Set();
  const ids = records.filter((r) => r.kind === 'family_report').map((r) => r.id);
  if (ids.length === 0) return new Set();
  return new Set(await new ReportRepository(db).recordsWithdrawnFrom('internal_use', ids));
}
