import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { SignedIn } from '../../access/caller.js';
import { type Permission, roleHas } from '../../access/policies.js';
import { type ConsentPurpose, consentPurposes } from '../../domain/consent.js';
import { DomainError } from '../../domain/errors.js';
import type { BundleScope } from '../../exchange/bundle-layout.js';
import type { ExportFormat, ExportKind } from '../../exchange/export-formats.js';
import { newId, nowIso } from '../../ids.js';
import { ExportRequestRepository, type ExportRequestRow } from '../../store/repositories/export-requests.js';
import { UserRepository } from '../../store/repositories/users.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import { recordCustody } from '../evidence/custody.js';
import { createBundle } from './bundle-build.js';
import { scopeEvidenceIds } from './bundle-scope.js';
import { exportData } from './export.js';

export type ExportWhat =
  | { kind: 'bundle'; scope: BundleScope }
  | { kind: 'export'; what: ExportKind; format: ExportFormat };

export interface ExportRequestView {
  id: string;
  kind: 'bundle' | 'export';
  scope: ExportWhat;
  purpose: string;
  reason: string;
  status: string;
  requestedBy: string;
  /** The requester's and decider's names, for the people deciding (an id says nothing to a colleague). */
  requestedByName?: string | null;
  requestedAt: string;
  decidedBy: string | null;
  decidedByName?: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
  fileName: string | null;
  fileSha256: string | null;
  fileBytes: number | null;
  readyAt: string | null;
  expiresAt: string | null;
  fetchedAt: string | null;
  failure: string | null;
}

/** What a requester must be allowed to read for each kind of request (docs/access.md). */
function needed(what: ExportWhat): Permission[] {
  if (what.kind === 'bundle') {
    const evidence: Permission[] = ['evidence:read', 'evidence:original'];
    return what.scope.kind === 'person'
      ? [...evidence, 'records:read', 'persons:read', 'identifications:read']
      : evidence;
  }
  return what.what === 'evidence' ? ['evidence:read'] : ['records:read', 'persons:read'];
}

function present(row: ExportRequestRow): ExportRequestView {
  return {
    id: row.id,
    kind: row.kind as 'bundle' | 'export',
    scope: JSON.parse(row.scope) as ExportWhat,
    purpose: row.purpose,
    reason: row.reason,
    status: row.status,
    requestedBy: row.requested_by,
    requestedAt: row.requested_at,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    decisionNote: row.decision_note,
    fileName: row.file_name,
    fileSha256: row.file_sha256,
    fileBytes: row.file_bytes,
    readyAt: row.ready_at,
    expiresAt: row.expires_at,
    fetchedAt: row.fetched_at,
    failure: row.failure,
  };
}

/**
 * Export requests (docs/exchange.md, design.md "Exports"): nothing leaves athar on one person's word. An
 * investigator asks, with a reason, for a court bundle of a scope or an export of the registry; a second person — an
 * admin or another investigator, never the requester — approves or refuses; the file is built once approved (the
 * requester's access checked again), can be fetched by the requester until it expires (checked again), and is then
 * removed. Every step is an audit row; the bundle's build and its fetch are custody events of what it holds.
 */
export class ExportRequestService {
  private readonly building = new Set<Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly deps: { audit: AuditService },
  ) {}

  private repo(): ExportRequestRepository {
    return new ExportRequestRepository(this.ctx.store.db);
  }

  private now(): string {
    return nowIso(this.ctx.clock);
  }

  /** The requester's current role may read what the request holds; refused (forbidden) otherwise. */
  private async mayRead(userId: string, what: ExportWhat): Promise<void> {
    const user = await new UserRepository(this.ctx.store.db).findById(userId);
    if (!user || user.disabled)
      throw new DomainError('forbidden', 'the requester no longer has an active account');
    const missing = needed(what).filter((p) => !roleHas(user.role, p));
    if (missing.length > 0) {
      throw new DomainError(
        'forbidden',
        `a ${user.role} may not read what this export holds: lacks ${missing.join(', ')}`,
      );
    }
  }

  async request(
    input: { what: ExportWhat; purpose: string; reason: string },
    caller: SignedIn,
  ): Promise<ExportRequestView> {
    const reason = input.reason.trim();
    if (reason.length < 10) {
      throw new DomainError('invalid', 'say what the export is for (10 characters or more)', {
        field: 'reason',
      });
    }
    if (!(consentPurposes as readonly string[]).includes(input.purpose)) {
      throw new DomainError('invalid', `purpose must be one of ${consentPurposes.join(', ')}`, {
        field: 'purpose',
      });
    }
    await this.mayRead(caller.actor.userId, input.what);
    if (input.what.kind === 'bundle') {
      // Refused before anything is built: a scope that names nothing the archive holds.
      const ids = await scopeEvidenceIds(this.ctx.store.db, input.what.scope);
      if (ids.length === 0 && input.what.scope.kind !== 'person') {
        throw new DomainError('invalid', 'the scope holds no evidence items', { field: 'scope' });
      }
    }
    const row: ExportRequestRow = {
      id: newId(),
      kind: input.what.kind,
      scope: JSON.stringify(input.what),
      purpose: input.purpose,
      reason,
      status: 'requested',
      requested_by: caller.actor.userId,
      requested_at: this.now(),
      decided_by: null,
      decided_at: null,
      decision_note: null,
      file_name: null,
      file_sha256: null,
      file_bytes: null,
      ready_at: null,
      expires_at: null,
      fetched_at: null,
      failure: null,
    };
    await this.repo().insert(row);
    await this.deps.audit.record(caller, {
      action: 'export.requested',
      subjectType: 'export_request',
      subjectId: row.id,
      details: { kind: row.kind, purpose: row.purpose },
    });
    return present(row);
  }

  /** A second person approves (the file is then built) or refuses; never the requester. */
  async decide(
    id: string,
    approve: boolean,
    note: string | null,
    caller: SignedIn,
  ): Promise<ExportRequestView> {
    const row = await this.repo().get(id);
    if (!row) throw new DomainError('not_found', `no export request ${id}`);
    if (row.requested_by === caller.actor.userId) {
      throw new DomainError(
        'forbidden',
        'an export is approved by another person than the one who asked for it',
      );
    }
    const at = this.now();
    const moved = await this.repo().advance(id, ['requested'], {
      status: approve ? 'approved' : 'refused',
      decided_by: caller.actor.userId,
      decided_at: at,
      decision_note: note?.trim() || null,
    });
    if (!moved)
      throw new DomainError('conflict', `export request ${id} is ${row.status}, not awaiting a decision`);
    await this.deps.audit.record(caller, {
      action: approve ? 'export.approved' : 'export.refused',
      subjectType: 'export_request',
      subjectId: id,
    });
    if (approve) this.startBuild(id);
    return present((await this.repo().get(id)) as ExportRequestRow);
  }

  private startBuild(id: string): void {
    const work = this.build(id).catch(() => {});
    this.building.add(work);
    void work.finally(() => this.building.delete(work));
  }

  /** Waits for the files being built (a server closing, a test). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.building]);
  }

  /** Builds an approved request's file: the requester's access checked again first. */
  async build(id: string): Promise<void> {
    const repo = this.repo();
    if (!(await repo.advance(id, ['approved'], { status: 'building' }))) return;
    const row = (await repo.get(id)) as ExportRequestRow;
    const what = JSON.parse(row.scope) as ExportWhat;
    const system = { actor: null, ip: null, channel: 'http' as const };
    try {
      await this.mayRead(row.requested_by, what);
      fs.mkdirSync(this.ctx.config.exports.dir, { recursive: true, mode: 0o700 });
      const users = new UserRepository(this.ctx.store.db);
      const requester = await users.findById(row.requested_by);
      const approver = row.decided_by ? await users.findById(row.decided_by) : undefined;
      let file: string;
      if (what.kind === 'bundle') {
        file = path.join(this.ctx.config.exports.dir, `${id}.zip`);
        await createBundle(
          this.ctx,
          {
            scope: what.scope,
            requester: { id: row.requested_by, role: requester?.role ?? '', name: requester?.username ?? '' },
            approver: approver ? { id: approver.id, role: approver.role, name: approver.username } : null,
            reason: row.reason,
            purpose: row.purpose,
          },
          file,
        );
      } else {
        file = path.join(
          this.ctx.config.exports.dir,
          `${id}.${what.format === 'pfif' ? 'xml' : what.format}`,
        );
        await exportData(this.ctx, {
          kind: what.what,
          format: what.format,
          out: file,
          purpose: row.purpose as ConsentPurpose,
        });
      }
      const { sha256, bytes } = await digest(file);
      const at = this.now();
      await repo.advance(id, ['building'], {
        status: 'ready',
        file_name: path.basename(file),
        file_sha256: sha256,
        file_bytes: bytes,
        ready_at: at,
        expires_at: new Date(Date.parse(at) + this.ctx.config.exports.hours * 3600_000).toISOString(),
      });
      await this.deps.audit.record(system, {
        action: 'export.ready',
        subjectType: 'export_request',
        subjectId: id,
        details: { sha256, bytes },
      });
    } catch (error) {
      await repo.advance(id, ['building'], {
        status: 'failed',
        failure: (error as Error).message.slice(0, 500),
      });
      await this.deps.audit.record(system, {
        action: 'export.failed',
        subjectType: 'export_request',
        subjectId: id,
      });
    }
  }

  /** The requester fetches the file, until it expires; their access is checked again, and the handing over logged. */
  async fetch(
    id: string,
    caller: SignedIn,
  ): Promise<{ stream: Readable; name: string; bytes: number; sha256: string; mediaType: string }> {
    const row = await this.repo().get(id);
    if (!row || row.requested_by !== caller.actor.userId)
      throw new DomainError('not_found', `no export request ${id} of yours`);
    if (row.status !== 'ready' || !row.file_name) {
      throw new DomainError('conflict', `export request ${id} is ${row.status}: there is no file to fetch`);
    }
    if (row.expires_at && row.expires_at < this.now()) {
      await this.expire();
      throw new DomainError('conflict', `export request ${id} expired at ${row.expires_at}`);
    }
    await this.mayRead(row.requested_by, JSON.parse(row.scope) as ExportWhat);
    const file = path.join(this.ctx.config.exports.dir, row.file_name);
    const at = this.now();
    await this.ctx.store.transaction(async (trx) => {
      await recordCustody(trx, {
        evidenceId: null,
        kind: 'transferred',
        actor: caller.actor.userId,
        reason: row.reason,
        at,
        details: { export_request: id, sha256: row.file_sha256, to: caller.actor.userId },
      });
    });
    await this.repo().advance(id, ['ready'], { fetched_at: at });
    await this.deps.audit.record(caller, {
      action: 'export.fetched',
      subjectType: 'export_request',
      subjectId: id,
    });
    return {
      stream: fs.createReadStream(file),
      name: row.file_name,
      bytes: row.file_bytes ?? fs.statSync(file).size,
      sha256: row.file_sha256 ?? '',
      mediaType: row.file_name.endsWith('.zip')
        ? 'application/zip'
        : row.file_name.endsWith('.json')
          ? 'application/json'
          : row.file_name.endsWith('.xml')
            ? 'application/xml'
            : 'text/csv',
    };
  }

  /** Removes the files of requests past their time (called before reads; cheap when there are none). */
  async expire(): Promise<number> {
    const due = await this.repo().expiredBy(this.now());
    for (const row of due) {
      if (row.file_name) fs.rmSync(path.join(this.ctx.config.exports.dir, row.file_name), { force: true });
      await this.repo().advance(row.id, ['ready'], { status: 'expired' });
      await this.deps.audit.record(
        { actor: null, ip: null, channel: 'http' },
        { action: 'export.expired', subjectType: 'export_request', subjectId: row.id },
      );
    }
    return due.length;
  }

  /** The caller's own requests, and those awaiting a decision they may make (never their own). */
  async list(caller: SignedIn, options: { approving: boolean }): Promise<ExportRequestView[]> {
    await this.expire();
    const repo = this.repo();
    const mine = await repo.list(100, { requestedBy: caller.actor.userId });
    const awaiting = options.approving
      ? (await repo.list(100, { status: 'requested' })).filter((r) => r.requested_by !== caller.actor.userId)
      : [];
    return this.named([...mine, ...awaiting].map(present));
  }

  private async named(views: ExportRequestView[]): Promise<ExportRequestView[]> {
    const ids = new Set(views.flatMap((v) => (v.decidedBy ? [v.requestedBy, v.decidedBy] : [v.requestedBy])));
    const names = await new UserRepository(this.ctx.store.db).namesOf([...ids]);
    return views.map((v) => ({
      ...v,
      requestedByName: names.get(v.requestedBy) ?? null,
      decidedByName: v.decidedBy ? (names.get(v.decidedBy) ?? null) : null,
    }));
  }

  async get(id: string, caller: SignedIn, options: { approving: boolean }): Promise<ExportRequestView> {
    const row = await this.repo().get(id);
    const visible = row && (row.requested_by === caller.actor.userId || options.approving);
    if (!row || !visible) throw new DomainError('not_found', `no export request ${id}`);
    return (await this.named([present(row)]))[0] as ExportRequestView;
  }

  /** Requests a server stopped while building: built again at its next start. */
  async resume(): Promise<void> {
    const repo = this.repo();
    for (const row of await repo.list(100, { status: 'building' })) {
      await repo.advance(row.id, ['building'], { status: 'approved' });
      this.startBuild(row.id);
    }
    for (const row of await repo.list(100, { status: 'approved' })) this.startBuild(row.id);
  }
}

async function digest(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}
