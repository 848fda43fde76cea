import { type Caller, can } from '../../access/caller.js';
import { sameSecret, secretDigest } from '../../access/secrets.js';
import {
  canonicalReference,
  canonicalSecret,
  newCaseReference,
  newCaseSecret,
} from '../../domain/case-codes.js';
import {
  type ConsentChoice,
  type ConsentPurpose,
  consentFormKeys,
  currentConsent,
} from '../../domain/consent.js';
import { DomainError } from '../../domain/errors.js';
import type { PublicStatus, ReportStatus } from '../../domain/reports.js';
import { newId } from '../../ids.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import { RecordRepository } from '../../store/repositories/records.js';
import { ReportRepository, type ReportRepository as Reports } from '../../store/repositories/reports.js';
import { UserRepository } from '../../store/repositories/users.js';
import type { Db } from '../../store/store.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import { seesWithdrawn } from '../registry/consent-filter.js';
import { tracingQueued } from '../tracing/signal.js';
import { type ContactDetails, ContactKeyError, openContact, sealContact } from './contact-cipher.js';
import { type ContactKeys, contactKeysProvider } from './contacts-key.js';
import { recordFromReport } from './intake-record.js';
import { completeProfile, type ReportInput } from './report-input.js';

/**
 * What a family sees for each internal status. A closed case is told by a person (a death is never learned
 * online), so it reads "please contact a liaison".
 */
export const publicStatusOf: Record<ReportStatus, PublicStatus> = {
  received: 'received',
  under_review: 'under_review',
  contact_liaison: 'contact_liaison',
  closed: 'contact_liaison',
};

/** Fixed windows per client address and per case reference (docs/intake.md). */
export const intakeLimits = {
  statusPerAddress: { max: 20, windowMs: 15 * 60_000 },
  statusPerReference: { max: 10, windowMs: 60 * 60_000 },
  filingPerAddress: { max: 10, windowMs: 60 * 60_000 },
} as const;

export type LookupAnswer = { status: PublicStatus } | 'not_found' | 'rate_limited';

export interface FiledReport {
  id: string;
  reference: string;
  /** Shown once; only its hash is kept. */
  secret: string;
  recordId: string;
}

/** Thrown inside the lookup's transaction to roll back a half-counted refusal. */
const refused = new Error('status lookup over its limit');

/** A hash of the same shape as a stored one, compared against when the reference is unknown. */
const decoyHash = secretDigest(newCaseSecret());

/** Family intake: filing a report, the anonymous status lookup, and what liaisons do with reports. */
export class IntakeService {
  /** The contacts keys (AES-256-GCM); read lazily so a server without one still serves everything else. */
  private readonly contactKeys: ContactKeys;
  /**
   * Counters keyed by HMACs under a key of the day, dated to a 6-hour bucket, pruned on a schedule: the table gives
   * back no address and dates no filing (src/services/limits/rate-limiter.ts).
   */
  readonly limiter: RateLimiter;

  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
  ) {
    this.contactKeys = contactKeysProvider(ctx.config);
    this.limiter = new RateLimiter(ctx);
  }

  /** The contacts key cannot be read: say so without naming server paths; the cause goes to the server's log. */
  private keyed<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof ContactKeyError) {
        throw new DomainError(
          'unavailable',
          'reports cannot be accepted right now; the administrator has been told',
          { cause: error },
        );
      }
      throw error;
    }
  }

  private now(): string {
    return new Date(this.ctx.clock()).toISOString();
  }

  /** Counts a hit and says whether it went over the limit. */
  private async over(
    kind: string,
    value: string,
    limit: { max: number; windowMs: number },
  ): Promise<boolean> {
    return (await this.limiter.hit(`intake:${kind}`, value, limit)).over;
  }

  /** Whether a public filing from this address is over its limit (counted per call). */
  async filingLimited(address: string): Promise<boolean> {
    return this.over('file', address, intakeLimits.filingPerAddress);
  }

  /**
   * Files a report in one transaction: the record it makes (with its source), the report with a random reference
   * and the secret's hash, the consent choices, the ante-mortem profile and the sealed contact.
   */
  async file(input: ReportInput, channel: 'public' | 'liaison', caller: Caller): Promise<FiledReport> {
    const by = {
      channel,
      userId: caller.actor?.userId ?? null,
      role: caller.actor?.role ?? null,
      ip: caller.ip,
    };
    const key = hasContact(input.contact) ? this.keyed(() => this.contactKeys.sealing()) : undefined;
    const at = this.now();
    const id = newId();
    const secret = newCaseSecret();
    const filed = await this.ctx.store.transaction(async (trx) => {
      const reports = new ReportRepository(trx);
      let reference = newCaseReference();
      while (await reports.referenceTaken(reference)) reference = newCaseReference();
      const recordId = await recordFromReport(trx, this.ctx.store.capabilities, input, {
        reportId: id,
        createdBy: by.userId,
        at,
      });
      await reports.insert({
        id,
        reference,
        secret_hash: secretDigest(secret),
        status: 'received',
        record_id: recordId,
        language: input.language,
        channel: by.channel,
        filed_by: by.userId,
        created_at: at,
        status_changed_at: at,
        status_changed_by: by.userId,
      });
      await reports.appendConsents(
        Object.entries(consentFormKeys).map(([formKey, purpose]) => ({
          id: newId(),
          report_id: id,
          purpose,
          granted: input.consent[formKey as keyof typeof consentFormKeys] ? 1 : 0,
          recorded_at: at,
          recorded_by: by.userId,
        })),
      );
      await reports.insertProfile({
        id: newId(),
        report_id: id,
        profile: JSON.stringify(completeProfile(input.anteMortem)),
        created_at: at,
        created_by: by.userId,
      });
      if (key) {
        const sealed = sealContact(key, id, input.contact);
        await reports.insertContact({
          id: newId(),
          report_id: id,
          ciphertext: sealed.ciphertext,
          nonce: sealed.nonce,
          key_id: sealed.keyId,
          created_at: at,
        });
      }
      // A family's address is not kept: the audit row of a public filing has none.
      await new AuditRepository(trx).append(
        {
          actorId: by.userId,
          actorRole: by.role,
          action: 'file_report',
          subjectType: 'report',
          subjectId: id,
          details: { channel: by.channel },
          ip: by.channel === 'public' ? null : by.ip,
        },
        at,
      );
      return { id, reference, secret, recordId };
    });
    // Matched against the registry and the evidence at once, by the tracing loop (liaisons see the candidates).
    tracingQueued(this.ctx.store);
    return filed;
  }

  /**
   * The anonymous status lookup. A wrong reference and a wrong secret take the same path: both rate-limit
   * counters are hit, the reference is looked up, the secret is hashed and compared in constant time against the
   * stored hash or a decoy, and the answer is the same 'not_found'. Limits are per address, and per reference from
   * that address (never per reference alone, or whoever knows a reference could block its family's lookups); a
   * refused lookup counts nothing and writes no row (docs/intake.md "Limits").
   */
  async lookupStatus(typedReference: string, typedSecret: string, address: string): Promise<LookupAnswer> {
    const reference = canonicalReference(typedReference);
    const counted = await this.ctx.store
      .transaction(async (trx) => {
        if (!(await this.limiter.hitUnder(trx, 'intake:status-addr', address, intakeLimits.statusPerAddress)))
          return false;
        // Over the limit of this reference from this address: undo the address's count too (the transaction
        // rolls back), so that nothing of the refusal stays.
        const pair = `${reference}\n${address}`;
        if (!(await this.limiter.hitUnder(trx, 'intake:status-ref', pair, intakeLimits.statusPerReference)))
          throw refused;
        return true;
      })
      .catch((error: unknown) => {
        if (error === refused) return false;
        throw error;
      });
    if (!counted) return 'rate_limited';
    const found = await new ReportRepository(this.ctx.store.db).credentialsOf(reference);
    const matches = sameSecret(secretDigest(canonicalSecret(typedSecret)), found?.secretHash ?? decoyHash);
    if (!found || !matches) return 'not_found';
    return { status: publicStatusOf[found.status] };
  }

  private records(): RecordRepository {
    return new RecordRepository(this.ctx.store.db, this.ctx.store.capabilities);
  }

  private reports(db: Db = this.ctx.store.db): Reports {
    return new ReportRepository(db);
  }

  async list(
    filter: {
      status?: ReportStatus;
      /** 'me': assigned to the caller; 'none': to nobody. */
      assigned?: 'me' | 'none';
      governorateId?: string;
      limit: number;
      cursor?: string;
    },
    caller: Caller,
  ) {
    const rows = await this.reports().list({
      status: filter.status,
      ...(filter.assigned === 'me'
        ? { assignedTo: caller.actor?.userId ?? '' }
        : filter.assigned === 'none'
          ? { assignedTo: null }
          : {}),
      ...(filter.governorateId ? { governorateId: filter.governorateId } : {}),
      limit: filter.limit + 1,
      before: filter.cursor,
    });
    const page = rows.slice(0, filter.limit);
    const histories = await this.reports().consentHistories(page.map((r) => r.id));
    const names = await this.records().fullNames(page.map((r) => r.recordId));
    await this.audit.record(caller, {
      action: 'list_reports',
      subjectType: 'report',
      details: {
        status: filter.status ?? null,
        assigned: filter.assigned ?? null,
        governorate: filter.governorateId ?? null,
        count: page.length,
      },
    });
    return {
      items: page.map((r) => ({
        ...r,
        fullName: names.get(r.recordId) ?? null,
        consent: currentConsent(histories.get(r.id) ?? []),
      })),
      nextCursor: rows.length > filter.limit ? page[page.length - 1]?.id : undefined,
    };
  }

  /**
   * One report for staff (audited); `contact` is decrypted only when the caller may read contacts (audited too) and
   * asks for it — the web interface asks only through `revealContact`, with a reason.
   */
  async view(id: string, caller: Caller, options: { contact?: boolean } = {}) {
    const withContact = can(caller, 'contacts:read') && options.contact !== false;
    const report = await this.reports().get(id);
    if (!report) throw new DomainError('not_found', `no report ${id}`);
    const history = await this.reports().consentHistory(id);
    // Medical history is forensic material: it needs forensic:read of its own, not only reports:read.
    const readsProfile = can(caller, 'forensic:read');
    const anteMortem = readsProfile ? await this.reports().profile(id) : undefined;
    const record = await this.records().get(report.recordId);
    let contact: ContactDetails | null | undefined;
    if (withContact) {
      const sealed = await this.reports().sealedContact(id);
      contact = sealed
        ? this.keyed(() => openContact(this.contactKeys.opening(sealed.keyId), id, sealed))
        : null;
    }
    await this.audit.record(caller, { action: 'read_report', subjectType: 'report', subjectId: id });
    if (readsProfile && anteMortem !== undefined) {
      await this.audit.record(caller, { action: 'read_antemortem', subjectType: 'report', subjectId: id });
    }
    if (withContact) {
      await this.audit.record(caller, {
        action: 'read_contact',
        subjectType: 'report',
        subjectId: id,
        details: { present: contact !== null },
      });
      await this.audit.watchContactReads(caller);
    }
    return {
      ...report,
      record: record
        ? {
            id: record.id,
            fullName: record.full_name,
            firstName: record.first_name,
            fatherName: record.father_name,
            grandfatherName: record.grandfather_name,
            familyName: record.family_name,
            motherName: record.mother_name,
            script: record.name_script,
            sex: record.sex,
            birthDate: record.birth_date,
            governorateId: record.governorate_id,
            placeOfOrigin: record.place_of_origin,
            arrestDate: record.arrest_date,
            branchId: record.arresting_branch_id,
            original: JSON.parse(record.original) as unknown,
          }
        : null,
      consent: currentConsent(history),
      consentHistory: history,
      ...(readsProfile ? { anteMortem: anteMortem ?? null } : {}),
      notes: await this.reports().notes(id),
      ...(contact !== undefined ? { contact } : {}),
    };
  }

  /**
   * A report's ante-mortem profile for forensic comparison, unless consent withholds the report from this role
   * (internal use withdrawn or never given): then it answers undefined, as for no report.
   */
  async antemortem(
    id: string,
    caller: Caller,
  ): Promise<{ reportId: string; recordId: string; profile: unknown }> {
    const none = new DomainError('not_found', `no report ${id}`);
    const report = await this.reports().get(id);
    if (!report) throw none;
    if (!seesWithdrawn(caller) && !currentConsent(await this.reports().consentHistory(id)).internal_use) {
      throw none;
    }
    const profile = await this.reports().profile(id);
    if (profile === undefined) throw none;
    await this.audit.record(caller, { action: 'read_antemortem', subjectType: 'report', subjectId: id });
    return { reportId: id, recordId: report.recordId, profile };
  }

  /** The sealed contact details, opened because a liaison gave a reason (the reason is audited with the read). */
  async revealContact(id: string, reason: string, caller: Caller): Promise<ContactDetails | null> {
    const why = reason.trim();
    if (why.length < 3)
      throw new DomainError('invalid', 'say why you need the contact details (3 characters or more)', {
        field: 'reason',
      });
    if (!(await this.reports().get(id))) throw new DomainError('not_found', `no report ${id}`);
    const sealed = await this.reports().sealedContact(id);
    const contact = sealed
      ? this.keyed(() => openContact(this.contactKeys.opening(sealed.keyId), id, sealed))
      : null;
    await this.audit.record(caller, {
      action: 'read_contact',
      subjectType: 'report',
      subjectId: id,
      details: { present: contact !== null, reason: why },
    });
    await this.audit.watchContactReads(caller);
    return contact;
  }

  /** Assigns a report to a liaison (or to nobody): their worklist. */
  async assign(id: string, userId: string | null, caller: Caller): Promise<void> {
    if (userId && !(await new UserRepository(this.ctx.store.db).findById(userId))) {
      throw new DomainError('invalid', `no user ${userId}`, { field: 'userId' });
    }
    if (!(await this.reports().assign(id, userId, this.now())))
      throw new DomainError('not_found', `no report ${id}`);
    await this.audit.record(caller, {
      action: 'report_assigned',
      subjectType: 'report',
      subjectId: id,
      details: { to: userId },
    });
  }

  /** A liaison's case note, kept as written; notes are never edited. */
  async addNote(id: string, body: string, caller: Caller) {
    const text = body.trim();
    if (!text) throw new DomainError('invalid', 'the note is empty', { field: 'body' });
    if (!(await this.reports().get(id))) throw new DomainError('not_found', `no report ${id}`);
    await this.reports().addNote({
      id: newId(),
      report_id: id,
      body: text,
      created_at: this.now(),
      created_by: caller.actor?.userId ?? null,
    });
    await this.audit.record(caller, { action: 'report_note', subjectType: 'report', subjectId: id });
    return this.reports().notes(id);
  }

  async setStatus(id: string, status: ReportStatus, caller: Caller): Promise<void> {
    if (!(await this.reports().setStatus(id, status, caller.actor?.userId ?? '', this.now()))) {
      throw new DomainError('not_found', `no report ${id}`);
    }
    await this.audit.record(caller, {
      action: 'report_status',
      subjectType: 'report',
      subjectId: id,
      details: { status },
    });
  }

  /** Records a grant or withdrawal as a new row; answers the history after it, or undefined for no report. */
  async recordConsent(
    id: string,
    purpose: ConsentPurpose,
    granted: boolean,
    caller: Caller,
  ): Promise<ConsentChoice[]> {
    const by = caller.actor?.userId ?? '';
    const history = await this.ctx.store.transaction(async (trx) => {
      const reports = this.reports(trx);
      if (!(await reports.get(id))) throw new DomainError('not_found', `no report ${id}`);
      await reports.appendConsents([
        {
          id: newId(),
          report_id: id,
          purpose,
          granted: granted ? 1 : 0,
          recorded_at: this.now(),
          recorded_by: by,
        },
      ]);
      return reports.consentHistory(id);
    });
    await this.audit.record(caller, {
      action: 'report_consent',
      subjectType: 'report',
      subjectId: id,
      details: { purpose, granted },
    });
    return history;
  }
}

function hasContact(contact: ContactDetails): boolean {
  return Object.values(contact).some((v) => v !== undefined && v !== '');
}
