import { newId } from '../../ids.js';
import { insertRows } from '../bulk-rows.js';
import type { Capabilities } from '../capabilities.js';
import type {
  LinkConstraintTable,
  ModelLinkTable,
  ReportCandidateTable,
  TracingRunTable,
} from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

export interface QueuedItem {
  seq: number;
  kind: 'record' | 'label';
  subjectId: string;
  importId: string | null;
}

export type TracingRun = TracingRunTable;

/**
 * The tracing loop's tables: the queue of records and labels to link and match, runs and their progress, the one
 * lock, the model's link provenance, the pairs people took apart, and reports' candidates.
 */
export class TracingRepository {
  constructor(
    private readonly db: Db,
    private readonly caps: Capabilities,
  ) {}

  /** Queues items in the caller's transaction, so a stored record is never left unlinked. */
  async enqueue(
    items: readonly { kind: 'record' | 'label'; subjectId: string; importId?: string | null }[],
    at: string,
  ): Promise<void> {
    const rows = items.map((i) => ({
      kind: i.kind,
      subject_id: i.subjectId,
      import_id: i.importId ?? null,
      enqueued_at: at,
    }));
    await insertRows(this.db, this.caps, 'tracing_queue', rows);
  }

  /** The oldest `limit` items (in the order they were stored). */
  async take(limit: number, afterSeq = 0): Promise<QueuedItem[]> {
    const rows = await this.db
      .selectFrom('tracing_queue')
      .select(['seq', 'kind', 'subject_id', 'import_id'])
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      seq: Number(r.seq),
      kind: r.kind as QueuedItem['kind'],
      subjectId: r.subject_id,
      importId: r.import_id,
    }));
  }

  /** Removes items done (in the transaction that did them). */
  async done(seqs: readonly number[]): Promise<void> {
    for (const part of slices(seqs, 500)) {
      await this.db.deleteFrom('tracing_queue').where('seq', 'in', part).execute();
    }
  }

  /** Removes the records' items up to `seq` (a registry-wide run covered them). */
  async doneUpTo(seq: number, kind: 'record' | 'label'): Promise<number> {
    const result = await this.db
      .deleteFrom('tracing_queue')
      .where('seq', '<=', seq)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async lastSeq(): Promise<number> {
    const row = await this.db
      .selectFrom('tracing_queue')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  async pending(importId?: string): Promise<number> {
    let q = this.db.selectFrom('tracing_queue').select((eb) => eb.fn.countAll<string | number>().as('n'));
    if (importId) q = q.where('import_id', '=', importId);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  }

  /** Takes the named lock for `ttlMs` if it is free, lapsed, or already ours; answers the holder otherwise. */
  async lock(
    name: string,
    owner: string,
    runId: string | null,
    nowMs: number,
    ttlMs: number,
  ): Promise<
    { ok: true } | { ok: false; holder: { owner: string; runId: string | null; expiresAt: string } }
  > {
    const now = new Date(nowMs).toISOString();
    const expires = new Date(nowMs + ttlMs).toISOString();
    await this.db
      .insertInto('job_locks')
      .values({ name, owner, run_id: runId, acquired_at: now, expires_at: expires })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ owner, run_id: runId, acquired_at: now, expires_at: expires })
          .where((eb) => eb.or([eb('job_locks.expires_at', '<', now), eb('job_locks.owner', '=', owner)])),
      )
      .execute();
    const row = await this.db
      .selectFrom('job_locks')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    if (row.owner === owner) return { ok: true };
    return { ok: false, holder: { owner: row.owner, runId: row.run_id, expiresAt: row.expires_at } };
  }

  /** Takes a lock from a holder known to be dead; false when someone else took it meanwhile. */
  async takeOver(
    name: string,
    from: string,
    owner: string,
    runId: string | null,
    nowMs: number,
    ttlMs: number,
  ) {
    const result = await this.db
      .updateTable('job_locks')
      .set({
        owner,
        run_id: runId,
        acquired_at: new Date(nowMs).toISOString(),
        expires_at: new Date(nowMs + ttlMs).toISOString(),
      })
      .where('name', '=', name)
      .where('owner', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async unlock(name: string, owner: string): Promise<void> {
    await this.db.deleteFrom('job_locks').where('name', '=', name).where('owner', '=', owner).execute();
  }

  async startRun(
    row: Omit<
      TracingRunTable,
      'done' | 'total' | 'records' | 'links' | 'review_pairs' | 'finished_at' | 'failure' | 'stage'
    >,
  ): Promise<void> {
    await this.db
      .insertInto('tracing_runs')
      .values({
        ...row,
        stage: null,
        done: 0,
        total: 0,
        records: 0,
        links: 0,
        review_pairs: 0,
        finished_at: null,
        failure: null,
      })
      .execute();
  }

  async updateRun(id: string, patch: Partial<Omit<TracingRunTable, 'id'>>): Promise<void> {
    await this.db.updateTable('tracing_runs').set(patch).where('id', '=', id).execute();
  }

  async run(id: string): Promise<TracingRun | undefined> {
    return this.db.selectFrom('tracing_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The latest runs, newest first. */
  async runs(limit: number, kind?: string): Promise<TracingRun[]> {
    let q = this.db.selectFrom('tracing_runs').selectAll();
    if (kind) q = q.where('kind', '=', kind);
    return q.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** Marks runs still "running" whose lock lapsed as interrupted (their process died). */
  async interruptOrphans(nowIso: string): Promise<number> {
    const result = await this.db
      .updateTable('tracing_runs')
      .set({ status: 'interrupted', finished_at: nowIso })
      .where('status', '=', 'running')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('job_locks')
              .select('name')
              .whereRef('job_locks.run_id', '=', 'tracing_runs.id')
              .where('job_locks.expires_at', '>=', nowIso),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async addModelLinks(rows: readonly ModelLinkTable[]): Promise<void> {
    await insertRows(this.db, this.caps, 'model_links', rows);
  }

  async modelLinks(linkIds: readonly string[]): Promise<Map<string, ModelLinkTable>> {
    const out = new Map<string, ModelLinkTable>();
    for (const part of slices(linkIds, 500)) {
      const rows = await this.db.selectFrom('model_links').selectAll().where('link_id', 'in', part).execute();
      for (const r of rows) out.set(r.link_id, r);
    }
    return out;
  }

  async keepApart(rows: readonly Omit<LinkConstraintTable, 'id'>[]): Promise<void> {
    const withIds = rows.map((r) => ({ id: newId(), ...r }));
    await insertRows(this.db, this.caps, 'link_constraints', withIds);
  }

  /** Every pair of records a person took apart. */
  async keptApart(): Promise<[string, string][]> {
    const rows = await this.db
      .selectFrom('link_constraints')
      .select(['record_id', 'other_record_id'])
      .execute();
    return rows.map((r) => [r.record_id, r.other_record_id]);
  }

  /** The pairs kept apart that involve one of these records. */
  async keptApartFrom(recordIds: readonly string[]): Promise<[string, string][]> {
    const out: [string, string][] = [];
    for (const ids of slices(recordIds, 250)) {
      const rows = await this.db
        .selectFrom('link_constraints')
        .select(['record_id', 'other_record_id'])
        .where((eb) => eb.or([eb('record_id', 'in', ids), eb('other_record_id', 'in', ids)]))
        .execute();
      for (const r of rows) out.push([r.record_id, r.other_record_id]);
    }
    return out;
  }

  /**
   * Of these sources, those two of whose records people have said are one person: a match decision in force
   * between them, or a person someone made or changed by hand (a link of one of `humanBases`) holding both. Such a
   * list names somebody twice, so it is not a list that names each person once (clustering `listsNamingOnce`
   * counts the same joinings for `athar registry link`).
   */
  async listsJoinedByPeople(
    sourceIds: readonly string[],
    humanBases: readonly string[],
  ): Promise<Set<string>> {
    const out = new Set<string>();
    for (const ids of slices(sourceIds, 250)) {
      const decided = await this.db
        .selectFrom('decisions as d')
        .innerJoin('records as ra', 'ra.id', 'd.record_a')
        .innerJoin('records as rb', 'rb.id', 'd.record_b')
        .select('ra.source_id')
        .distinct()
        .where('d.decision', '=', 'match')
        .where('d.superseded_by', 'is', null)
        .whereRef('ra.source_id', '=', 'rb.source_id')
        .where('ra.source_id', 'in', ids)
        .execute();
      for (const r of decided) out.add(r.source_id);
      if (humanBases.length === 0) continue;
      // The persons holding two records of a list first (read through the list's records: a list that names each
      // person once has few), then which of them someone made or changed by hand — not every link made by hand
      // first, which at a million records would be a pass over every link.
      const twice = await this.db
        .selectFrom('record_links as l')
        .innerJoin('records as r', 'r.id', 'l.record_id')
        .select(['r.source_id', 'l.person_id'])
        .where('l.unlinked_at', 'is', null)
        .where('r.source_id', 'in', ids)
        .groupBy(['r.source_id', 'l.person_id'])
        .having((eb) => eb.fn.countAll(), '>=', 2)
        .execute();
      for (const part of slices(twice, 250)) {
        const byHand = await this.db
          .selectFrom('record_links')
          .select('person_id')
          .distinct()
          .where('unlinked_at', 'is', null)
          .where('basis', 'in', humanBases)
          .where(
            'person_id',
            'in',
            part.map((t) => t.person_id),
          )
          .execute();
        const human = new Set(byHand.map((h) => h.person_id));
        for (const t of part) if (human.has(t.person_id)) out.add(t.source_id);
      }
    }
    return out;
  }

  /** Replaces a report's candidates (a report is matched again when the registry has changed). */
  async setCandidates(
    reportId: string,
    rows: readonly Omit<ReportCandidateTable, 'id' | 'report_id'>[],
  ): Promise<void> {
    await this.db.deleteFrom('report_candidates').where('report_id', '=', reportId).execute();
    const withIds = rows.map((r) => ({ id: newId(), report_id: reportId, ...r }));
    await insertRows(this.db, this.caps, 'report_candidates', withIds);
  }

  async candidates(reportId: string): Promise<ReportCandidateTable[]> {
    return this.db
      .selectFrom('report_candidates')
      .selectAll()
      .where('report_id', '=', reportId)
      .orderBy('probability', 'desc')
      .orderBy('id')
      .execute();
  }

  /** The person each of these records belongs to now. */
  async personsOf(recordIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const part of slices(recordIds, 500)) {
      const rows = await this.db
        .selectFrom('record_links')
        .select(['record_id', 'person_id'])
        .where('record_id', 'in', part)
        .where('unlinked_at', 'is', null)
        .execute();
      for (const r of rows) out.set(r.record_id, r.person_id);
    }
    return out;
  }

  /** Whether a report exists. */
  async reportExists(reportId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('family_reports')
      .select('id')
      .where('id', '=', reportId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The report that a record of kind family_report belongs to. */
  async reportOfRecord(recordId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('family_reports')
      .select('id')
      .where('record_id', '=', recordId)
      .executeTakeFirst();
    return row?.id;
  }
}
