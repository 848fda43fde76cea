import fs from 'node:fs';
import { roleHas } from '../../access/policies.js';
import { FsBlobStore } from '../../blobs/fs-blob-store.js';
import { BagWriter } from '../../exchange/bag-writer.js';
import {
  type BundleDescription,
  type BundleProof,
  type BundleScope,
  bundleFormat,
  bundleFormatVersion,
  bundlePaths,
  contentDigest,
  type ExportDetails,
} from '../../exchange/bundle-layout.js';
import { bundleReadme } from '../../exchange/bundle-readme.js';
import { newId, nowIso } from '../../ids.js';
import { type CoveredTable, parseEntry } from '../../ledger/entries.js';
import { leafHash, sha256Hex } from '../../ledger/hash.js';
import { formatVerifierKey } from '../../ledger/note.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import { LedgerRepository } from '../../store/repositories/ledger.js';
import { slices } from '../../store/slices.js';
import { version } from '../../version.js';
import type { AppContext } from '../context.js';
import { recordCustodyEvents } from '../evidence/custody.js';
import { readLedgerKey } from '../ledger/key.js';
import { openLedger } from '../ledger/setup.js';
import { openBagSink, readChunks } from './bag-files.js';
import { BundleError, readScope, type ScopeRows } from './bundle-scope.js';

/**
 * Builds a court bundle (docs/exchange.md): a BagIt bag of one scope, provable offline against the log.
 * 1. Access is checked and the scope resolved before anything is written.
 * 2. Staged log entries are sequenced and a checkpoint signed, so every row in the bag has a proven entry.
 * 3. The content is written: originals streamed from the vault (re-hashed on the way), metadata, custody,
 *    registry rows, and each entry's inclusion proof against the earliest signed checkpoint that covers them all.
 * 4. The export is logged: one custody event `exported` per item (or one for the bundle when it has no items),
 *    whose details hold the content's digest; a new checkpoint is signed, and the bag gets the events, their
 *    proofs against it and a consistency proof from the first checkpoint to it.
 * 5. The tag files, and bagit.txt last.
 * The server's export requests (a reason, a second person's approval, expiry) will call the same function.
 */

export interface BundleActor {
  /** A user id, or `os:<login>` for the operator at the command line. */
  id: string;
  /** The user's role; `operator` for the command line's own user, who holds the data folder anyway. */
  role: string;
  /** For people: the username. */
  name: string;
}

export interface BundleRequest {
  scope: BundleScope;
  requester: BundleActor;
  approver?: BundleActor | null;
  reason?: string | null;
  /** A consent purpose; family reports' records go in only when their consent covers it. */
  purpose?: string;
  sourceOrganization?: string;
}

export interface BundleResult {
  id: string;
  location: string;
  items: number;
  graphic: number;
  payloadFiles: number;
  payloadBytes: number;
  entries: number;
  checkpointSize: number;
  latestSize: number;
  withheldRecords: number;
  contentSha256: string;
  exportEvents: string[];
}

/** What a requester must be allowed to read for a scope (docs/access.md). */
function neededPermissions(scope: BundleScope) {
  const evidence = ['evidence:read', 'evidence:original'] as const;
  return scope.kind === 'person'
    ? ([...evidence, 'records:read', 'persons:read', 'identifications:read'] as const)
    : evidence;
}

/** Refuses, before anything is built, a requester who may not read the scope or an approver who may not approve. */
export function checkBundleAccess(request: BundleRequest): void {
  const { requester, approver } = request;
  if (requester.role !== 'operator') {
    const missing = neededPermissions(request.scope).filter((p) => !roleHas(requester.role, p));
    if (missing.length > 0) {
      throw new BundleError(
        `${requester.name} (${requester.role}) may not read this scope: lacks ${missing.join(', ')}`,
        'forbidden',
      );
    }
  }
  if (approver) {
    if (approver.id === requester.id)
      throw new BundleError('the approver must be another person than the requester', 'forbidden');
    if (approver.role !== 'admin' && approver.role !== 'investigator') {
      throw new BundleError(
        `${approver.name} (${approver.role}) may not approve an export: only an admin or an investigator`,
        'forbidden',
      );
    }
  }
}

/** The covered tables each bag file names, with the rows: what the log's entries vouch for. */
function coveredRows(scope: ScopeRows): { table: CoveredTable; id: string; ledgerIndex?: number | null }[] {
  const out: { table: CoveredTable; id: string; ledgerIndex?: number | null }[] = [];
  const add = (table: CoveredTable, rows: Record<string, unknown>[]) => {
    for (const r of rows) out.push({ table, id: r.id as string });
  };
  for (const item of scope.items) {
    add('evidence_items', [item.item]);
    add('identifications', item.identifications);
    for (const e of item.custody)
      out.push({ table: 'custody_events', id: e.id, ledgerIndex: e.ledger_index });
  }
  if (scope.person) {
    add('records', scope.person.records);
    add('record_links', scope.person.links);
    add('identifications', scope.person.identifications);
    add('decisions', scope.person.decisions);
  }
  add('records', scope.records);
  return out;
}

const jsonText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function proofsFor(
  ctx: AppContext,
  log: ReturnType<typeof openLedger>['log'],
  indexes: readonly number[],
  size: number,
  root: string,
): Promise<BundleProof[]> {
  const out: BundleProof[] = [];
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  for (const part of slices(sorted, 500)) {
    const rows = await ctx.store.db
      .selectFrom('ledger_entries')
      .select(['idx', 'entry'])
      .where('idx', 'in', part)
      .execute();
    const byIdx = new Map(rows.map((r) => [Number(r.idx), r.entry]));
    for (const idx of part) {
      const entry = byIdx.get(idx);
      if (entry === undefined)
        throw new BundleError(`log entry ${idx} is missing (run athar verify)`, 'not_found');
      const path = await log.inclusionPath(idx, size);
      out.push({
        index: idx,
        size,
        entry,
        leafHash: Buffer.from(leafHash(Buffer.from(entry, 'utf8'))).toString('base64'),
        proof: path.map((h) => Buffer.from(h).toString('base64')),
        root,
      });
    }
  }
  return out;
}

/** An original's bytes: straight from the file, in large synchronous reads, when the vault is a folder. */
async function originalBytes(ctx: AppContext, sha256: string): Promise<AsyncIterable<Uint8Array>> {
  if (ctx.blobs instanceof FsBlobStore) {
    const file = ctx.blobs.pathOf(sha256);
    if (!fs.existsSync(file))
      throw new BundleError(
        `the original ${sha256} is missing from the vault (run athar verify)`,
        'not_found',
      );
    return (async function* () {
      yield* readChunks(file);
    })();
  }
  return ctx.blobs.open(sha256);
}

export async function createBundle(
  ctx: AppContext,
  request: BundleRequest,
  target: string,
  options: { onProgress?: (done: number, total: number) => void } = {},
): Promise<BundleResult> {
  checkBundleAccess(request);
  const purpose = request.purpose ?? 'criminal_proceedings';
  const ledger = openLedger(ctx);
  await ledger.sequencer.publish();
  const scope = await ctx.store.db.transaction().execute((trx) => readScope(trx, request.scope, purpose));
  if (scope.items.length === 0 && !scope.person)
    throw new BundleError('the scope holds no evidence items', 'empty');

  // Which entry vouches for each covered row (its latest), and the earliest checkpoint that covers them all.
  const rows = coveredRows(scope);
  const repo = new LedgerRepository(ctx.store.db, ctx.store.capabilities);
  const indexes = new Set<number>();
  const unlogged: { table: string; id: string }[] = [];
  const byTable = new Map<CoveredTable, string[]>();
  for (const r of rows) byTable.set(r.table, [...(byTable.get(r.table) ?? []), r.id]);
  for (const [table, ids] of byTable) {
    const found = new Map((await repo.rowsFor(table, [...new Set(ids)])).map((v) => [v.row_id, v.idx]));
    for (const id of new Set(ids)) {
      const idx = found.get(id);
      if (idx === undefined) unlogged.push({ table, id });
      else indexes.add(idx);
    }
  }
  for (const r of rows) if (r.ledgerIndex != null) indexes.add(r.ledgerIndex);
  const maxIndex = Math.max(-1, ...indexes);
  const checkpoints = await repo.checkpoints();
  const proofCheckpoint = checkpoints.find((c) => c.size > maxIndex);
  if (!proofCheckpoint)
    throw new BundleError('no signed checkpoint covers the scope (run athar ledger checkpoint)', 'not_found');

  const id = newId();
  const createdAt = nowIso(ctx.clock);
  const vkey = formatVerifierKey(readLedgerKey(ctx.config));
  const sink = await openBagSink(target);
  const bag = new BagWriter(sink);
  try {
    const items = scope.items.map(({ item }) => ({
      id: item.id,
      sha256: item.sha256,
      mediaType: item.media_type,
      sizeBytes: Number(item.size_bytes),
      graphic: item.graphic === 1,
      originalName: item.original_name,
    }));
    let done = 0;
    for (const rowsOfItem of scope.items) {
      const { item } = rowsOfItem;
      await bag.addPayload(bundlePaths.original(item.sha256), await originalBytes(ctx, item.sha256), {
        expectedSha256: item.sha256,
      });
      let exif: unknown = null;
      try {
        exif = typeof item.metadata === 'string' ? JSON.parse(item.metadata) : null;
      } catch {
        exif = null;
      }
      await bag.addPayload(
        bundlePaths.item(item.sha256),
        jsonText({
          sha256: item.sha256,
          graphic: item.graphic === 1,
          pdq: item.pdq,
          exif,
          evidence_items: [item],
          annotations: rowsOfItem.annotations,
          body_labels: rowsOfItem.bodyLabels,
          bodies: rowsOfItem.bodies,
          identifications: rowsOfItem.identifications,
          record_ids: [...new Set(rowsOfItem.annotations.flatMap((a) => (a.record_id ? [a.record_id] : [])))],
          evidence_locations: rowsOfItem.locations,
        }),
      );
      await bag.addPayload(
        bundlePaths.custody(item.sha256),
        jsonText({ sha256: item.sha256, custody_events: rowsOfItem.custody }),
      );
      options.onProgress?.(++done, scope.items.length);
    }
    if (scope.person) {
      const p = scope.person;
      await bag.addPayload(
        bundlePaths.person(p.person.id as string),
        jsonText({
          persons: [p.person],
          records: p.records,
          record_links: p.links,
          events: p.events,
          assertions: p.assertions,
          relations: p.relations,
          identifications: p.identifications,
          decisions: p.decisions,
        }),
      );
    }
    if (scope.records.length > 0)
      await bag.addPayload(bundlePaths.records, jsonText({ records: scope.records }));
    const graphicList = items
      .filter((i) => i.graphic)
      .map((i) => `${i.sha256}\n`)
      .join('');
    await bag.addPayload(bundlePaths.graphic, graphicList);

    const proofs = await proofsFor(ctx, ledger.log, [...indexes], proofCheckpoint.size, proofCheckpoint.root);
    await bag.addPayload(bundlePaths.proofs, proofs.map((p) => `${JSON.stringify(p)}\n`).join(''));
    await bag.addPayload(bundlePaths.checkpoint, proofCheckpoint.note);
    await bag.addPayload(bundlePaths.verifierKey, `${vkey}\n`);
    const origin = vkey.split('+')[0] as string;
    const description: BundleDescription = {
      format: bundleFormat,
      version: bundleFormatVersion,
      id,
      createdAt,
      atharVersion: version,
      sourceOrganization: request.sourceOrganization ?? origin,
      scope: request.scope,
      purpose,
      requester: request.requester.name,
      approver: request.approver?.name ?? null,
      reason: request.reason ?? null,
      items,
      withheldRecords: scope.withheldRecords,
      unlogged,
      log: { origin, checkpointSize: proofCheckpoint.size, entries: proofs.length },
    };
    await bag.addPayload(bundlePaths.bundle, jsonText(description));

    // The export, logged with the content's digest; then a checkpoint over it.
    const content = contentDigest(bag.payloadLines(), sha256Hex);
    const details: ExportDetails = {
      bundle: id,
      content_sha256: content,
      payload_files: bag.payloadLines().length,
      payload_bytes: bag.payloadBytes,
      scope: request.scope,
      purpose,
      requester: request.requester.name,
      approver: request.approver?.name ?? null,
    };
    const exported = await ctx.store.transaction(async (trx) => {
      const at = nowIso(ctx.clock);
      const events = await recordCustodyEvents(
        trx,
        (items.length > 0 ? items.map((i) => i.id) : [null]).map((evidenceId) => ({
          evidenceId,
          kind: 'exported' as const,
          actor: request.requester.id,
          at,
          reason: request.reason ?? `court bundle ${id}`,
          details: details as unknown as Record<string, unknown>,
        })),
      );
      await new AuditRepository(trx).append(
        {
          actorId: request.requester.id.startsWith('os:') ? null : request.requester.id,
          actorRole: request.requester.role,
          action: 'bundle.created',
          subjectType: request.scope.kind,
          subjectId:
            request.scope.kind === 'person'
              ? request.scope.personId
              : request.scope.kind === 'ingest_run'
                ? request.scope.ingestRunId
                : null,
          details: {
            bundle: id,
            content_sha256: content,
            items: items.length,
            approver: request.approver?.name ?? null,
          },
        },
        at,
      );
      return events;
    });
    const latest = await ledger.sequencer.publish();
    const eventRows = await ctx.store.db
      .selectFrom('custody_events')
      .selectAll()
      .where(
        'id',
        'in',
        exported.map((e) => e.id),
      )
      .orderBy('id')
      .execute();
    const exportIndexes = eventRows.map((r) => Number(r.ledger_index));
    if (exportIndexes.some((i) => !Number.isSafeInteger(i)))
      throw new BundleError('the export events were not sequenced', 'not_found');
    const exportProofs = await proofsFor(ctx, ledger.log, exportIndexes, latest.size, latest.root);
    for (const p of exportProofs) {
      const parsed = parseEntry(p.entry);
      if (!parsed.ok || parsed.entry.kind !== 'custody.exported')
        throw new BundleError(`entry ${p.index} is not an export event`, 'not_found');
    }
    const consistency = await ledger.log.consistencyProof(proofCheckpoint.size, latest.size);
    await bag.addPayload(
      bundlePaths.exportEvents,
      jsonText({
        bundle: id,
        custody_events: eventRows.map((r) => ({ ...r, ledger_index: Number(r.ledger_index) })),
      }),
    );
    await bag.addPayload(
      bundlePaths.exportProofs,
      exportProofs.map((p) => `${JSON.stringify(p)}\n`).join(''),
    );
    await bag.addPayload(bundlePaths.latestCheckpoint, latest.note);
    await bag.addPayload(
      bundlePaths.consistency,
      jsonText({
        from: consistency.from,
        to: consistency.to,
        fromRoot: consistency.fromRoot,
        toRoot: consistency.toRoot,
        proof: consistency.proof,
      }),
    );
    const payloadFiles = bag.payloadLines().length;
    const payloadBytes = bag.payloadBytes;
    await bag.finish(
      [
        { label: 'Source-Organization', value: description.sourceOrganization },
        { label: 'Bagging-Date', value: createdAt.slice(0, 10) },
        { label: 'External-Identifier', value: id },
        {
          label: 'External-Description',
          value: `athar court bundle of ${request.scope.kind.replace('_', ' ')}; purpose ${purpose}`,
        },
        { label: 'Internal-Sender-Identifier', value: `athar ${version}` },
        { label: 'Requester', value: request.requester.name },
        { label: 'Approver', value: request.approver?.name ?? '(none: command line)' },
        ...(request.reason ? [{ label: 'Reason', value: request.reason }] : []),
        { label: 'Content-SHA256', value: content },
      ],
      [{ path: 'README.txt', content: bundleReadme(description, vkey) }],
    );
    return {
      id,
      location: sink.location,
      items: items.length,
      graphic: items.filter((i) => i.graphic).length,
      payloadFiles,
      payloadBytes,
      entries: proofs.length,
      checkpointSize: proofCheckpoint.size,
      latestSize: latest.size,
      withheldRecords: scope.withheldRecords,
      contentSha256: content,
      exportEvents: exported.map((e) => e.id),
    };
  } catch (error) {
    await sink.abort().catch(() => {});
    throw error;
  }
}

export { BundleError };
