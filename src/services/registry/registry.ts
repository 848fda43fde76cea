/**
 * The registry's use cases: records (create one, create many answering per item), persons built from linked records
 * (the view, link, unlink and undo with provenance), claims, events and relations. Records are never edited or
 * deleted; a person's status is derived from claims (case-status.ts). docs/registry.md.
 */

import type { Caller } from '../../access/caller.js';
import { type CaseStatus, deriveCaseStatus } from '../../domain/case-status.js';
import { DomainError } from '../../domain/errors.js';
import type { PersonRecordFields, RecordKind } from '../../domain/person-record.js';
import {
  type certainties,
  type datePrecisions,
  type eventTypes,
  relationsAgainstSamePerson,
  type relationTypes,
} from '../../domain/registry.js';
import { resolveBranch, resolveGovernorate } from '../../gazetteer/index.js';
import { newId } from '../../ids.js';
import { formatDate, parseDate } from '../../linkage/dates.js';
import { AssertionRepository } from '../../store/repositories/assertions.js';
import { EventRepository } from '../../store/repositories/events.js';
import { IdentificationRepository } from '../../store/repositories/identifications.js';
import { LookupRepository } from '../../store/repositories/lookups.js';
import { PersonPageRepository } from '../../store/repositories/person-page.js';
import { PlaceRepository } from '../../store/repositories/places.js';
import { type RecordLink, RecordLinkRepository } from '../../store/repositories/record-links.js';
import { RecordRepository, type RecordView } from '../../store/repositories/records.js';
import { RelationRepository } from '../../store/repositories/relations.js';
import { TracingRepository } from '../../store/repositories/tracing.js';
import type { AssertionTable, EventTable, RecordTable, RelationTable } from '../../store/schema.js';
import type { Db, Store } from '../../store/store.js';
import type { AuditService } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import { tracingQueued } from '../tracing/signal.js';
import { hiddenFrom } from './consent-filter.js';
import { recordLinked, recordUnlinked } from './linkage-journal.js';
import { storeNewRecords } from './new-records.js';
import { reopenMovedLink } from './pair-linker.js';
import { resolvePersonId, settlePersons } from './person-settling.js';
import { type FieldIssue, prepareRecord, withStoredAliases } from './record-fields.js';

export interface RecordInput {
  sourceId: string;
  kind: RecordKind;
  /** The source's own id for the record; unique per source. */
  externalId?: string | null;
  fields: PersonRecordFields;
}

export type ItemResult =
  | { index: number; ok: true; id: string; warnings?: FieldIssue[] }
  | { index: number; ok: false; error: string; issues?: FieldIssue[] };

/** What the model said of a link it made: its version, the record it matched, and why. */
export interface ModelBasis {
  runId: string;
  modelVersion: string;
  matchedRecord: string;
  probability: number;
  matchWeight: number;
  explanation: unknown;
}

export interface PersonView {
  id: string;
  /** The id asked for, when it named a person since merged into this one. */
  mergedFrom?: string;
  createdAt: string;
  status: CaseStatus;
  records: (RecordView & { link: RecordLink & { model?: ModelBasis } })[];
  events: EventTable[];
  relations: RelationTable[];
  assertions: AssertionTable[];
  identifications: { id: string; evidenceId: string; status: string }[];
}

/** A record row ready to insert, with its keys, from fields that passed preparation. */
export function recordRow(
  input: RecordInput,
  prepared: Extract<ReturnType<typeof prepareRecord>, { ok: true }>,
  at: string,
  by: string | null,
): { row: RecordTable; keys: { key: string; record_id: string }[] } {
  const id = newId();
  const row: RecordTable = {
    id,
    source_id: input.sourceId,
    external_id: input.externalId ?? null,
    kind: input.kind,
    ...prepared.record,
    created_at: at,
    created_by: by,
  };
  return { row, keys: prepared.nameKeys.map((key) => ({ key, record_id: id })) };
}

export class RegistryService {
  constructor(
    private readonly ctx: AppContext,
    private readonly audit: AuditService,
  ) {}

  private get store(): Store {
    return this.ctx.store;
  }

  private clock(): number {
    return this.ctx.clock();
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  private records(db: Db = this.store.db): RecordRepository {
    return new RecordRepository(db, this.store.capabilities);
  }

  private async requireSource(db: Db, sourceId: string): Promise<void> {
    if (!(await new LookupRepository(db).exists('sources', sourceId)))
      throw new DomainError('invalid', `source ${sourceId} does not exist`, {
        issues: [{ field: 'source', message: `no source ${sourceId}` }],
      });
  }

  /** Creates one record (with its name keys and its log entry) in one transaction. */
  async createRecord(input: RecordInput, by: string | null): Promise<{ id: string; warnings: FieldIssue[] }> {
    const [result] = await this.createRecords([input], by);
    if (!result) throw new Error('no result');
    if (!result.ok) {
      throw new DomainError(result.error.startsWith('conflict') ? 'conflict' : 'invalid', result.error, {
        issues: result.issues ?? [],
      });
    }
    return { id: result.id, warnings: result.warnings ?? [] };
  }

  /**
   * Creates many records, answering per item: items that fail preparation, name an unknown source or repeat an
   * external id are refused one by one; the others are written together in one transaction.
   */
  async createRecords(
    inputs: readonly RecordInput[],
    by: string | null,
    options: { logKind?: 'record.created' | 'record.imported' } = {},
  ): Promise<ItemResult[]> {
    const at = this.now();
    const results: ItemResult[] = [];
    const rows: RecordTable[] = [];
    const keys: { key: string; record_id: string }[] = [];
    const written: { index: number; id: string; warnings: FieldIssue[] }[] = [];
    await this.store.transaction(async (trx) => {
      const places = withStoredAliases(await new PlaceRepository(trx).aliasKeys());
      const sources = new Map<string, boolean>();
      const seen = new Set<string>();
      const taken = new Map<string, Set<string>>();
      for (const input of inputs) {
        if (!input.externalId) continue;
        const list = taken.get(input.sourceId) ?? new Set<string>();
        list.add(input.externalId);
        taken.set(input.sourceId, list);
      }
      for (const [sourceId, ids] of taken) {
        taken.set(sourceId, await this.records(trx).existingExternalIds(sourceId, [...ids]));
      }
      for (const [index, input] of inputs.entries()) {
        if (!sources.has(input.sourceId)) {
          sources.set(input.sourceId, await new LookupRepository(trx).exists('sources', input.sourceId));
        }
        if (!sources.get(input.sourceId)) {
          results.push({
            index,
            ok: false,
            error: `source ${input.sourceId} does not exist`,
            issues: [{ field: 'source', message: 'unknown source' }],
          });
          continue;
        }
        if (input.externalId) {
          const key = `${input.sourceId}\u0000${input.externalId}`;
          if (seen.has(key) || taken.get(input.sourceId)?.has(input.externalId)) {
            results.push({
              index,
              ok: false,
              error: `conflict: the source already has a record with external id ${input.externalId}`,
              issues: [{ field: 'record_id', message: 'already present in this source' }],
            });
            continue;
          }
          seen.add(key);
        }
        const prepared = prepareRecord(input.fields, places);
        if (!prepared.ok) {
          results.push({
            index,
            ok: false,
            error: prepared.errors.map((e) => `${e.field}: ${e.message}`).join('; '),
            issues: prepared.errors,
          });
          continue;
        }
        const made = recordRow(input, prepared, at, by);
        rows.push(made.row);
        keys.push(...made.keys);
        written.push({ index, id: made.row.id, warnings: prepared.warnings });
        results.push({
          index,
          ok: true,
          id: made.row.id,
          ...(prepared.warnings.length ? { warnings: prepared.warnings } : {}),
        });
      }
      await storeNewRecords(trx, this.store.capabilities, rows, keys, {
        logKind: options.logKind ?? 'record.created',
        at,
        by,
      });
    });
    if (rows.length > 0) tracingQueued(this.store);
    return results;
  }

  async record(id: string): Promise<RecordView | undefined> {
    return this.records().get(id);
  }

  /**
   * A record as its caller may read it (audited). A record whose family withdrew consent to internal use is, for
   * every role but the liaisons, not there.
   */
  async readRecord(id: string, caller: Caller): Promise<RecordView> {
    const record = await this.records().get(id);
    if (!record || (await hiddenFrom(this.store.db, caller, [record])).size > 0) {
      throw new DomainError('not_found', `no record ${id}`);
    }
    await this.audit.record(caller, { action: 'read', subjectType: 'record', subjectId: record.id });
    return record;
  }

  /**
   * A record's page (audited as a read of the record): the record as its source gave it, its claims, the events
   * it reports, and every link it had — who linked it to which person, when, on what basis, and who undid it.
   */
  async readRecordPage(id: string, caller: Caller) {
    const record = await this.readRecord(id, caller);
    const db = this.store.db;
    return {
      record,
      assertions: await new AssertionRepository(db).about([], [id]),
      events: await new EventRepository(db).ofRecord(id),
      links: await new RecordLinkRepository(db).history(id),
    };
  }

  /** A person as its caller may read it (audited): records withheld by consent, and what rests on them, left out. */
  async readPerson(id: string, caller: Caller): Promise<PersonView> {
    const person = await this.person(id);
    if (!person) throw new DomainError('not_found', `no person ${id}`);
    await this.audit.record(caller, { action: 'read', subjectType: 'person', subjectId: person.id });
    const hidden = await hiddenFrom(this.store.db, caller, person.records);
    if (hidden.size === 0) return person;
    return {
      ...person,
      records: person.records.filter((r) => !hidden.has(r.id)),
      events: person.events.filter((e) => e.record_id === null || !hidden.has(e.record_id)),
      assertions: person.assertions.filter((a) => a.record_id === null || !hidden.has(a.record_id)),
    };
  }

  /** Claims about a record or a person, appended; the claim's time defaults to now. */
  async addAssertion(
    input: {
      recordId?: string | null;
      personId?: string | null;
      kind: string;
      statement?: string | null;
      assertedAt?: string | null;
      sourceId?: string | null;
    },
    by: string | null,
  ): Promise<AssertionTable> {
    return this.store.transaction(async (trx) => {
      if (input.recordId) {
        if (!(await new LookupRepository(trx).exists('records', input.recordId))) {
          throw new DomainError('not_found', `no record ${input.recordId}`);
        }
      }
      if (input.personId) await this.requirePerson(trx, input.personId);
      if (input.sourceId) await this.requireSource(trx, input.sourceId);
      const at = this.now();
      return new AssertionRepository(trx).add({
        record_id: input.recordId ?? null,
        person_id: input.personId ?? null,
        kind: input.kind,
        statement: input.statement ?? null,
        asserted_at: input.assertedAt ?? at,
        asserted_by: by,
        source_id: input.sourceId ?? null,
        created_at: at,
        created_by: by,
      });
    });
  }

  private async requirePerson(db: Db, personId: string): Promise<void> {
    if (!(await new LookupRepository(db).exists('persons', personId)))
      throw new DomainError('not_found', `no person ${personId}`);
  }

  /** The person as athar now understands it: linked records with their sources and links, and what is said of it. */
  async person(asked: string): Promise<PersonView | undefined> {
    const personId = await resolvePersonId(this.store.db, asked);
    if (!personId) return undefined;
    const page = await new PersonPageRepository(this.store.db, this.store.capabilities).load(personId);
    if (!page) return undefined;
    const { person, records, relations, identifications } = page;
    const events = page.events.sort((a, b) => {
      const x = a.date_start ?? '';
      const y = b.date_start ?? '';
      return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1;
    });
    const assertions = page.assertions.sort((a, b) =>
      a.asserted_at < b.asserted_at ? -1 : a.asserted_at > b.asserted_at ? 1 : a.id < b.id ? -1 : 1,
    );
    const withLinks = records.map(({ link, ...r }) => ({
      ...r,
      link: {
        id: link.id,
        recordId: link.record_id,
        personId: link.person_id,
        linkedAt: link.linked_at,
        linkedBy: link.linked_by,
        basis: link.basis,
        decisionId: link.decision_id,
        note: link.note,
        unlinkedAt: link.unlinked_at,
        unlinkedBy: link.unlinked_by,
        unlinkReason: link.unlink_reason,
      },
    }));
    const byModel = withLinks.filter((r) => r.link.basis === 'model').map((r) => r.link.id);
    if (byModel.length > 0) {
      const provenance = await new TracingRepository(this.store.db, this.store.capabilities).modelLinks(
        byModel,
      );
      for (const r of withLinks) {
        const m = provenance.get(r.link.id);
        if (!m) continue;
        (r.link as RecordLink & { model?: ModelBasis }).model = {
          runId: m.run_id,
          modelVersion: m.model_version,
          matchedRecord: m.matched_record,
          probability: m.probability,
          matchWeight: m.match_weight,
          explanation: m.explanation ? JSON.parse(m.explanation) : null,
        };
      }
    }
    const confirmed = identifications.some((i) => i.status === 'confirmed' || i.status === 'family_informed');
    return {
      id: person.id,
      ...(person.id !== asked ? { mergedFrom: asked } : {}),
      createdAt: person.created_at,
      status: deriveCaseStatus(
        assertions.map((a) => ({ kind: a.kind, assertedAt: a.asserted_at })),
        { confirmedIdentification: confirmed },
      ),
      records: withLinks,
      events,
      relations,
      assertions,
      identifications: identifications.map((i) => ({
        id: i.id,
        evidenceId: i.evidence_id,
        status: i.status,
      })),
    };
  }

  /**
   * The case status of each record: its person's status when linked (claims on the person and on all its records),
   * else its own claims'. One query per table, whatever the number of records.
   */
  async statusOfRecords(
    records: readonly Pick<RecordView, 'id' | 'person_id'>[],
  ): Promise<Map<string, CaseStatus>> {
    const db = this.store.db;
    const personIds = [...new Set(records.map((r) => r.person_id).filter((p): p is string => p !== null))];
    const members = await new RecordLinkRepository(db).membersOf(personIds);
    const recordIds = [...new Set([...records.map((r) => r.id), ...[...members.values()].flat()])];
    const claims = await new AssertionRepository(db).about(personIds, recordIds);
    const confirmed = await new IdentificationRepository(db).confirmedAmong(personIds);
    const out = new Map<string, CaseStatus>();
    for (const r of records) {
      const scope = new Set(r.person_id ? (members.get(r.person_id) ?? []) : [r.id]);
      const own = claims.filter(
        (c) =>
          (c.record_id !== null && scope.has(c.record_id)) ||
          (r.person_id !== null && c.person_id === r.person_id),
      );
      out.set(
        r.id,
        deriveCaseStatus(
          own.map((c) => ({ kind: c.kind, assertedAt: c.asserted_at })),
          { confirmedIdentification: r.person_id !== null && confirmed.has(r.person_id) },
        ),
      );
    }
    return out;
  }

  /** Refuses to put records of persons known to be different people under one person, unless forced with a note. */
  private async guardSamePerson(
    db: Db,
    personIds: readonly string[],
    force: boolean,
    note: string | null | undefined,
  ) {
    const distinct = [...new Set(personIds)];
    const relations = new RelationRepository(db);
    for (let i = 0; i < distinct.length; i++) {
      for (let j = i + 1; j < distinct.length; j++) {
        const against = await relations.between(
          distinct[i] as string,
          distinct[j] as string,
          relationsAgainstSamePerson,
        );
        if (against.length === 0) continue;
        if (force && note && note.trim() !== '') continue;
        const r = against[0] as RelationTable;
        throw new DomainError(
          'conflict',
          `persons ${r.person_a} and ${r.person_b} are recorded as ${r.type} (${r.certainty}, relation ${r.id}): a same-person link is refused unless forced with a note`,
        );
      }
    }
  }

  /** A new person of one for a record taken out of another, by hand. */
  private async ownPerson(
    trx: Db,
    recordId: string,
    by: string,
    at: string,
    note: string,
  ): Promise<RecordLink> {
    const links = new RecordLinkRepository(trx);
    const personId = await links.createPerson(at, by);
    const link = await links.open({ recordId, personId, at, by, basis: 'manual', note });
    await recordLinked(trx, link);
    return link;
  }

  /** Opens a manual link, moving the record from its current person if it has one. */
  private async openLink(
    trx: Db,
    recordId: string,
    personId: string,
    by: string,
    at: string,
    note: string | null,
  ) {
    const links = new RecordLinkRepository(trx);
    const current = await links.active(recordId);
    if (current?.personId === personId) return current;
    if (current) {
      const closed = await links.close(current.id, at, by, `moved to person ${personId}`);
      if (closed) await recordUnlinked(trx, closed);
    }
    const link = await links.open({ recordId, personId, at, by, basis: 'manual', note });
    await recordLinked(trx, link);
    return link;
  }

  /** A new person made of these records (each moved from its current person, if any). */
  async createPerson(
    recordIds: readonly string[],
    by: string,
    options: { note?: string | null; force?: boolean } = {},
  ): Promise<{ id: string; links: RecordLink[] }> {
    if (recordIds.length === 0)
      throw new DomainError('invalid', 'name at least one record', {
        issues: [{ field: 'record', message: 'recordIds is empty' }],
      });
    return this.store.transaction(async (trx) => {
      const current: string[] = [];
      for (const recordId of new Set(recordIds)) {
        if (!(await new LookupRepository(trx).exists('records', recordId))) {
          throw new DomainError('not_found', `no record ${recordId}`);
        }
        const active = await new RecordLinkRepository(trx).active(recordId);
        if (active) current.push(active.personId);
      }
      await this.guardSamePerson(trx, current, options.force === true, options.note);
      const at = this.now();
      const personId = await new RecordLinkRepository(trx).createPerson(at, by);
      const links: RecordLink[] = [];
      for (const recordId of new Set(recordIds)) {
        links.push(await this.openLink(trx, recordId, personId, by, at, options.note ?? null));
      }
      await settlePersons(trx, current, at);
      return { id: personId, links };
    });
  }

  /** Links a record to a person, with who, when and why; refused (conflict) against a known family relation. */
  async link(
    personId: string,
    recordId: string,
    by: string,
    options: { note?: string | null; force?: boolean } = {},
  ): Promise<RecordLink> {
    return this.store.transaction(async (trx) => {
      await this.requirePerson(trx, personId);
      if (!(await new LookupRepository(trx).exists('records', recordId))) {
        throw new DomainError('not_found', `no record ${recordId}`);
      }
      const active = await new RecordLinkRepository(trx).active(recordId);
      if (active && active.personId !== personId) {
        await this.guardSamePerson(trx, [personId, active.personId], options.force === true, options.note);
      }
      const at = this.now();
      const link = await this.openLink(trx, recordId, personId, by, at, options.note ?? null);
      await settlePersons(trx, [personId, ...(active ? [active.personId] : [])], at);
      return link;
    });
  }

  /**
   * Undoes a link: closes it with the reason, and gives the record back to the person it was moved from, if that
   * link was closed by this one.
   */
  async undoLink(
    personId: string,
    linkId: string,
    by: string,
    reason: string,
  ): Promise<{ closed: RecordLink; restored?: RecordLink }> {
    return this.store.transaction(async (trx) => {
      const links = new RecordLinkRepository(trx);
      const link = await links.get(linkId);
      if (!link || link.personId !== personId)
        throw new DomainError('not_found', `person ${personId} has no link ${linkId}`);
      if (link.unlinkedAt !== null) throw new DomainError('conflict', `link ${linkId} was already closed`);
      const at = this.now();
      const closed = await links.close(linkId, at, by, `undone: ${reason}`);
      if (!closed) throw new DomainError('conflict', `link ${linkId} was already closed`);
      await recordUnlinked(trx, closed);
      const moved = (await links.history(link.recordId)).find(
        (l) => l.unlinkReason === `moved to person ${personId}` && l.unlinkedAt === link.linkedAt,
      );
      // Every record belongs to a person: one moved here goes back where it came from, another becomes a person
      // of its own; either way the model never puts it with this person's records again.
      const restored = moved
        ? await reopenMovedLink(trx, moved, at, by, `restored: link ${linkId} undone`)
        : await this.ownPerson(trx, link.recordId, by, at, `split from person ${personId}: ${reason}`);
      const stayed = await links.activeOfPerson(personId);
      await new TracingRepository(trx, this.store.capabilities).keepApart(
        stayed.map((s) => ({
          record_id: link.recordId,
          other_record_id: s.recordId,
          created_at: at,
          created_by: by,
          reason,
        })),
      );
      await settlePersons(trx, [personId, restored.personId], at);
      return { closed, restored };
    });
  }

  /** Adds an event to a person or a record; dates are read at their precision, places through the gazetteer. */
  async addEvent(
    input: {
      personId?: string | null;
      recordId?: string | null;
      type: (typeof eventTypes)[number];
      dateStart?: string | null;
      dateEnd?: string | null;
      datePrecision?: (typeof datePrecisions)[number] | null;
      place?: string | null;
      branch?: string | null;
      governorate?: string | null;
      description?: string | null;
    },
    by: string,
  ): Promise<EventTable> {
    const issues: FieldIssue[] = [];
    if (!input.personId && !input.recordId) {
      throw new DomainError('invalid', 'name a person or a record', {
        issues: [{ field: 'record', message: 'personId or recordId is required' }],
      });
    }
    const date = (raw: string | null | undefined, field: string) => {
      const parsed = parseDate(raw);
      if (parsed.kind === 'invalid') {
        issues.push({ field: 'record', message: `${field}: ${JSON.stringify(raw)} is not a date` });
        return { text: null, precision: 'unknown' as const };
      }
      if (parsed.kind === 'empty') return { text: null, precision: 'unknown' as const };
      const d = parsed.date;
      return {
        text: formatDate(d),
        precision: d.day ? ('day' as const) : d.month ? ('month' as const) : ('year' as const),
      };
    };
    const start = date(input.dateStart, 'dateStart');
    const end = date(input.dateEnd, 'dateEnd');
    const branch = input.branch ? resolveBranch(input.branch) : undefined;
    if (input.branch && !branch)
      issues.push({
        field: 'arresting_branch',
        message: `branch: ${JSON.stringify(input.branch)} is not a known branch`,
      });
    const governorate = input.governorate ? resolveGovernorate(input.governorate) : undefined;
    if (input.governorate && !governorate)
      issues.push({
        field: 'governorate',
        message: `governorate: ${JSON.stringify(input.governorate)} is not a known governorate`,
      });
    if (issues.length > 0)
      throw new DomainError('invalid', issues.map((i) => i.message).join('; '), { issues: issues });
    return this.store.transaction(async (trx) => {
      if (input.personId) await this.requirePerson(trx, input.personId);
      if (input.recordId) {
        if (!(await new LookupRepository(trx).exists('records', input.recordId))) {
          throw new DomainError('not_found', `no record ${input.recordId}`);
        }
      }
      const row: EventTable = {
        id: newId(),
        person_id: input.personId ?? null,
        record_id: input.recordId ?? null,
        type: input.type,
        date_start: start.text,
        date_end: end.text,
        date_precision:
          input.datePrecision ?? (end.text && end.text !== start.text ? 'range' : start.precision),
        place: input.place ?? null,
        governorate_id: governorate?.id ?? branch?.governorate ?? null,
        branch_id: branch?.id ?? null,
        description: input.description ?? null,
        created_at: this.now(),
        created_by: by,
      };
      await new EventRepository(trx).insert(row);
      return row;
    });
  }

  async addRelation(
    input: {
      personA: string;
      personB: string;
      type: (typeof relationTypes)[number];
      certainty: (typeof certainties)[number];
      note?: string | null;
    },
    by: string,
  ): Promise<RelationTable> {
    if (input.personA === input.personB) {
      throw new DomainError('invalid', 'a relation joins two different persons', {
        issues: [{ field: 'record', message: 'personA equals personB' }],
      });
    }
    return this.store.transaction(async (trx) => {
      await this.requirePerson(trx, input.personA);
      await this.requirePerson(trx, input.personB);
      return new RelationRepository(trx).add({
        person_a: input.personA,
        person_b: input.personB,
        type: input.type,
        certainty: input.certainty,
        note: input.note ?? null,
        created_at: this.now(),
        created_by: by,
      });
    });
  }

  async retractRelation(id: string, by: string, reason: string): Promise<RelationTable> {
    return this.store.transaction(async (trx) => {
      const repo = new RelationRepository(trx);
      const existing = await repo.get(id);
      if (!existing) throw new DomainError('not_found', `no relation ${id}`);
      const retracted = await repo.retract(id, this.now(), by, reason);
      if (!retracted) throw new DomainError('conflict', `relation ${id} was already retracted`);
      return retracted;
    });
  }
}
