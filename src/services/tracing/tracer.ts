import { hostname } from 'node:os';
import { relationsAgainstSamePerson } from '../../domain/registry.js';
import { reviewPriority } from '../../domain/review.js';
import { nextTurn, turnsEvery } from '../../event-loop.js';
import { identifierKey } from '../../evidence/identifiers.js';
import { newId, nowIso } from '../../ids.js';
import type { LinkageModel } from '../../linkage/model.js';
import { DecisionRepository } from '../../store/repositories/decisions.js';
import { IdentificationRepository } from '../../store/repositories/identifications.js';
import { MatchRecordRepository } from '../../store/repositories/match-records.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import { RelationRepository } from '../../store/repositories/relations.js';
import { type QueuedItem, TracingRepository } from '../../store/repositories/tracing.js';
import type { Store } from '../../store/store.js';
import { startWorker } from '../../worker-entry.js';
import { readModelFile } from '../batch/linkage-model-file.js';
import type { AppContext } from '../context.js';
import { type IdentificationService, matcherActor } from '../review/identifications.js';
import { RegistryMatcher, recordFields } from '../review/registry-matcher.js';
import { ReviewService } from '../review/review.js';
import { cardsOf, detaineeKeysNamed, evidenceNamingDetainee, matchCard } from './card-matcher.js';
import { takeTracingLock } from './lock.js';
import { type ModelMerge, mergeByModel } from './moves.js';
import { humanBases, type TracingPolicy, tracingPolicy } from './policy.js';
import { type RegistryLinkSummary, runRegistryLink } from './registry-link.js';
import type { RegistryLinkJob, RegistryLinkReply } from './registry-link-worker.js';
import { storeReportCandidates } from './report-candidates.js';
import { tracingSignal } from './signal.js';

export interface TraceSummary {
  records: number;
  labels: number;
  /** Records the model linked into another person. */
  linked: number;
  reviewPairs: number;
  reportCandidates: number;
  identificationsProposed: number;
  /** The backlog was large: a registry-wide run did the work instead. */
  fullRun?: string;
}

/** A queue this long (and this share of the registry) is linked by a registry-wide run rather than record by record. */
const fullRunFrom = { records: 50_000, share: 0.2 };

interface GuardFacts {
  /** Record pairs kept apart (a reviewer's rejection, a record taken out by a person). */
  apart: ReadonlySet<string>;
  /** Person pairs recorded as relatives. */
  relatives: ReadonlySet<string>;
  /**
   * Judges the lists (source ids) the match index has no fresh verdict on (it remembers its verdicts), and asks the
   * registry, once a batch, whether people joined two records of one of them.
   */
  judge(sources: readonly number[]): Promise<void>;
  /** Whether a judged list names each person once: the index says so and no person has joined two of its records. */
  listOnce(source: number): boolean;
}

/** The lists (source ids) that give a record to each of two persons. */
function sharedLists(a: readonly string[], b: readonly string[], index: RegistryMatcher['index']): number[] {
  const f = index.features;
  const sourceOf = (id: string) => {
    const i = index.indexOf(id);
    return i < 0 ? -1 : (f.source[i] as number);
  };
  const inA = new Set(a.map(sourceOf));
  return [...new Set(b.map(sourceOf))].filter((s) => s >= 0 && inA.has(s));
}

const pairId = (x: string, y: string) => (x < y ? `${x}|${y}` : `${y}|${x}`);
const batchSize = 500;
const pollMs = 500;
/** The longest the loop computes before letting the server answer what waits (a /healthz, a page). */
const sliceMs = 20;

/**
 * The tracing loop (docs/tracing.md): keeps the registry's match index in memory (built at start, added to as
 * records arrive — from this process or any other, through the queue), and takes the queue in order: each new
 * record, imported batch and family report is matched against the registry and goes through the policy (linked
 * at autoLinkAt when the guard lets it, a review pair from reviewFrom, a report's candidates kept); each new card
 * label is compared with the registry and may become an identification proposal. Every step is idempotent, so a
 * batch cut short by a kill is done again; an item leaves the queue once done.
 */
export class Tracer {
  private matcher: RegistryMatcher | undefined;
  private opening: Promise<RegistryMatcher> | undefined;
  private readonly model: LinkageModel;
  private readonly policy: TracingPolicy;
  private readonly owner = `${hostname()}:${process.pid}:loop:${newId()}`;
  private running: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private unlisten: (() => void) | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly identifications: IdentificationService,
    options: { model?: LinkageModel } = {},
  ) {
    this.model = options.model ?? readModelFile();
    this.policy = tracingPolicy(this.model);
  }

  private get store(): Store {
    return this.ctx.store;
  }

  /** Builds the match index and keeps taking the queue until stopped; `onError` hears what a batch could not do. */
  start(onError: (error: unknown) => void = () => {}): void {
    if (this.running) return;
    const onQueued = () => this.wake?.();
    tracingSignal(this.store).on('queued', onQueued);
    this.unlisten = () => tracingSignal(this.store).off('queued', onQueued);
    this.running = (async () => {
      await new TracingRepository(this.store.db, this.store.capabilities).interruptOrphans(
        nowIso(this.ctx.clock),
      );
      // The index is built now, not on the first record: at 1M records it takes tens of seconds, which the first
      // import after a start would otherwise wait for.
      try {
        await this.index();
      } catch (error) {
        onError(error);
      }
      while (!this.stopping) {
        let done = 0;
        try {
          done = (await this.processPending({ limit: batchSize * 4 })).records;
        } catch (error) {
          onError(error);
        }
        if (done === 0 && !this.stopping) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.wake = undefined;
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
    this.running = undefined;
    this.unlisten?.();
  }

  /**
   * A registry-wide run for a large backlog: on a thread of its own when the store says how to open it again, so
   * that its seconds of blocking, scoring and clustering leave the server answering (registry-link-worker.ts).
   */
  private async registryWideRun(): Promise<RegistryLinkSummary> {
    const database = this.store.database;
    if (!database)
      return runRegistryLink(this.store, { model: this.model, clock: this.ctx.clock, waitMs: 5000 });
    const job: RegistryLinkJob = { database, model: this.model, waitMs: 5000 };
    const worker = startWorker(import.meta.url, 'registry-link-worker', { workerData: job });
    return new Promise<RegistryLinkSummary>((resolve, reject) => {
      let replied = false;
      worker.once('message', (reply: RegistryLinkReply) => {
        replied = true;
        if (reply.ok) resolve(reply.summary);
        else reject(new Error(reply.message));
      });
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (!replied) reject(new Error(`the registry-wide run's thread exited with code ${code}`));
      });
    });
  }

  /** The index, built at start (or on first use when the loop is not running) from every stored record. */
  async index(): Promise<RegistryMatcher> {
    this.opening ??= RegistryMatcher.open(this.store, this.model).then((m) => {
      this.matcher = m;
      return m;
    });
    try {
      return await this.opening;
    } catch (error) {
      this.opening = undefined; // tried again next time
      throw error;
    }
  }

  /** Records in the match index once it is built, else null. */
  get indexedRecords(): number | null {
    return this.matcher?.size ?? null;
  }

  /** Takes up to `limit` queued items now (all of them by default): what the loop does each turn. */
  async processPending(options: { limit?: number } = {}): Promise<TraceSummary> {
    const tracing = new TracingRepository(this.store.db, this.store.capabilities);
    const summary: TraceSummary = {
      records: 0,
      labels: 0,
      linked: 0,
      reviewPairs: 0,
      reportCandidates: 0,
      identificationsProposed: 0,
    };
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    let lastSeq = 0;
    // A server stopping waits for the batch at hand only: what is left stays queued for its next start.
    while (summary.records + summary.labels < limit && !this.stopping) {
      const items = await tracing.take(
        Math.min(batchSize, limit - summary.records - summary.labels),
        lastSeq,
      );
      if (items.length === 0) break;
      let lock: Awaited<ReturnType<typeof takeTracingLock>>;
      try {
        lock = await takeTracingLock(this.store, this.owner, null, { clock: this.ctx.clock });
      } catch {
        break; // a registry-wide run holds the registry: it will cover these records, or the next turn will
      }
      try {
        const matcher = await this.index();
        const backlog = await tracing.pending();
        if (backlog >= fullRunFrom.records && backlog >= fullRunFrom.share * matcher.size) {
          await lock.release(); // the run takes the lock itself
          const run = await this.registryWideRun();
          await matcher.refresh();
          summary.fullRun = run.runId;
          summary.records += run.records;
          continue;
        }
        await this.traceRecords(
          items.filter((i) => i.kind === 'record'),
          matcher,
          summary,
        );
        for (const item of items) if (item.kind === 'label') await this.traceLabel(item, summary);
        await tracing.done(items.map((i) => i.seq));
        lastSeq = (items[items.length - 1] as QueuedItem).seq;
        await lock.renew();
      } finally {
        await lock.release();
      }
    }
    return summary;
  }

  /**
   * New records, a batch at a time: into the index, each matched against the registry (its top candidates), and
   * through the policy — the merges of the batch in one transaction, its review pairs a thousand at a time. The persons
   * of the batch are read once and followed as the batch merges them, so a chain of merges within it is guarded
   * against every record it would join.
   */
  private async traceRecords(items: readonly QueuedItem[], matcher: RegistryMatcher, summary: TraceSummary) {
    summary.records += items.length;
    const rows = await new MatchRecordRepository(this.store.db).getMany(items.map((i) => i.subjectId));
    if (rows.length === 0) return;
    const index = matcher.index;
    // Reading the batch and adding it to the index are work of their own: requests get a turn between them, and
    // every sliceMs while records are added (tracing-yields.test, on a slow machine).
    await nextTurn();
    let turn = turnsEvery(sliceMs);
    for (const row of rows) {
      index.add(row.id, recordFields(row));
      await turn();
    }
    await nextTurn();
    // Matching is the loop's long computation, on the server's own event loop: it lets requests in every sliceMs
    // (a batch of 500 against a large registry, or one full of a common name, took seconds: issue 21, Reliability 5).
    // Candidates below the lowest probability the policy uses (a report's) are left at once: their persons need
    // not be read.
    const floor = Math.min(this.policy.reviewFrom, this.policy.candidatesFrom);
    const matched: { row: (typeof rows)[number]; candidates: ReturnType<typeof index.topFor> }[] = [];
    turn = turnsEvery(sliceMs);
    for (const row of rows) {
      // A registry record gets the candidates `athar link` would give it (the linking rules' blocks), so the loop and
      // the registry-wide run weigh the same pairs; a family report keeps the broad, spelling-tolerant search (its
      // top k): a family deserves the wide net, and a report is one query, not one of thousands.
      const candidates =
        row.kind === 'family_report' ? index.topFor(row.id, this.policy.k) : index.linkedFor(row.id);
      matched.push({ row, candidates: candidates.filter((c) => c.probability >= floor) });
      await turn();
    }
    const links = new RecordLinkRepository(this.store.db);
    const personOfRecord = new Map<string, string>();
    const involved = [...new Set(matched.flatMap((m) => [m.row.id, ...m.candidates.map((c) => c.recordId)]))];
    for (const [record, link] of await links.activeOf(involved)) personOfRecord.set(record, link.personId);
    const members = await links.membersOf([...new Set(personOfRecord.values())]);
    const guard = await this.guardFacts(members, index);
    const at = nowIso(this.ctx.clock);
    const runId = `loop-${at.slice(0, 10)}`;
    const merges: ModelMerge[] = [];
    const review: Parameters<ReviewService['propose']>[0][number][] = [];
    // Persons as the batch's merges leave them: where each merged person went, and each person's records.
    const wentTo = new Map<string, string>();
    const current = (p: string) => {
      let q = p;
      while (wentTo.has(q)) q = wentTo.get(q) as string;
      return q;
    };
    turn = turnsEvery(sliceMs);
    for (const { row, candidates } of matched) {
      // The policy scores guards and draws waterfalls: a record of a common name has dozens of candidates from the
      // linking rules (not a top 10), so this stretch lets requests in too.
      await turn();
      const isReport = row.kind === 'family_report';
      // A report's candidates come from the match (topFor), which may read a register line's names family first.
      const explain = (other: string) =>
        (isReport ? index.explainMatch(row.id, other) : index.explainPair(row.id, other)) ?? null;
      // A registry record with no name is linked only through its numbers: its partners are the records of its
      // detainee number under its branch (blocking's withoutName rule). A report is matched by its names, so one
      // with none, or with only a first name, is never linked by the model (it is matched, and its candidates kept,
      // but a person decides).
      const namelessReport = isReport && !index.features.hasName(index.indexOf(row.id));
      const firstNameOnly =
        isReport &&
        !row.father_name &&
        !row.family_name &&
        !row.grandfather_name &&
        !hasMoreThanOneWord(row.full_name);
      const mayLink = !namelessReport && !firstNameOnly;
      for (const c of candidates) {
        if (c.probability < this.policy.reviewFrom) continue;
        const mineAt = personOfRecord.get(row.id);
        const theirsAt = personOfRecord.get(c.recordId);
        if (!mineAt || !theirsAt) continue;
        const mine = current(mineAt);
        const theirs = current(theirsAt);
        if (mine === theirs) continue;
        const a = members.get(mine) ?? [];
        const b = members.get(theirs) ?? [];
        const linkable = mayLink && c.probability >= this.policy.autoLinkAt;
        // The lists that give a record to each of the two persons: judged (once, remembered) before the guard asks.
        if (linkable) await guard.judge(sharedLists(a, b, index));
        if (linkable && this.guardLets(a, b, mine, theirs, guard, index)) {
          // The smaller person joins the larger (the new record, usually a person of one, joins the registry's).
          const [from, into] = a.length <= b.length ? [mine, theirs] : [theirs, mine];
          merges.push({
            from,
            into,
            record: row.id,
            matched: c.recordId,
            probability: c.probability,
            matchWeight: c.weight,
            explanation: explain(c.recordId),
            modelVersion: this.model.version,
            runId,
          });
          wentTo.set(from, into);
          members.set(into, [...(members.get(into) ?? []), ...(members.get(from) ?? [])]);
          members.set(from, []);
          continue;
        }
        const refused = c.probability >= this.policy.autoLinkAt;
        review.push({
          recordA: row.id,
          recordB: c.recordId,
          probability: c.probability,
          matchWeight: c.weight,
          modelVersion: this.model.version,
          explanation: explain(c.recordId) ?? undefined,
          priority: reviewPriority({
            probability: refused ? 0.5 : c.probability,
            familyReport: isReport,
            records: a.length + b.length,
          }),
        });
      }
    }
    // The policy's last slice and the merges' transaction are each a stretch of their own.
    await nextTurn();
    if (merges.length > 0) summary.linked += await mergeByModel(this.store, merges, at);
    if (review.length > 0) {
      summary.reviewPairs += (
        await new ReviewService(this.store, { clock: this.ctx.clock }).propose(review)
      ).proposed;
    }
    // Which detainee numbers of the batch a card names at all: a few queries, not two for every record.
    const keyOf = (row: (typeof rows)[number]) =>
      row.detainee_number ? identifierKey(row.detainee_number) : '';
    const named = await detaineeKeysNamed(this.store.db, rows.map(keyOf).filter(Boolean));
    for (const { row, candidates } of matched) {
      if (row.kind === 'family_report') {
        summary.reportCandidates += await storeReportCandidates(
          this.store,
          row.id,
          candidates
            .filter((c) => c.probability >= this.policy.candidatesFrom)
            .map((c) => ({
              recordId: c.recordId,
              weight: c.weight,
              explanation: index.explainMatch(row.id, c.recordId) ?? null,
            })),
          this.model.version,
          at,
        );
      }
      // A record with a detainee number may be named on a card already labelled.
      if (row.detainee_number && named.has(keyOf(row)))
        await this.cardsNaming(row.id, row.detainee_number, summary);
    }
  }

  /** What the guard needs to know of these persons' records, read once for a batch. */
  private async guardFacts(
    members: ReadonlyMap<string, readonly string[]>,
    index: RegistryMatcher['index'],
  ): Promise<GuardFacts> {
    const records = [...new Set([...members.values()].flat())];
    const tracing = new TracingRepository(this.store.db, this.store.capabilities);
    const apart = new Set<string>();
    for (const [x, y] of await tracing.keptApartFrom(records)) apart.add(pairId(x, y));
    const rejected = new DecisionRepository(this.store.db);
    for (const [x, y] of await rejected.rejectedAmong(records)) apart.add(pairId(x, y));
    const relatives = new Set<string>();
    for (const r of await new RelationRepository(this.store.db).standingAmong(
      [...members.keys()],
      relationsAgainstSamePerson,
    ))
      relatives.add(pairId(r.person_a, r.person_b));
    // Per list (source id), whether people joined two of its records: as `athar registry link` counts a reviewer's
    // match and a person made by hand (its mustLink), which the index's judgement of the model's pairs does not see.
    const joinedByPeople = new Map<number, boolean>();
    return {
      apart,
      relatives,
      judge: async (sources) => {
        await index.judgeLists(sources, nextTurn);
        // Only a list the index takes to name each person once needs asking (the query reads the list's links).
        const unknown = sources.filter((s) => !joinedByPeople.has(s) && index.listNamesEachOnce(s));
        if (unknown.length === 0) return;
        const names = index.features.sources.values;
        const joined = await tracing.listsJoinedByPeople(
          unknown.map((s) => names[s] as string),
          [...humanBases],
        );
        for (const s of unknown) joinedByPeople.set(s, joined.has(names[s] as string));
      },
      listOnce: (source) => joinedByPeople.get(source) !== true && index.listNamesEachOnce(source),
    };
  }

  /**
   * The clustering guard for two persons: no reviewer kept a pair of their records apart, no person took one out
   * of the other, they are not recorded as relatives, no source gives them two different detainee numbers, no list
   * that names each person once gives both of them unless its two records are one person beyond doubt, and no pair
   * of their records clearly disagrees (scores below the guard with evidence against it).
   */
  private guardLets(
    ra: readonly string[],
    rb: readonly string[],
    a: string,
    b: string,
    facts: GuardFacts,
    index: RegistryMatcher['index'],
  ): boolean {
    if (ra.length * rb.length > 2500) return false;
    if (facts.relatives.has(pairId(a, b))) return false;
    for (const x of ra) for (const y of rb) if (facts.apart.has(pairId(x, y))) return false;
    const guardWeight = this.guardWeight(index);
    const beyondDoubt = index.duplicateWeight();
    const against = -(this.model.clustering.minDisagreement ?? 1);
    const f = index.features;
    for (const x of ra) {
      for (const y of rb) {
        const ix = index.indexOf(x);
        const iy = index.indexOf(y);
        if (ix < 0 || iy < 0) continue;
        const sx = f.source[ix] as number;
        const sameList = sx >= 0 && sx === f.source[iy];
        const dx = f.detainee[ix] as number;
        const dy = f.detainee[iy] as number;
        if (sameList && dx >= 0 && dy >= 0 && dx !== dy) return false;
        const scored = index.pair(x, y);
        if (!scored) continue;
        // Two records of a list that names each person once are two people unless their own pair is beyond doubt
        // (as `athar registry link` keeps them: clustering `listsNamingOnce`).
        if (sameList && scored.weight < beyondDoubt && facts.listOnce(sx)) return false;
        if (scored.weight >= guardWeight) continue;
        if (scored.disagreement <= against) return false;
      }
    }
    return true;
  }

  private guardWeight(index: RegistryMatcher['index']): number {
    const p = this.model.clustering.minCrossProbability;
    return Math.log2(p / (1 - p)) - index.priorWeight();
  }

  /** One evidence item with new labels: its cards compared with the registry; a match becomes a proposal. */
  private async traceLabel(item: QueuedItem, summary: TraceSummary): Promise<void> {
    summary.labels++;
    for (const card of await cardsOf(this.store.db, item.subjectId)) {
      for (const match of await matchCard(this.store.db, this.store.capabilities, card)) {
        summary.identificationsProposed += await this.propose(item.subjectId, match.personId, match.basis);
      }
    }
  }

  /** Cards already labelled that name this record's detainee number. */
  private async cardsNaming(recordId: string, detaineeNumber: string, summary: TraceSummary): Promise<void> {
    const key = identifierKey(detaineeNumber);
    if (!key) return;
    for (const evidenceId of await evidenceNamingDetainee(this.store.db, key)) {
      for (const card of await cardsOf(this.store.db, evidenceId)) {
        for (const match of await matchCard(this.store.db, this.store.capabilities, card)) {
          if (match.recordId !== recordId) continue;
          summary.identificationsProposed += await this.propose(evidenceId, match.personId, match.basis);
        }
      }
    }
  }

  private async propose(evidenceId: string, personId: string | null, basis: string): Promise<number> {
    if (!personId) return 0;
    if (await new IdentificationRepository(this.store.db).standing(evidenceId, personId)) return 0;
    await this.identifications.propose({ evidenceId, personId, basis, actor: matcherActor });
    return 1;
  }
}

function hasMoreThanOneWord(text: string | null): boolean {
  return !!text && text.trim().split(/\s+/).length > 1;
}
