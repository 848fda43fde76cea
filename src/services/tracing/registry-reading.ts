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
  /** Each source id once: `sources` holds a million references to a handful of strings, not a string per record. */
  sourceIds: Map<string, string>;
}

/** Keeps `source` as record `i`'s, as the one string `into` holds for that source. */
export function keepSource(into: RegistryRecords, i: number, source: string): void {
  let kept = into.sourceIds.get(source);
  if (kept === undefined) {
    kept = source;
    into.sourceIds.set(kept, kept);
  }
  into.sources[i] = kept;
}

/**
 * Reads the records with ids after `after` and, when given, up to `until` into `into`, a page at a time (the run's
 * own thread reads the first part so, its reading thread the second: registry-read-worker.ts). `onPage` runs after
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
        keepSource(into, i, row.source_id);
      }
    }
    if (page.length > 0) after = (page[page.length - 1] as MatchRecordRow).id;
    if (page.length < pageSize) return;
    await onPage?.();
  }
}

/** Whether these items' ids are in strictly increasing order as JavaScript compares them. */
function ascending<T>(items: readonly T[], id: (item: T) => string): boolean {
  for (let i = 1; i < items.length; i++) if (id(items[i] as T) <= id(items[i - 1] as T)) return false;
  return true;
}

/**
 * Where each record id is among the run's records. Read in id order, they are found by bisection, without a map
 * of a million strings; should the store order ids otherwise than JavaScript does (a collation), by a map.
 */
export interface Positions {
  /** The ids, by position. */
  ids: readonly string[];
  get(id: string): number | undefined;
  /** Whether the ids are in JavaScript's order (then found by bisection). */
  inOrder: boolean;
}

export function positions(ids: readonly string[]): Positions {
  if (!ascending(ids, (id) => id)) {
    const map = new Map(ids.map((id, i) => [id, i]));
    return { ids, get: (id) => map.get(id), inOrder: false };
  }
  return {
    ids,
    inOrder: true,
    get(id) {
      let lo = 0;
      let hi = ids.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const at = ids[mid] as string;
        if (at === id) return mid;
        if (at < id) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    },
  };
}

/**
 * Each open link with the position of its record (links of records the run did not read are left out). Links and
 * records both come in record id order, so they are walked side by side, unless either is out of JavaScript's order.
 */
export function* matchByRecord<L extends { record_id: string }>(
  openLinks: readonly L[],
  indexOf: Positions,
): Generator<[L, number]> {
  const { ids } = indexOf;
  if (!indexOf.inOrder || !ascending(openLinks, (l) => l.record_id)) {
    for (const l of openLinks) {
      const r = indexOf.get(l.record_id);
      if (r !== undefined) yield [l, r];
    }
    return;
  }
  let r = 0;
  for (const l of openLinks) {
    while (r < ids.length && (ids[r] as string) < l.record_id) r++;
    if (r < ids.length && ids[r] === l.record_id) yield [l, r];
  }
}
