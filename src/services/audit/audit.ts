import type { Caller } from '../../access/caller.js';
import { type AuditFilter, AuditRepository, type AuditRow } from '../../store/repositories/audit.js';
import type { AppContext } from '../context.js';
import { AuditWriter } from './audit-writer.js';
import { SearchDigests } from './search-digest.js';

/** What one audited act says: what was done to what, and anything that explains it (never personal data). */
export interface AuditedAct {
  action: string;
  subjectType?: string;
  subjectId?: string;
  details?: Record<string, unknown>;
}

/** What an alert tells the server's log: what, who by id and role, and numbers; never names or contents. */
export interface Alert {
  action: string;
  actorId: string | null;
  actorRole: string | null;
  details: Record<string, unknown>;
}

/**
 * The audit log: every act and every read of sensitive data, written by the service that does it, for its caller.
 * Rows go through one group-commit writer: the caller waits until its row is committed (a read is not answered
 * before it is audited), and concurrent requests share one commit.
 */
export class AuditService {
  private readonly writer: AuditWriter;
  private readonly alertListeners: ((alert: Alert) => void)[] = [];

  constructor(private readonly ctx: AppContext) {
    this.writer = new AuditWriter(ctx.store);
  }

  record(caller: Caller, act: AuditedAct): Promise<void> {
    const details = caller.channel === 'cli' ? { ...(act.details ?? {}), via: 'cli' } : (act.details ?? null);
    return this.writer.append(
      {
        actorId: caller.actor?.userId ?? null,
        actorRole: caller.actor?.role ?? null,
        action: act.action,
        subjectType: act.subjectType ?? null,
        subjectId: act.subjectId ?? null,
        details,
        ip: caller.ip,
      },
      new Date(this.ctx.clock()).toISOString(),
    );
  }

  /** Where alerts go besides the audit log: the server logs them (a line without personal data). */
  onAlert(listener: (alert: Alert) => void): void {
    this.alertListeners.push(listener);
  }

  /** An alert: an audit row like any act, then every listener is told (ids and numbers only). */
  async alert(caller: Caller, act: AuditedAct & { subjectType: string; subjectId: string }): Promise<void> {
    await this.record(caller, act);
    const alert: Alert = {
      action: act.action,
      actorId: caller.actor?.userId ?? null,
      actorRole: caller.actor?.role ?? null,
      details: act.details ?? {},
    };
    for (const listener of this.alertListeners) listener(alert);
  }

  /**
   * One account reading the contacts of many reports in a short time (docs/access.md "Bulk reads of contacts"):
   * after each contact read, counts the different reports whose contacts the actor read in the window
   * (ATHAR_CONTACTS_ALERT) and, at the threshold, raises `contacts_bulk_read` once per window.
   */
  async watchContactReads(caller: Caller): Promise<void> {
    const actorId = caller.actor?.userId;
    if (!actorId) return;
    const { reports, windowMs } = this.ctx.config.accounts.contactsAlert;
    const since = new Date(this.ctx.clock() - windowMs).toISOString();
    const repo = new AuditRepository(this.ctx.store.db);
    const read = await repo.distinctSubjectsOf(actorId, 'read_contact', since);
    if (read < reports || (await repo.hasActSince(actorId, 'contacts_bulk_read', since))) return;
    await this.alert(caller, {
      action: 'contacts_bulk_read',
      subjectType: 'user',
      subjectId: actorId,
      details: { reports: read, windowMinutes: windowMs / 60_000, threshold: reports },
    });
  }

  /** A page of the log, newest first; reading it is itself audited. */
  async query(
    filter: AuditFilter,
    page: { beforeId?: number; limit: number },
    caller: Caller,
  ): Promise<{ items: AuditRow[]; nextCursor?: string }> {
    const rows = await new AuditRepository(this.ctx.store.db).query({
      ...filter,
      ...(page.beforeId !== undefined ? { beforeId: page.beforeId } : {}),
      limit: page.limit + 1,
    });
    const items = rows.slice(0, page.limit);
    await this.record(caller, {
      action: 'audit_read',
      details: { filter, ...(page.beforeId !== undefined ? { cursor: String(page.beforeId) } : {}) },
    });
    const last = items.at(-1);
    return { items, ...(rows.length > page.limit && last ? { nextCursor: String(last.id) } : {}) };
  }

  /**
   * Whether (and when, by whom) a name was searched: the rows of searches whose `qDigest` is the name's digest under
   * `keys/audit.key`. For whoever holds the key (the command line); audited as `audit_read` with the digest, never
   * the name.
   */
  async searchesOf(name: string, caller: Caller, limit = 500): Promise<AuditRow[]> {
    const digest = new SearchDigests(this.ctx.config).digest(name);
    const rows = await new AuditRepository(this.ctx.store.db).searchesWithDigest(digest, limit);
    await this.record(caller, {
      action: 'audit_read',
      details: { filter: { action: 'search', qDigest: digest } },
    });
    return rows;
  }
}
