import { Readable } from 'node:stream';
import { type Caller, can, type SignedIn } from '../../access/caller.js';
import { readAll } from '../../blobs/index.js';
import { DomainError } from '../../domain/errors.js';
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
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import type { BodyLabels, EvidenceBodyLabels } from './body-labels.js';
import { recordCustody } from './custody.js';
import type { EvidenceCatalogue, ViewStream } from './evidence.js';
import type { GrantCheck, RevealGrants } from './reveal-grants.js';

/**
 * Evidence as staff see it: pages, the item page, thumbnails (blurred when graphic), and — with permission and a
 * reason, each a custody event and an audit row — the unblurred view and the original bytes.
 */
export class EvidenceAccess {
  constructor(
    private readonly ctx: AppContext,
    private readonly deps: {
      catalogue: EvidenceCatalogue;
      bodyLabels: BodyLabels;
      grants: RevealGrants;
      audit: AuditService;
    },
  ) {}

  /** Whether a reveal grant lets this caller load this item's unblurred view now. */
  checkGrant(grant: string, id: string, viewer: SignedIn): GrantCheck {
    return this.deps.grants.check(grant, id, viewer.actor.userId, this.ctx.clock());
  }

  async list(filter: EvidenceFilter): Promise<{ items: EvidenceListRow[]; nextCursor?: string }> {
    const items = await new EvidenceCatalogueRepository(this.ctx.store.db).list({
      ...filter,
      limit: filter.limit + 1,
    });
    const page = items.slice(0, filter.limit);
    return items.length > filter.limit
      ? { items: page, nextCursor: page[page.length - 1]?.id }
      : { items: page };
  }

  /**
   * Everything the evidence page shows about one item. Reading it shows no pixels, so it is no custody event; a
   * caller who may read its provenance (who gave it, where it was found) is audited for the read
   * (`evidence_provenance_read`), since the presenter shows them those fields.
   */
  async view(id: string, caller: Caller): Promise<EvidenceView> {
    const repo = new EvidenceRepository(this.ctx.store.db);
    const item = await repo.get(id);
    if (!item) throw new DomainError('not_found', `no evidence item ${id}`);
    const custody = await new CustodyRepository(this.ctx.store.db).listForEvidence(id);
    const checkpoint = await new LedgerRepository(
      this.ctx.store.db,
      this.ctx.store.capabilities,
    ).latestCheckpoint();
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
    if (can(caller, 'evidence:provenance')) {
      await this.deps.audit.record(caller, {
        action: 'evidence_provenance_read',
        subjectType: 'evidence',
        subjectId: id,
      });
    }
    return {
      item,
      annotations: await new AnnotationRepository(this.ctx.store.db).listForEvidence(id),
      bodyLabels: await this.deps.bodyLabels.of(id),
      custody: custody.map((c) => ({ ...c, included: covered(c.ledgerIndex) })),
      log: { index: first, included: covered(first), checkpointSize: checkpoint?.size ?? null },
      locations: await repo.locations(id),
      nearDuplicates,
    };
  }

  /** The item with this id (routes name items by id only; the CLI also takes SHA-256 prefixes). */
  async require(id: string): Promise<EvidenceItem> {
    const item = await new EvidenceRepository(this.ctx.store.db).get(id);
    if (!item) throw new DomainError('not_found', `no evidence item ${id}`);
    return item;
  }

  /**
   * The thumbnail anyone allowed to read the item sees: the blurred view when the item is graphic (the default),
   * the plain thumbnail only for items someone marked as not graphic. Not a custody event.
   */
  async thumbnail(id: string): Promise<ViewStream> {
    const item = await this.require(id);
    if (item.graphic) return this.deps.catalogue.blurredView(item.id);
    if (!item.thumbnailSha256) throw new DomainError('conflict', `item ${id} has no thumbnail`);
    return this.openBytes(item.thumbnailSha256);
  }

  private async openBytes(sha256: string): Promise<ViewStream> {
    const bytes = await readAll(await this.ctx.blobs.open(sha256));
    const png = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    return {
      stream: Readable.from([bytes]),
      mediaType: png ? 'image/png' : 'image/jpeg',
      sha256,
      size: bytes.length,
    };
  }

  /**
   * Reveals the unblurred view to one user: the custody event `viewed_unblurred` (with the reason; it also goes to
   * the log) and the audit row commit together, then a short-lived grant lets that user's browser load the view.
   */
  async reveal(
    id: string,
    viewer: SignedIn,
    reason: string,
  ): Promise<{ grant: string; expiresAt: string; custodyEventId: string }> {
    const why = requireReason(reason);
    const item = await this.require(id);
    if (!item.thumbnailSha256) throw new DomainError('conflict', `item ${id} has no view to reveal`);
    const now = this.ctx.clock();
    const issued = this.deps.grants.issue(item.id, viewer.actor.userId, now);
    const event = await this.ctx.store.transaction(async (trx) => {
      const at = nowIso(() => now);
      const recorded = await recordCustody(trx, {
        evidenceId: item.id,
        kind: 'viewed_unblurred',
        actor: viewer.actor.userId,
        at,
        reason: why,
        details: { view: 'thumbnail', sha256: item.thumbnailSha256, until: issued.expiresAt },
      });
      await new AuditRepository(trx).append(
        {
          actorId: viewer.actor.userId,
          actorRole: viewer.actor.role,
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
  async revealedView(id: string): Promise<ViewStream> {
    const item = await this.require(id);
    if (!item.thumbnailSha256) throw new DomainError('conflict', `item ${id} has no view to reveal`);
    return this.openBytes(item.thumbnailSha256);
  }

  /**
   * The original bytes, as stored: the custody event `viewed_original` (with the reason) and the audit row commit
   * before any byte is handed out.
   */
  async original(
    id: string,
    viewer: SignedIn,
    reason: string | undefined,
  ): Promise<ViewStream & { name: string | null }> {
    const why = requireReason(reason);
    const item = await this.require(id);
    await this.ctx.store.transaction(async (trx) => {
      const at = nowIso(() => this.ctx.clock());
      const recorded = await recordCustody(trx, {
        evidenceId: item.id,
        kind: 'viewed_original',
        actor: viewer.actor.userId,
        at,
        reason: why,
        details: { sha256: item.sha256 },
      });
      await new AuditRepository(trx).append(
        {
          actorId: viewer.actor.userId,
          actorRole: viewer.actor.role,
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
      stream: await this.ctx.blobs.open(item.sha256),
      mediaType: item.mediaType,
      sha256: item.sha256,
      size: await this.ctx.blobs.size(item.sha256),
      name: item.originalName,
    };
  }
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

function requireReason(reason: string | undefined): string {
  const text = reason?.trim() ?? '';
  if (text.length < 3)
    throw new DomainError('invalid', 'reason: say why you need to see it (3 characters or more)', {
      field: 'reason',
    });
  return text;
}
