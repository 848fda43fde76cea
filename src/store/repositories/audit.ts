import type { Selectable } from 'kysely';
import { nowIso } from '../../ids.js';
import type { AuditLogTable } from '../schema.js';
import type { Db } from '../store.js';

export interface AuditEntry {
  actorId: string | null;
  actorRole: string | null;
  action: string;
  subjectType?: string | null;
  subjectId?: string | null;
  details?: Record<string, unknown> | null;
  ip?: string | null;
}

/** What the audit log can be filtered by. */
export interface AuditFilter {
  actorId?: string;
  action?: string;
  subjectType?: string;
  subjectId?: string;
  since?: string;
  until?: string;
}

export interface AuditRow extends Required<Omit<AuditEntry, 'details'>> {
  id: number;
  at: string;
  details: Record<string, unknown> | null;
}

/** Who read or did what, when. Append-only: nothing here deletes, and only `redactDetails` updates. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  async append(entry: AuditEntry, at = nowIso()): Promise<void> {
    await this.insertMany([{ entry, at }]).execute();
  }

  /** Rows in one insert statement, for the group-commit writer to commit through Store.append. */
  insertMany(rows: readonly { entry: AuditEntry; at: string }[]) {
    return this.db.insertInto('audit_log').values(
      rows.map(({ entry, at }) => ({
        at,
        actor_id: entry.actorId,
        actor_role: entry.actorRole,
        action: entry.action,
        subject_type: entry.subjectType ?? null,
        subject_id: entry.subjectId ?? null,
        details: entry.details ? JSON.stringify(entry.details) : null,
        ip: entry.ip ?? null,
      })),
    );
  }

  /** How many different subjects one actor's acts of one kind touched since a time (through the actor index). */
  async distinctSubjectsOf(actorId: string, action: string, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.count<string | number>('subject_id').distinct().as('n'))
      .where('actor_id', '=', actorId)
      .where('action', '=', action)
      .where('at', '>=', since)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Whether an actor has an act of this kind since a time. */
  async hasActSince(actorId: string, action: string, since: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('audit_log')
      .select('id')
      .where('actor_id', '=', actorId)
      .where('action', '=', action)
      .where('at', '>=', since)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The time of each subject's latest act of one kind (a user's last sign-in): one grouped query through the
   * subject index, whatever the log's size.
   */
  async latestActs(action: string, subjectType: string, subjectIds: readonly string[]) {
    const out = new Map<string, string>();
    if (subjectIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('audit_log')
      .select(['subject_id', (eb) => eb.fn.max('at').as('at')])
      .where('subject_type', '=', subjectType)
      .where('subject_id', 'in', [...subjectIds])
      .where('action', '=', action)
      .groupBy('subject_id')
      .execute();
    for (const r of rows) if (r.subject_id && r.at) out.set(r.subject_id, String(r.at));
    return out;
  }

  /** Search rows after `afterId` whose details still name the searched text (`"q":`), oldest first. */
  async searchesNamingText(
    afterId: number,
    limit: number,
  ): Promise<{ id: number; details: string | null }[]> {
    return this.db
      .selectFrom('audit_log')
      .select(['id', 'details'])
      .where('action', '=', 'search')
      .where('id', '>', afterId)
      .where('details', 'like', '%"q":%')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Puts new details on a written row: only to take a searched name out of it (issue 21, docs/access.md), the one
   * change ever made to the log.
   */
  async redactDetails(id: number, details: Record<string, unknown>): Promise<void> {
    await this.db
      .updateTable('audit_log')
      .set({ details: JSON.stringify(details) })
      .where('id', '=', id)
      .execute();
  }

  /** Rows of searches whose details hold this digest of the searched name, newest first. */
  async searchesWithDigest(digest: string, limit: number): Promise<AuditRow[]> {
    const rows = await this.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'search')
      .where('details', 'like', `%"qDigest":"${digest.replace(/[^0-9a-f:]/g, '')}"%`)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRow);
  }

  async query(filter: AuditFilter & { limit?: number; beforeId?: number }): Promise<AuditRow[]> {
    let q = this.db.selectFrom('audit_log').selectAll();
    if (filter.actorId) q = q.where('actor_id', '=', filter.actorId);
    if (filter.action) q = q.where('action', '=', filter.action);
    if (filter.subjectType) q = q.where('subject_type', '=', filter.subjectType);
    if (filter.subjectId) q = q.where('subject_id', '=', filter.subjectId);
    if (filter.since) q = q.where('at', '>=', filter.since);
    if (filter.until) q = q.where('at', '<', filter.until);
    if (filter.beforeId !== undefined) q = q.where('id', '<', filter.beforeId);
    const rows = await q
      .orderBy('id', 'desc')
      .limit(Math.min(filter.limit ?? 100, 1000))
      .execute();
    return rows.map(toRow);
  }
}

function toRow(r: Selectable<AuditLogTable>): AuditRow {
  return {
    id: r.id,
    at: r.at,
    actorId: r.actor_id,
    actorRole: r.actor_role,
    action: r.action,
    subjectType: r.subject_type,
    subjectId: r.subject_id,
    details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null,
    ip: r.ip,
  };
}
