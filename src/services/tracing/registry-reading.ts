import type { RecordFeatures } from '../../linkage/features.js';
import type { MatchRecordRepository, MatchRecordRow } from '../../store/repositories/match-records.js';
import { recordFields } from '../review/registry-matcher.js';

/** A registry-wide run's records as read: their features, and what the run keeps beside them. */
export interface RegistryRecords {
  features: RecordFeatures;
  /** Positions (in `features`) of the family reports. */
  reports: number[];
  /** With `--out`: each record's external id and source, by position. */
  externalIds: (string | null)[];
  sources: string[];
}

/**
 * Reads the records with ids after `after` and, when given, up to `until` into `into`, a page at a time (the run's
 * own thread reads the first half so, its reading thread the second: registry-read-worker.ts). `onPage` runs after
 * each page (progress, the run's lock).
 */
export async function readRegistryRange(
  repo: MatchRecordRepository,
  into: RegistryRecords,
  range: { after: string | null; until: string | null },
  pageSize: number,
  withExternalIds: boolean,
  onPage?: () => Promise<void>,
): Promise<void> {
  let after = range.after;
  for (;;) {
    const page: (MatchRecordRow & { external_id?: string | null })[] = withExternalIds
      ? await repo.pageWithExternalIds(after, pageSize, range.until)
      : await repo.page(after, pageSize, range.until);
    for (const row of page) {
      const i = into.features.add(row.id, recordFields(row));
      if (row.kind === 'family_report') into.reports.push(i);
      if (withExternalIds) {
        into.externalIds[i] = row.external_id ?? null;
        into.sources[i] = row.source_id;
      }
    }
    if (page.length > 0) after = (page[page.length - 1] as MatchRecordRow).id;
    if (page.length < pageSize) return;
    await onPage?.();
  }
}
