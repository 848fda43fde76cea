import { createHash } from 'node:crypto';
import type { BlobStore } from '../../blobs/blob-store.js';
import { readAll } from '../../blobs/fs-blob-store.js';
import { identifierKey } from '../../evidence/identifiers.js';
import type { ImageDecoder } from '../../evidence/image-decoder.js';
import { displayName } from '../../evidence/media.js';
import { pdqToHex } from '../../evidence/pdq.js';
import { IntegrityRepository } from '../../store/repositories/integrity.js';
import type { Db } from '../../store/store.js';
import type { Problems } from './verify.js';

/**
 * What `athar verify` checks of the evidence beyond the covered rows (issue 21, Reliability 2; docs/ledger.md):
 * values outside the log's row digests, checked against the custody events that recorded them (which the log
 * covers), or derived again from what is covered.
 *  - annotations: each must have the `annotated` event that made it (item, kind, value, place read), its search key
 *    must be its value's, its record the one the latest event for it names; an event's annotation must still exist;
 *  - an item's thumbnail, blurred view and PDQ against its ingest event (items ingested before the event carried
 *    them: no two items with different pictures share a view, no view is another item's original);
 *  - the `graphic` flag: set at ingest and cleared by no path of athar, so a cleared flag is tampering unless a
 *    custody event records the change (`details.graphic`);
 *  - each location's path against the ingest event that found it (run, path bytes, display form, lookup key);
 *  - each ingest run's custodian and note against its ingest events.
 */

export interface EvidenceCheckOptions {
  /** Re-decode this many images (or all) and compare PDQ and views with what is stored. */
  recompute?: number | 'all';
  decoder?: ImageDecoder;
  maxPixels?: number;
}

export interface EvidenceCheckSummary {
  items: number;
  annotations: number;
  locations: number;
  recomputed: number;
}

const page = 1000;

function details(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const has = (d: Record<string, unknown>, key: string) => Object.hasOwn(d, key);
const show = (v: unknown) => (v === null || v === undefined ? 'none' : JSON.stringify(v));

export function annotationKey(kind: string, value: string): string {
  return kind === 'note' ? value.normalize('NFKC').toLowerCase() : identifierKey(value);
}

export async function verifyEvidence(
  trx: Db,
  blobs: BlobStore,
  problems: Problems,
  notes: string[],
  options: EvidenceCheckOptions = {},
): Promise<EvidenceCheckSummary> {
  const integrity = new IntegrityRepository(trx);
  const annotations = await verifyAnnotations(integrity, problems);
  let items = 0;
  let locations = 0;
  let recorded = 0;
  let unrecorded = 0;
  const runs = new Map<string, { custodian: unknown; note: unknown; event: string }>();
  const candidates: {
    id: string;
    sha256: string;
    thumbnail: string | null;
    blurred: string | null;
    pdq: string | null;
  }[] = [];
  let after = '';
  for (;;) {
    const rows = await integrity.itemsPage(after, page);
    if (rows.length === 0) break;
    const ids = rows.map((r) => r.id);
    const events = await integrity.eventsFor(ids, ['ingested', 'annotated']);
    const byItem = new Map<string, typeof events>();
    for (const e of events) {
      const list = byItem.get(e.evidence_id as string) ?? [];
      list.push(e);
      byItem.set(e.evidence_id as string, list);
    }
    const located = new Map<string, Awaited<ReturnType<IntegrityRepository['locationsFor']>>>();
    for (const l of await integrity.locationsFor(ids)) {
      const list = located.get(l.evidence_id) ?? [];
      list.push(l);
      located.set(l.evidence_id, list);
    }
    for (const item of rows) {
      items++;
      const mine = (byItem.get(item.id) ?? []).map((e) => ({ ...e, d: details(e.details) }));
      const ingests = mine.filter((e) => e.kind === 'ingested');
      for (const e of ingests) {
        const run = e.d.run;
        if (typeof run === 'string' && !runs.has(run))
          runs.set(run, { custodian: e.d.custodian ?? null, note: e.d.note ?? null, event: e.id });
      }
      // Views and PDQ, as the event that stored the item recorded them.
      const first = ingests.find((e) => !e.d.already_present && has(e.d, 'thumbnail_sha256'));
      if (first) {
        recorded++;
        for (const [what, column, value] of [
          ['thumbnail', 'thumbnail_sha256', item.thumbnail_sha256],
          ['blurred view', 'blurred_sha256', item.blurred_sha256],
          ['PDQ hash', 'pdq', item.pdq],
        ] as const) {
          const expected = first.d[column] ?? null;
          if (expected !== value) {
            problems.add({
              code: column === 'pdq' ? 'derived_changed' : 'view_pointer',
              message: `evidence item ${item.id}: its ${what} is ${show(value)}, but its ingest event ${first.id} recorded ${show(expected)}${column === 'pdq' ? '' : ': the pointer was aimed at other bytes'}`,
              table: 'evidence_items',
              id: item.id,
              expected: String(expected),
              found: String(value),
            });
          }
        }
      } else if (item.decode_status === 'decoded') unrecorded++;
      if (item.decode_status === 'decoded') {
        candidates.push({
          id: item.id,
          sha256: item.sha256,
          thumbnail: item.thumbnail_sha256,
          blurred: item.blurred_sha256,
          pdq: item.pdq,
        });
      }
      // The graphic flag: only a recorded custody event may clear it.
      const flagged = mine.filter((e) => has(e.d, 'graphic')).at(-1);
      const expectedGraphic = flagged ? (flagged.d.graphic === false || flagged.d.graphic === 0 ? 0 : 1) : 1;
      if (item.graphic !== expectedGraphic) {
        problems.add({
          code: 'graphic_changed',
          message: flagged
            ? `evidence item ${item.id}: graphic is ${item.graphic}, but custody event ${flagged.id} set it to ${expectedGraphic}`
            : `evidence item ${item.id} is no longer marked graphic, and no custody event records the change: its unblurred thumbnail would be shown to everyone`,
          table: 'evidence_items',
          id: item.id,
          expected: String(expectedGraphic),
          found: String(item.graphic),
        });
      }
      // Where the bytes were found, against the ingest events that found them.
      const recordsPaths = ingests.some((e) => typeof e.d.source_path_b64 === 'string');
      for (const loc of located.get(item.id) ?? []) {
        locations++;
        const bytes = Buffer.from(loc.path_b64, 'base64');
        const faults: string[] = [];
        if (loc.path !== displayName(bytes))
          faults.push(`its path reads ${show(loc.path)}, not ${show(displayName(bytes))}`);
        if (loc.path_key !== createHash('sha256').update(bytes).digest('hex'))
          faults.push('its path key is not the hash of its path');
        if (
          recordsPaths &&
          !ingests.some(
            (e) =>
              e.d.source_path_b64 === loc.path_b64 && (e.d.run ?? loc.ingest_run_id) === loc.ingest_run_id,
          )
        )
          faults.push(`no ingest event of run ${loc.ingest_run_id} found it at ${show(loc.path)}`);
        if (faults.length > 0) {
          problems.add({
            code: 'location_changed',
            message: `evidence location ${loc.id} of item ${item.id}: ${faults.join('; ')}`,
            table: 'evidence_locations',
            id: loc.id,
          });
        }
      }
    }
    if (rows.length < page) break;
    after = (rows.at(-1) as { id: string }).id;
  }

  // Who ran each ingest, as its events recorded it.
  for (const run of await integrity.ingestRuns()) {
    const seen = runs.get(run.id);
    if (!seen) continue;
    for (const [column, value, expected] of [
      ['custodian', run.custodian, seen.custodian],
      ['note', run.note, seen.note],
    ] as const) {
      if ((value ?? null) !== expected) {
        problems.add({
          code: 'run_changed',
          message: `ingest run ${run.id}: its ${column} is ${show(value)}, but its ingest event ${seen.event} recorded ${show(expected)}`,
          table: 'ingest_runs',
          id: run.id,
          expected: String(expected),
          found: String(value),
        });
      }
    }
  }

  // Items stored before ingest events named their views: views shared across different pictures, or originals.
  if (unrecorded > 0 || recorded > 0) {
    for (const shared of await integrity.sharedViews()) {
      const what = shared.column === 'thumbnail_sha256' ? 'thumbnail' : 'blurred view';
      const already = problems.list.some((p) => p.code === 'view_pointer' && shared.ids.includes(p.id ?? ''));
      if (already) continue;
      problems.add({
        code: 'view_pointer',
        message: `evidence items ${shared.ids.join(', ')} share the ${what} ${shared.sha256} though their pictures differ (or it is an original): a pointer was aimed at another item`,
        table: 'evidence_items',
        id: shared.ids[0] as string,
        sha256: shared.sha256,
      });
    }
  }

  let recomputed = 0;
  if (options.recompute && options.decoder) {
    const limit = options.recompute === 'all' ? Number.POSITIVE_INFINITY : options.recompute;
    const pool = options.recompute === 'all' ? candidates : sample(candidates, limit);
    recomputed = await recompute(pool, blobs, options.decoder, options.maxPixels, problems);
    if (options.recompute !== 'all' && candidates.length > pool.length)
      notes.push(`PDQ and views re-derived for a sample of ${pool.length} of ${candidates.length} items`);
  } else if (unrecorded > 0) {
    notes.push(
      `${unrecorded} items were stored before ingest events named their views and PDQ: their views were checked for sharing only (re-derive them with --recompute)`,
    );
  }
  return { items, annotations, locations, recomputed };
}

function sample<T>(list: readonly T[], n: number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}

async function recompute(
  items: readonly {
    id: string;
    sha256: string;
    thumbnail: string | null;
    blurred: string | null;
    pdq: string | null;
  }[],
  blobs: BlobStore,
  decoder: ImageDecoder,
  maxPixels: number | undefined,
  problems: Problems,
): Promise<number> {
  const { deriveViews, defaultMaxPixels } = await import('../ingest/ingest.js');
  let done = 0;
  for (const item of items) {
    let bytes: Buffer;
    try {
      bytes = await readAll(await blobs.open(item.sha256));
    } catch {
      continue; // named blob_missing already
    }
    const outcome = await decoder.decode(bytes, { maxPixels: maxPixels ?? defaultMaxPixels });
    if (outcome.status !== 'decoded') continue;
    const derived = deriveViews(decoder, outcome.image);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    const found = {
      pdq: pdqToHex(derived.pdq.hash),
      thumbnail: sha(await derived.thumbnail),
      blurred: sha(derived.blurred),
    };
    for (const [what, stored, again] of [
      ['PDQ hash', item.pdq, found.pdq],
      ['thumbnail', item.thumbnail, found.thumbnail],
      ['blurred view', item.blurred, found.blurred],
    ] as const) {
      if (stored !== again) {
        problems.add({
          code: what === 'PDQ hash' ? 'derived_changed' : 'view_pointer',
          message: `evidence item ${item.id}: its ${what} is ${show(stored)}, but deriving it again from the original gives ${again} (after an upgrade of athar or libvips this can differ without tampering)`,
          table: 'evidence_items',
          id: item.id,
          expected: again,
          found: String(stored),
        });
      }
    }
    done++;
  }
  return done;
}

/** Every annotation against the `annotated` custody events (themselves covered by the log). */
async function verifyAnnotations(integrity: IntegrityRepository, problems: Problems): Promise<number> {
  const made = new Map<
    string,
    {
      event: string;
      evidence: string | null;
      kind: unknown;
      value: unknown;
      readFrom: unknown;
      record: unknown;
    }
  >();
  const linked = new Map<string, { event: string; record: unknown }>();
  for (const e of await integrity.annotationEvents()) {
    const d = details(e.details);
    const id = d.annotation;
    if (typeof id !== 'string') continue;
    if (has(d, 'value') && !made.has(id)) {
      made.set(id, {
        event: e.id,
        evidence: e.evidence_id,
        kind: d.kind,
        value: d.value,
        readFrom: d.read_from ?? null,
        record: d.record ?? null,
      });
      linked.set(id, { event: e.id, record: d.record ?? null });
    } else if (has(d, 'record')) {
      linked.set(id, { event: e.id, record: d.record ?? null });
    }
  }
  const seen = new Set<string>();
  let after = '';
  let count = 0;
  for (;;) {
    const rows = await integrity.annotationsPage(after, page);
    for (const a of rows) {
      count++;
      seen.add(a.id);
      const was = made.get(a.id);
      if (!was) {
        problems.add({
          code: 'annotation_unlogged',
          message: `annotation ${a.id} on evidence item ${a.evidence_id} (${a.kind}) has no custody event that made it: it was written by hand`,
          table: 'annotations',
          id: a.id,
          found: a.value,
        });
        continue;
      }
      const faults: string[] = [];
      if (a.evidence_id !== was.evidence) faults.push(`it is on item ${a.evidence_id}, not ${was.evidence}`);
      if (a.kind !== was.kind) faults.push(`its kind is ${show(a.kind)}, not ${show(was.kind)}`);
      if (a.value !== was.value) faults.push(`its value is ${show(a.value)}, not ${show(was.value)}`);
      if ((a.read_from ?? null) !== was.readFrom)
        faults.push(`it was read from ${show(a.read_from)}, not ${show(was.readFrom)}`);
      if (a.value_key !== annotationKey(a.kind, a.value))
        faults.push(
          `its search key ${show(a.value_key)} is not its value's (${show(annotationKey(a.kind, a.value))})`,
        );
      if (faults.length > 0) {
        problems.add({
          code: 'annotation_changed',
          message: `annotation ${a.id}: ${faults.join('; ')} as custody event ${was.event} recorded`,
          table: 'annotations',
          id: a.id,
          expected: String(was.value),
          found: a.value,
        });
      }
      const link = linked.get(a.id);
      if (link && (a.record_id ?? null) !== link.record) {
        problems.add({
          code: 'annotation_link',
          message: `annotation ${a.id} is linked to record ${show(a.record_id)}, but custody event ${link.event} linked it to ${show(link.record)}`,
          table: 'annotations',
          id: a.id,
          expected: String(link.record),
          found: String(a.record_id),
        });
      }
    }
    if (rows.length < page) break;
    after = (rows.at(-1) as { id: string }).id;
  }
  for (const [id, was] of made) {
    if (seen.has(id)) continue;
    problems.add({
      code: 'annotation_deleted',
      message: `annotation ${id} (${show(was.kind)} ${show(was.value)} on item ${was.evidence}), made by custody event ${was.event}, is no longer in the database`,
      table: 'annotations',
      id,
      expected: String(was.value),
      found: 'missing',
    });
  }
  return count;
}
