import { Readable } from 'node:stream';
import { readAll } from '../../blobs/index.js';
import { hammingDistanceHex } from '../../evidence/hamming.js';
import { nowIso } from '../../ids.js';
import { AnnotationRepository } from '../../store/repositories/annotations.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import { CustodyRepository } from '../../store/repositories/custody.js';
import { type EvidenceItem, EvidenceRepository } from '../../store/repositories/evidence.js';
import {
  EvidenceCatalogueRepository,
  type EvidenceFilter,
  type EvidenceListRow,
} from '../../store/repositories/evidence-catalogue.js';
import { LedgerRepository } from '../../store/repositories/ledger.js';
import type { AppContext } from '../context.js';
import { bodyLabelsOf, type EvidenceBodyLabels } from './body-labels.js';
import { recordCustody } from './custody.js';
import { EvidenceError, openBlurredView, type ViewStream } from './evidence.js';
import type { RevealGrants } from './reveal-grants.js';

/** Who acts, as the audit log records them (the HTTP layer passes its request's actor and address). */
export interface Viewer {
  userId: string;
  role: string;
  ip: string | null;
}

export async function listEvidence(
  ctx: AppContext,
  filter: EvidenceFilter,
): Promise<{ items: EvidenceListRow[]; nextCursor?: string }> {
  const items = await new EvidenceCatalogueRepository(ctx.store.db).list({
    ...filter,
    limit: filter.limit + 1,
  });
  const page = items.slice(0, filter.limit);
  return items.length > filter.limit
    ? { items: page, nextCursor: page[page.length - 1]?.id }
    : { items: page };
}

export interface EvidenceView {
  item: EvidenceItem;
  annotations: Awaited<ReturnType<AnnotationRepository['listForEvidence']>>;
  bodyLabels: EvidenceBodyLabels[];
  custody: (Awaited<ReturnType<CustodyRepository['listForEvidence']>>[number] & { included: boolean })[];
  /** The item's place in the log: its first logged custody event (the ingest), and whether a checkpoint covers it. */
  log: { index: number | null; included: boolean; checkpointSize: number | null };
  locations: Awaited<ReturnType<EvidenceRepository['locations']>>;
  nearDuplicates: { item: EvidenceItem; distance: number | null }[];
}

/** Everything the evidence page shows about one item. Reading it shows no pixels, so it is no custody event. */
export async function viewEvidence(ctx: AppContext, id: string): Promise<EvidenceView> {
  const repo = new EvidenceRepository(ctx.store.db);
  const item = await repo.get(id);
  if (!item) throw new EvidenceError(`no evidence item ${id}`, 'not_found');
  const custody = await new CustodyRepository(ctx.store.db).listForEvidence(id);
  const checkpoint = await new LedgerRepository(ctx.store.db, ctx.store.capabilities).latestCheckpoint();
  const covered = (index: number | null) =>
    index !== null && checkpoint !== undefined && index < checkpoint.size;
  const logged = custody.filter((c) => c.ledgerIndex !== null);
  const first = logged.length > 0 ? Math.min(...logged.map((c) => c.ledgerIndex as number)) : null;
  const group = await repo.group(id);
  let nearDuplicates: EvidenceView['nearDuplicates'] = [];
  if (group) {
    const members = (await repo.groupMembers(group.groupId)).filter((m) => m.evidenceId !== id);
    const items = await repo.getMany(members.map((m) => m.evidenceId));
    nearDuplicates = items
      .map((other) => ({
        item: other,
        distance: item.pdq && other.pdq ? (hammingDistanceHex(item.pdq, other.pdq) ?? null) : null,
      }))
      .sort((a, b) => (a.distance ?? 257) - (b.distance ?? 257) || a.item.id.localeCompare(b.item.id));
  }
  return {
    item,
    annotations: await new AnnotationRepository(ctx.store.db).listForEvidence(id),
    bodyLabels: await bodyLabelsOf(ctx, id),
    custody: custody.map((c) => ({ ...c, included: covered(c.ledgerIndex) })),
    log: { index: first, included: covered(first), checkpointSize: checkpoint?.size ?? null },
    locations: await repo.locations(id),
    nearDuplicates,
  };
}

/** The item with this id (routes name items by id only; the CLI also takes SHA-256 prefixes). */
export async function requireEvidence(ctx: AppContext, id: string): Promise<EvidenceItem> {
  return requireItem(ctx, id);
}

async function requireItem(ctx: AppContext, id: string): Promise<EvidenceItem> {
  const item = await new EvidenceRepository(ctx.store.db).get(id);
  if (!item) throw new EvidenceError(`no evidence item ${id}`, 'not_found');
  return item;
}

/**
 * The thumbnail anyone allowed to read the item sees: the blurred view when the item is graphic (the default),
 * the plain thumbnail only for items someone marked as not graphic. Not a custody event.
 */
export async function openThumbnail(ctx: AppContext, id: string): Promise<ViewStream> {
  const item = await requireItem(ctx, id);
  if (item.graphic) return openBlurredView(ctx, item.id);
  if (!item.thumbnailSha256) throw new EvidenceError(`item ${id} has no thumbnail`, 'no_view');
  return openBytes(ctx, item.thumbnailSha256);
}

async function openBytes(ctx: AppContext, sha256: string): Promise<ViewStream> {
  const bytes = await readAll(await ctx.blobs.open(sha256));
  const png = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  return {
    stream: Readable.from([bytes]),
    mediaType: png ? 'image/png' : 'image/jpeg',
    sha256,
    size: bytes.length,
  };
}

function requireReason(reason: string | undefined): string {
  const text = reason?.trim() ?? '';
  if (text.length < 3)
    throw new EvidenceError('reason: say why you need to see it (3 characters or more)', 'reason_required');
  return text;
}

/**
 * Reveals the unblurred view to one user: the custody event `viewed_unblurred` (with the reason; it also goes to
 * the log) and the audit row commit together, then a short-lived grant lets that user's browser load the view.
 */
export async function revealEvidence(
  ctx: AppContext,
  grants: RevealGrants,
  id: string,
  viewer: Viewer,
  reason: string,
): Promise<{ grant: string; expiresAt: string; custodyEventId: string }> {
  const why = requireReason(reason);
  const item = await requireItem(ctx, id);
  if (!item.thumbnailSha256) throw new EvidenceError(`item ${id} has no view to reveal`, 'no_view');
  const now = ctx.clock();
  const issued = grants.issue(item.id, viewer.userId, now);
  const event = await ctx.store.transaction(async (trx) => {
    const at = nowIso(() => now);
    const recorded = await recordCustody(trx, {
      evidenceId: item.id,
      kind: 'viewed_unblurred',
      actor: viewer.userId,
      at,
      reason: why,
      details: { view: 'thumbnail', sha256: item.thumbnailSha256, until: issued.expiresAt },
    });
    await new AuditRepository(trx).append(
      {
        actorId: viewer.userId,
        actorRole: viewer.role,
        action: 'evidence.revealed',
        subjectType: 'evidence_item',
        subjectId: item.id,
        details: { custodyEvent: recorded.id, expiresAt: issued.expiresAt },
        ip: viewer.ip,
      },
      at,
    );
    return recorded;
  });
  return { ...issued, custodyEventId: event.id };
}

/** The unblurred view a grant was issued for (the reveal already recorded the viewing). */
export async function openRevealedView(ctx: AppContext, id: string): Promise<ViewStream> {
  const item = await requireItem(ctx, id);
  if (!item.thumbnailSha256) throw new EvidenceError(`item ${id} has no view to reveal`, 'no_view');
  return openBytes(ctx, item.thumbnailSha256);
}

/**
 * The original bytes, as stored: the custody event `viewed_original` (with the reason) and the audit row commit
 * before any byte is handed out.
 */
export async function openOriginalFor(
  ctx: AppContext,
  id: string,
  viewer: Viewer,
  reason: string | undefined,
): Promise<ViewStream & { name: string | null }> {
  const why = requireReason(reason);
  const item = await requireItem(ctx, id);
  await ctx.store.transaction(async (trx) => {
    const at = nowIso(ctx.clock);
    const recorded = await recordCustody(trx, {
      evidenceId: item.id,
      kind: 'viewed_original',
      actor: viewer.userId,
      at,
      reason: why,
      details: { sha256: item.sha256 },
    });
    await new AuditRepository(trx).append(
      {
        actorId: viewer.userId,
        actorRole: viewer.role,
        action: 'evidence.original_read',
        subjectType: 'evidence_item',
        subjectId: item.id,
        details: { custodyEvent: recorded.id },
        ip: viewer.ip,
      },
      at,
    );
  });
  return {
    stream: await ctx.blobs.open(item.sha256),
    mediaType: item.mediaType,
    sha256: item.sha256,
    size: await ctx.blobs.size(item.sha256),
    name: item.originalName,
  };
}
