import type { ConsentChoice } from '../../domain/consent.js';
import type { ReportStatus } from '../../domain/reports.js';
import type {
  AntemortemProfileTable,
  ContactTable,
  FamilyReportTable,
  ReportConsentTable,
} from '../schema.js';
import type { Db } from '../store.js';

export interface ReportRow {
  id: string;
  reference: string;
  status: ReportStatus;
  recordId: string;
  language: string;
  channel: 'public' | 'liaison';
  filedBy: string | null;
  createdAt: string;
  statusChangedAt: string;
  statusChangedBy: string | null;
  assignedTo: string | null;
  assignedAt: string | null;
}

/** The report as staff see it: never the secret's hash. */
function toReport(row: FamilyReportTable): ReportRow {
  return {
    id: row.id,
    reference: row.reference,
    status: row.status as ReportStatus,
    recordId: row.record_id,
    language: row.language,
    channel: row.channel as ReportRow['channel'],
    filedBy: row.filed_by,
    createdAt: row.created_at,
    statusChangedAt: row.status_changed_at,
    statusChangedBy: row.status_changed_by,
    assignedTo: row.assigned_to ?? null,
    assignedAt: row.assigned_at ?? null,
  };
}

function toChoice(row: ReportConsentTable): ConsentChoice {
  return {
    id: row.id,
    purpose: row.purpose,
    granted: row.granted === 1,
    recordedAt: row.recorded_at,
    recordedBy: row.recorded_by,
  };
}

const reportColumns = [
  'id',
  'reference',
  'status',
  'record_id',
  'language',
  'channel',
  'filed_by',
  'created_at',
  'status_changed_at',
  'status_changed_by',
  'assigned_to',
  'assigned_at',
] as const;

/** Family reports, their consent history, ante-mortem profiles and sealed contacts (migration 0010). */
export class ReportRepository {
  /** Up to `limit` sealed contacts not sealed with this key (what a key rotation reseals next). */
  contactsNotSealedWith(keyId: string, limit: number) {
    return this.db
      .selectFrom('contacts')
      .select(['id', 'report_id', 'ciphertext', 'nonce', 'key_id'])
      .where('key_id', '<>', keyId)
      .limit(limit)
      .execute();
  }

  /** Replaces a contact's sealing, if it is still sealed with the key it was read under. */
  async reseal(id: string, wasKeyId: string, sealed: { ciphertext: Buffer; nonce: Buffer; keyId: string }) {
    await this.db
      .updateTable('contacts')
      .set({ ciphertext: sealed.ciphertext, nonce: sealed.nonce, key_id: sealed.keyId })
      .where('id', '=', id)
      .where('key_id', '=', wasKeyId)
      .execute();
  }

  /** The ids of the keys that seal some contact now. */
  async contactKeysInUse(): Promise<Set<string>> {
    return new Set(
      (await this.db.selectFrom('contacts').select('key_id').distinct().execute()).map((r) => r.key_id),
    );
  }

  constructor(private readonly db: Db) {}

  async insert(report: Omit<FamilyReportTable, 'assigned_to' | 'assigned_at'>): Promise<void> {
    await this.db.insertInto('family_reports').values(report).execute();
  }

  async referenceTaken(reference: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('family_reports')
      .select('id')
      .where('reference', '=', reference)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** What the status lookup needs, and nothing more. */
  async credentialsOf(
    reference: string,
  ): Promise<{ id: string; secretHash: string; status: ReportStatus } | undefined> {
    const row = await this.db
      .selectFrom('family_reports')
      .select(['id', 'secret_hash', 'status'])
      .where('reference', '=', reference)
      .executeTakeFirst();
    return row ? { id: row.id, secretHash: row.secret_hash, status: row.status as ReportStatus } : undefined;
  }

  async get(id: string): Promise<ReportRow | undefined> {
    const row = await this.db
      .selectFrom('family_reports')
      .select(reportColumns)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toReport(row as FamilyReportTable) : undefined;
  }

  /**
   * Newest first; `before` is the last id of the previous page (ids are time-ordered UUIDv7). `assignedTo` null
   * means reports assigned to nobody; the governorate is the one the report's record names.
   */
  async list(filter: {
    status?: ReportStatus;
    assignedTo?: string | null;
    governorateId?: string;
    limit: number;
    before?: string;
  }): Promise<(ReportRow & { governorateId: string | null })[]> {
    let q = this.db
      .selectFrom('family_reports as f')
      .innerJoin('records as r', 'r.id', 'f.record_id')
      .select([...reportColumns.map((c) => `f.${c}` as const), 'r.governorate_id']);
    if (filter.status) q = q.where('f.status', '=', filter.status);
    if (filter.assignedTo !== undefined)
      q =
        filter.assignedTo === null
          ? q.where('f.assigned_to', 'is', null)
          : q.where('f.assigned_to', '=', filter.assignedTo);
    if (filter.governorateId) q = q.where('r.governorate_id', '=', filter.governorateId);
    if (filter.before) q = q.where('f.id', '<', filter.before);
    const rows = await q.orderBy('f.id', 'desc').limit(filter.limit).execute();
    return rows.map((r) => ({
      ...toReport(r as unknown as FamilyReportTable),
      governorateId: r.governorate_id,
    }));
  }

  async assign(id: string, userId: string | null, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('family_reports')
      .set({ assigned_to: userId, assigned_at: userId ? at : null })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A liaison's note; notes are never edited or removed. */
  async addNote(row: {
    id: string;
    report_id: string;
    body: string;
    created_at: string;
    created_by: string | null;
  }) {
    await this.db.insertInto('report_notes').values(row).execute();
  }

  async notes(reportId: string) {
    const rows = await this.db
      .selectFrom('report_notes')
      .selectAll()
      .where('report_id', '=', reportId)
      .orderBy('id')
      .execute();
    return rows.map((n) => ({ id: n.id, body: n.body, createdAt: n.created_at, createdBy: n.created_by }));
  }

  async setStatus(id: string, status: ReportStatus, by: string | null, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('family_reports')
      .set({ status, status_changed_at: at, status_changed_by: by })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Consent is append-only: every choice is a new row; nothing here updates or deletes one. */
  async appendConsents(rows: readonly ReportConsentTable[]): Promise<void> {
    if (rows.length > 0)
      await this.db
        .insertInto('report_consents')
        .values([...rows])
        .execute();
  }

  async consentHistory(reportId: string): Promise<ConsentChoice[]> {
    const rows = await this.db
      .selectFrom('report_consents')
      .selectAll()
      .where('report_id', '=', reportId)
      .orderBy('recorded_at')
      .orderBy('id')
      .execute();
    return rows.map(toChoice);
  }

  async consentHistories(reportIds: readonly string[]): Promise<Map<string, ConsentChoice[]>> {
    const out = new Map<string, ConsentChoice[]>(reportIds.map((id) => [id, []]));
    if (reportIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('report_consents')
      .selectAll()
      .where('report_id', 'in', [...reportIds])
      .orderBy('recorded_at')
      .orderBy('id')
      .execute();
    for (const row of rows) out.get(row.report_id)?.push(toChoice(row));
    return out;
  }

  /** Records of reports that do not (or no longer) consent to `purpose`; only among `recordIds` when given. */
  async recordsWithdrawnFrom(purpose: string, recordIds?: readonly string[]): Promise<string[]> {
    if (recordIds && recordIds.length === 0) return [];
    let query = withdrawnRecords(this.db, purpose);
    if (recordIds) query = query.where('fr.record_id', 'in', recordIds);
    return (await query.execute()).map((r) => r.record_id);
  }

  async insertProfile(row: AntemortemProfileTable): Promise<void> {
    await this.db.insertInto('antemortem_profiles').values(row).execute();
  }

  async profile(reportId: string): Promise<unknown | undefined> {
    const row = await this.db
      .selectFrom('antemortem_profiles')
      .select('profile')
      .where('report_id', '=', reportId)
      .executeTakeFirst();
    return row ? JSON.parse(row.profile) : undefined;
  }

  async insertContact(row: ContactTable): Promise<void> {
    await this.db.insertInto('contacts').values(row).execute();
  }

  async sealedContact(
    reportId: string,
  ): Promise<{ ciphertext: Buffer; nonce: Buffer; keyId: string } | undefined> {
    const row = await this.db
      .selectFrom('contacts')
      .select(['ciphertext', 'nonce', 'key_id'])
      .where('report_id', '=', reportId)
      .executeTakeFirst();
    return row ? { ciphertext: row.ciphertext, nonce: row.nonce, keyId: row.key_id } : undefined;
  }
}

/**
 * The records of reports whose consent does not allow `purpose` now: the latest choice for it is a refusal or
 * withdrawal, or no choice was ever made. One query (a subquery elsewhere), so sharing and search filter by it at
 * any size, before paging.
 */
export function withdrawnRecords(db: Db, purpose: string) {
  return db
    .selectFrom('family_reports as fr')
    .select('fr.record_id as record_id')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('report_consents as c')
            .select('c.id')
            .whereRef('c.report_id', '=', 'fr.id')
            .where('c.purpose', '=', purpose)
            .where('c.granted', '=', 1)
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('report_consents as d')
                    .select('d.id')
                    .whereRef('d.report_id', '=', 'c.report_id')
                    .whereRef('d.purpose', '=', 'c.purpose')
                    .where((e) =>
                      e.or([
                        e('d.recorded_at', '>', e.ref('c.recorded_at')),
                        e.and([
                          e('d.recorded_at', '=', e.ref('c.recorded_at')),
                          e('d.id', '>', e.ref('c.id')),
                        ]),
                      ]),
                    ),
                ),
              ),
            ),
        ),
      ),
    );
}
