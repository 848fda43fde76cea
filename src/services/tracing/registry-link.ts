import fs from 'node:fs';
import { hostname } from 'node:os';
import { relationsAgainstSamePerson } from '../../domain/registry.js';
import { reviewPriority } from '../../domain/review.js';
import { nextTurn } from '../../event-loop.js';
import { newId, nowIso } from '../../ids.js';
import { eachLinkEntry } from '../../ledger/entries.js';
import { pairKey } from '../../linkage/clustering.js';
import { explainPair } from '../../linkage/explain.js';
import { RecordFeatures } from '../../linkage/features.js';
import { linkFeatures } from '../../linkage/link.js';
import { CompiledModel, type LinkageModel, probabilityOf } from '../../linkage/model.js';
import { reconcile } from '../../linkage/reconcile.js';
import { reclaimDeleted } from '../../store/bulk-rows.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import {
  CandidatePairRepository,
  type NewCandidatePair,
  orderedPair,
} from '../../store/repositories/candidate-pairs.js';
import { DecisionRepository } from '../../store/repositories/decisions.js';
import { MatchRecordRepository } from '../../store/repositories/match-records.js';
import { RecordLinkRepository } from '../../store/repositories/record-links.js';
import { RelationRepository } from '../../store/repositories/relations.js';
import { TracingRepository } from '../../store/repositories/tracing.js';
import type { ModelLinkTable } from '../../store/schema.js';
import { inLargeWrites, type Store } from '../../store/store.js';
import { answerOf, startWorker } from '../../worker-entry.js';
import { peakMemoryMiB } from '../batch/link.js';
import { readModelFile } from '../batch/linkage-model-file.js';
import { CsvWriter } from '../batch/person-csv.js';
import { defaultWorkers, SCORING_THREADS_FROM, scoreInWorkers } from '../batch/score-pool.js';
import { prepareLogEntries, sequencePreparedEntries } from '../ledger/ledger.js';
import { LinkEntriesThread } from '../ledger/link-entries-thread.js';
import { settlePersons } from '../registry/person-settling.js';
import { type JobLock, takeTracingLock } from './lock.js';
import { humanBases, linkingModel, type TracingPolicy, tracingPolicy } from './policy.js';
import type { RegistryReadJob, RegistryReadResult } from './registry-read-worker.js';
import {
  keepSource,
  matchByRecord,
  positions,
  type RegistryRecords,
  readRegistryRange,
} from './registry-reading.js';
import { storeReportCandidates } from './report-candidates.js';

export type RegistryLinkStage =
  | 'reading'
  | 'blocking'
  | 'scoring'
  | 'clustering'
  | 'writing'
  | 'review'
  | 'reports';

export interface RegistryLinkOptions {
  /** Who started it (a user id), or null for the system and the command line. */
  by?: string | null;
  /** `record_id,external_id,source,person_id` for every record, once the run is done. */
  out?: string;
  model?: LinkageModel;
  workers?: number;
  /**
   * Read the registry in two halves at once, the second on a thread of its own, from this many records (default
   * 100,000; tests set 1 to take that path on a small registry).
   */
  parallelReadFrom?: number;
  /**
   * Prepare the moves' log entries on a thread of their own from this many moved records (default: 20,000 on
   * SQLite, never on PostgreSQL; tests set 1 to take that path on a small registry).
   */
  entriesThreadFrom?: number;
  /** Wait this long for the lock when another run holds it (ms; default: refuse at once). */
  waitMs?: number;
  onProgress?: (stage: RegistryLinkStage, done: number, total: number) => void;
  clock?: () => number;
}

export interface RegistryLinkSummary {
  runId: string;
  records: number;
  /** Persons after the run. */
  persons: number;
  /** Records moved into another person. */
  moved: number;
  /** Persons left with no record (merged into another). */
  merged: number;
  /** Pairs sent to the review queue (new or rescored). */
  reviewPairs: number;
  /** Pairs at or above autoLinkAt that the clustering guard kept apart (in the review queue too). */
  refusedByGuard: number;
  reports: number;
  model: { version: string; autoLinkAt: number; reviewFrom: number };
  candidatePairs: number;
  timingsMs: Record<string, number>;
  peakMemoryMiB: number;
}

const pageSize = 5000;
/**
 * The share of the records this thread reads when a second thread reads the rest: it also reads every open link
 * (at 1M records 1.7 s of a ~10 s half, in a profile), so an even split left the second thread idle that long.
 */
const firstShare = 0.46;
/** Registries this large are read by two threads (RegistryLinkOptions.parallelReadFrom). */
const parallelReadFrom = 100_000;
/** Runs moving this many records prepare their log entries on a thread (RegistryLinkOptions.entriesThreadFrom). */
const entriesThreadFrom = 20_000;
/** Records moved per transaction at most (whole clusters: a person is never half moved). */
const writeBatch = 40_000;
/** Review pairs written per transaction. */
const reviewBatch = 50_000;

/**
 * `athar registry link`: links the whole registry into persons, as `athar link` links a file, and makes the
 * registry's persons what the run says — through the policy (docs/tracing.md): pairs at or above autoLinkAt are
 * linked (basis `model`, with the model's version and the pair it rests on) when the clustering guard lets them;
 * reviewers' decisions and links people made are kept as they are (a match stays together, a rejection apart);
 * pairs from reviewFrom, and those the guard refused, go to the review queue. Moves are written a whole cluster
 * at a time, so a kill leaves every person as it was or as the run says, and the next run finishes the work. On an
 * unchanged registry a second run moves nothing.
 */
export async function runRegistryLink(
  store: Store,
  options: RegistryLinkOptions = {},
): Promise<RegistryLinkSummary> {
  const clock = options.clock ?? Date.now;
  const started = performance.now();
  const timings: Record<string, number> = {};
  let mark = started;
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = Math.round(now - mark);
    mark = now;
  };
  const model = options.model ?? readModelFile();
  const policy = tracingPolicy(model);
  const runId = newId();
  const tracing = new TracingRepository(store.db, store.capabilities);
  const lock = await takeTracingLock(store, `${hostname()}:${process.pid}:full:${runId}`, runId, {
    waitMs: options.waitMs ?? 0,
    clock,
  });
  try {
    await tracing.startRun({
      id: runId,
      kind: 'full',
      status: 'running',
      model_version: model.version,
      started_by: options.by ?? null,
      started_at: nowIso(clock),
    });
    const progress = throttledProgress(store, runId, options.onProgress);
    const summary = await inLargeWrites(store, () =>
      link(store, { ...options, clock }, model, policy, runId, progress, lap, lock),
    );
    await progress.flush();
    lap('total');
    timings.total = Math.round(performance.now() - started);
    summary.timingsMs = timings;
    summary.peakMemoryMiB = peakMemoryMiB();
    await tracing.updateRun(runId, {
      status: 'finished',
      stage: null,
      finished_at: nowIso(clock),
      records: summary.records,
      links: summary.moved,
      review_pairs: summary.reviewPairs,
    });
    return summary;
  } catch (error) {
    await tracing
      .updateRun(runId, {
        status: 'failed',
        failure: (error as Error).message.slice(0, 500),
        finished_at: nowIso(clock),
      })
      .catch(() => {});
    throw error;
  } finally {
    await lock.release();
  }
}

async function link(
  store: Store,
  options: RegistryLinkOptions & { clock: () => number },
  model: LinkageModel,
  policy: TracingPolicy,
  runId: string,
  progress: ThrottledProgress,
  lap: (stage: string) => void,
  lock: JobLock,
): Promise<RegistryLinkSummary> {
  const tracing = new TracingRepository(store.db, store.capabilities);
  // Records queued up to here are covered by this run; those stored while it runs stay queued for the loop.
  const coveredSeq = await tracing.lastSeq();

  // Reading: every record as the linkage reads it, and the person each belongs to now.
  const features = new RecordFeatures(1 << 16);
  const reports: number[] = [];
  const matchRecords = new MatchRecordRepository(store.db);
  // With --out, what the file needs besides the persons is kept as it is read (reading it again took 7 s at 1M).
  const externalIds: (string | null)[] = [];
  const sourceOf: string[] = [];
  // A large registry is read in two parts at once, the second by a thread of its own: preparing the features is
  // most of the reading (athar link splits its file the same way).
  const { count, id: splitId, last } = await matchRecords.splitPoint(firstShare);
  const split = splitId !== null && count >= (options.parallelReadFrom ?? parallelReadFrom) ? splitId : null;
  const secondPart =
    split === null || last === null
      ? undefined
      : readInWorker({
          database: store.database,
          after: split,
          until: last,
          pageSize,
          withExternalIds: !!options.out,
        });
  const read: RegistryRecords = { features, reports, externalIds, sources: sourceOf, sourceIds: new Map() };
  const links = new RecordLinkRepository(store.db);
  // The open links, in record id order, read while the second part is prepared; matched to records once both
  // parts are in.
  const openLinks: { id: string; record_id: string; person_id: string; basis: string }[] = [];
  try {
    await readRegistryRange(
      matchRecords,
      read,
      { after: null, until: split },
      pageSize,
      !!options.out,
      async () => {
        progress.report('reading', features.size, 0);
        await lock.renew();
      },
    );
    let afterRecord: string | null = null;
    for (;;) {
      const page = await links.openPage(afterRecord, pageSize);
      for (const l of page) openLinks.push(l);
      if (page.length > 0) afterRecord = (page[page.length - 1] as { record_id: string }).record_id;
      if (page.length < pageSize) break;
    }
  } catch (error) {
    secondPart?.stop();
    throw error;
  }
  if (secondPart) {
    const other = await secondPart.result;
    const base = features.size;
    features.absorb(other.features);
    for (const r of other.reports) reports.push(base + r);
    if (options.out) {
      for (let k = 0; k < other.features.size; k++) {
        externalIds[base + k] = other.externalIds[k] ?? null;
        // The other thread's strings arrive as copies: kept as this thread's one string per source.
        keepSource(read, base + k, other.sources[k] as string);
      }
    }
  }
  progress.report('reading', features.size, 0);
  const n = features.size;
  const indexOf = positions(features.ids);
  const personOf = new Int32Array(n).fill(-1);
  const personIds: string[] = [];
  const personIndex = new Map<string, number>();
  const humanPersons = new Set<number>();
  const linkOf: string[] = new Array(n);
  for (const [l, r] of matchByRecord(openLinks, indexOf)) {
    let p = personIndex.get(l.person_id);
    if (p === undefined) {
      p = personIds.length;
      personIds.push(l.person_id);
      personIndex.set(l.person_id, p);
    }
    personOf[r] = p;
    linkOf[r] = l.id;
    if (humanBases.has(l.basis)) humanPersons.add(p);
  }
  openLinks.length = 0;
  // A record stored without a person (it cannot be, but a store edited by hand could hold one) gets one now.
  for (let r = 0; r < n; r++) {
    if (personOf[r] !== -1) continue;
    personOf[r] = personIds.length;
    personIds.push('');
  }
  lap('reading');

  // What people decided: a match or a person built by hand stays together; a rejection, a record taken out of a
  // person, and persons recorded as relatives stay apart.
  const decisions = new DecisionRepository(store.db);
  const cannotLink = new Set<number>();
  const apart = (a: string, b: string) => {
    const x = indexOf.get(a);
    const y = indexOf.get(b);
    if (x !== undefined && y !== undefined && x !== y) cannotLink.add(pairKey(x, y));
  };
  for (const [a, b] of await decisions.pairsDecided('non_match')) apart(a, b);
  for (const [a, b] of await tracing.keptApart()) apart(a, b);
  const membersOf = new Map<number, number[]>();
  for (let r = 0; r < n; r++) {
    const p = personOf[r] as number;
    const list = membersOf.get(p);
    if (list) list.push(r);
    else membersOf.set(p, [r]);
  }
  for (const rel of await new RelationRepository(store.db).standing(relationsAgainstSamePerson)) {
    const a = membersOf.get(personIndex.get(rel.person_a) ?? -1) ?? [];
    const b = membersOf.get(personIndex.get(rel.person_b) ?? -1) ?? [];
    for (const x of a) for (const y of b) if (x !== y) cannotLink.add(pairKey(x, y));
  }
  const mustLink: [number, number][] = [];
  for (const [a, b] of await decisions.pairsDecided('match')) {
    const x = indexOf.get(a);
    const y = indexOf.get(b);
    if (x !== undefined && y !== undefined) mustLink.push([x, y]);
  }
  for (const p of humanPersons) {
    const members = membersOf.get(p) ?? [];
    for (let k = 1; k < members.length; k++) mustLink.push([members[0] as number, members[k] as number]);
  }
  // A map of every person's records is not needed again; the linking's garbage collections would walk it.
  membersOf.clear();

  // Linking: the same blocking, scoring and guarded clustering as `athar link`, at autoLinkAt.
  const linking = linkingModel(model, policy);
  const compiled = new CompiledModel(linking);
  const workers = options.workers ?? (n >= SCORING_THREADS_FROM ? defaultWorkers() : 1);
  const result = await linkFeatures(features, compiled, {
    cannotLink,
    mustLink,
    scoring:
      workers > 1
        ? (tf) => scoreInWorkers(features, tf, linking, workers, (d, t) => progress.report('scoring', d, t))
        : undefined,
    onStage: (stage, done, total) => {
      if (stage === 'scoring' && done === 0) lap('blocking');
      progress.report(stage, done, total);
    },
  });
  lap('clustering');
  await lock.renew();

  // Each moved record rests on the strongest pair it has inside its cluster.
  const { a: pairA, b: pairB } = result.candidates.pairs;
  const pairCount = result.candidates.pairs.length;
  const bestWeight = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);
  const bestPartner = new Int32Array(n).fill(-1);
  for (let p = 0; p < pairCount; p++) {
    const x = pairA[p] as number;
    const y = pairB[p] as number;
    if (result.clusterOf[x] !== result.clusterOf[y]) continue;
    const w = result.weights[p] as number;
    if (w > (bestWeight[x] as number)) {
      bestWeight[x] = w;
      bestPartner[x] = y;
    }
    if (w > (bestWeight[y] as number)) {
      bestWeight[y] = w;
      bestPartner[y] = x;
    }
  }

  // Review: pairs from reviewFrom that the run left in two persons, and those the guard refused.
  const sizes = new Map<number, number>();
  for (let r = 0; r < n; r++)
    sizes.set(result.clusterOf[r] as number, (sizes.get(result.clusterOf[r] as number) ?? 0) + 1);
  const isReport = new Uint8Array(n);
  for (const r of reports) isReport[r] = 1;
  const reviewWeight = Math.log2(policy.reviewFrom / (1 - policy.reviewFrom)) - result.priorWeight;
  // Pairs a reviewer decided are never proposed again (a match is inside one cluster, a rejection in cannotLink;
  // an `unsure` stays decided too); pairs across two clusters are in two persons once the writing is done. So the
  // queue is written directly: ReviewService.propose would look both up again, pair by pair.
  const decided = new Set<number>();
  for (const kind of ['match', 'unsure'] as const) {
    for (const [a, b] of await decisions.pairsDecided(kind)) {
      const x = indexOf.get(a);
      const y = indexOf.get(b);
      if (x !== undefined && y !== undefined && x !== y) decided.add(pairKey(x, y));
    }
  }
  const seen = new Set<number>();
  const toReview: NewCandidatePair[] = [];
  let refusedByGuard = 0;
  for (let p = 0; p < pairCount; p++) {
    const w = result.weights[p] as number;
    if (w < reviewWeight) continue;
    const x = pairA[p] as number;
    const y = pairB[p] as number;
    if (result.clusterOf[x] === result.clusterOf[y]) continue;
    const key = pairKey(x, y);
    if (seen.has(key) || cannotLink.has(key) || decided.has(key)) continue;
    seen.add(key);
    const total = w + result.priorWeight;
    const probability = probabilityOf(total);
    const refused = w >= result.thresholdWeight;
    if (refused) refusedByGuard++;
    toReview.push({
      recordA: features.ids[x] as string,
      recordB: features.ids[y] as string,
      probability,
      matchWeight: total,
      modelVersion: model.version,
      // The waterfall is drawn from the two records when a reviewer opens the pair (ReviewQueue), as for the
      // model's links: stored for every pair of a national run it would outweigh the queue itself.
      // A pair the guard refused is as open a question as any: weigh it as one at 0.5.
      priority: reviewPriority({
        probability: refused ? 0.5 : probability,
        familyReport: isReport[x] === 1 || isReport[y] === 1,
        records:
          (sizes.get(result.clusterOf[x] as number) ?? 1) + (sizes.get(result.clusterOf[y] as number) ?? 1),
      }),
    });
  }
  // In the order of the queue's unique index (record_a, record_b): each batch then fills a few neighbouring pages
  // of the index instead of touching pages all over it.
  const byIndex = toReview.map((pair) => ({ pair, key: orderedPair(pair.recordA, pair.recordB) }));
  byIndex.sort(({ key: [a, c] }, { key: [b, d] }) =>
    a !== b ? (a < b ? -1 : 1) : c < d ? -1 : c > d ? 1 : 0,
  );
  byIndex.forEach(({ pair }, k) => {
    toReview[k] = pair;
  });
  // The review pairs do not depend on the writing (they lie across clusters): where several connections may write
  // at once (PostgreSQL), they are written beside it, each on its own connection.
  const reviewAt = nowIso(options.clock);
  const writeReview = async () => {
    let written = 0;
    for (let i = 0; i < toReview.length; i += reviewBatch) {
      const batch = toReview.slice(i, i + reviewBatch);
      // One transaction a batch: SQLite commits once, not once a statement.
      written += await store.transaction((trx) =>
        new CandidatePairRepository(trx, store.capabilities).upsert(batch, reviewAt),
      );
      progress.report('review', Math.min(i + reviewBatch, toReview.length), toReview.length);
      await lock.renew();
    }
    return written;
  };
  const reviewing = store.capabilities.concurrentWriters ? settled(writeReview()) : undefined;

  // Writing: a whole cluster per transaction.
  const moves = reconcile(result.clusterOf, {
    personOf,
    personIds,
    human: Uint8Array.from(personIds, (_, p) => (humanPersons.has(p) ? 1 : 0)),
  });
  const totalMoved = moves.reduce((sum, m) => sum + m.records.length, 0);
  // Each moving cluster's person chosen now (a new one, its id made here, for a cluster that keeps none): where
  // every record ends up is known before the writing, and --out is written beside it (below).
  const keeperOf = moves.map((move) => (move.keeper >= 0 ? (personIds[move.keeper] as string) : newId()));
  moves.forEach((move, k) => {
    const keeper = keeperOf[k] as string;
    let p = personIndex.get(keeper);
    if (p === undefined) {
      p = personIds.length;
      personIds.push(keeper);
      personIndex.set(keeper, p);
    }
    for (const r of move.records) personOf[r] = p;
  });
  const out = options.out
    ? {
        file: options.out,
        partial: `${options.out}.partial`,
        writing: settled(
          writeOut(`${options.out}.partial`, n, {
            ids: features.ids,
            externalIds,
            sources: sourceOf,
            names: await matchRecords.sourceNames(),
            personOf: (r) => personIds[personOf[r] as number] ?? '',
          }),
        ),
      }
    : undefined;
  // Where the server writes (PostgreSQL), this thread mostly waits and prepares them in slices meanwhile; a thread
  // of their own there took the machine's second core from the server (writing 31 → 33.5 s at 1M records).
  const entriesThread =
    totalMoved >=
    (options.entriesThreadFrom ?? (store.capabilities.concurrentWriters ? Infinity : entriesThreadFrom))
      ? LinkEntriesThread.start()
      : undefined;
  try {
    return await writeAndFinish();
  } catch (error) {
    // The file is the run's answer only when the run finished: a failed run leaves none behind.
    if (out) {
      await out.writing;
      fs.rmSync(out.partial, { force: true });
    }
    throw error;
  } finally {
    entriesThread?.stop();
  }

  async function writeAndFinish(): Promise<RegistryLinkSummary> {
    let moved = 0;
    let merged = 0;
    const reason = `model run ${runId}`;
    for (let start = 0; start < moves.length; ) {
      let end = start;
      let size = 0;
      while (
        end < moves.length &&
        (size === 0 || size + (moves[end] as { records: number[] }).records.length <= writeBatch)
      ) {
        size += (moves[end] as { records: number[] }).records.length;
        end++;
      }
      const batch = moves.slice(start, end);
      const at = nowIso(options.clock);
      const written = await store.transaction(async (trx) => {
        const repo = new RecordLinkRepository(trx, store.capabilities);
        const touched = new Set<string>();
        const closing: string[] = [];
        for (const move of batch)
          for (const r of move.records) if (linkOf[r]) closing.push(linkOf[r] as string);
        const closed = await repo.closeReturning(closing, at, options.by ?? null, reason);
        for (const c of closed) touched.add(c.person_id);
        const opening: Parameters<RecordLinkRepository['openMany']>[1][number][] = [];
        const matched: number[] = [];
        const keepers = keeperOf.slice(start, end);
        // New persons for the clusters that keep none, in one insert.
        await repo.createPersons(
          store.capabilities,
          keepers.filter((_, k) => (batch[k] as { keeper: number }).keeper < 0),
          at,
          options.by ?? null,
        );
        for (const [k, move] of batch.entries()) {
          const keeper = keepers[k] as string;
          touched.add(keeper);
          for (const r of move.records) {
            opening.push({
              recordId: features.ids[r] as string,
              personId: keeper,
              at,
              by: options.by ?? null,
              basis: 'model',
              note: reason,
            });
            matched.push(r);
          }
        }
        const opened = await repo.openMany(store.capabilities, opening);
        const provenance: ModelLinkTable[] = opened.map((l, k) => {
          const r = matched[k] as number;
          const partner = bestPartner[r] as number;
          const weight = partner >= 0 ? (bestWeight[r] as number) + result.priorWeight : result.priorWeight;
          return {
            link_id: l.id,
            run_id: runId,
            model_version: model.version,
            matched_record: partner >= 0 ? (features.ids[partner] as string) : (features.ids[r] as string),
            probability: probabilityOf(weight),
            match_weight: weight,
            // Recomputed on demand from the two records and the model (docs/tracing.md): a million waterfalls
            // would weigh more than the records they explain.
            explanation: null,
          };
        });
        // The log's entries (digests, encoding, hashing: ~3 s of a 1M-record run) are worked out while the
        // provenance, the persons' settling and the audit row are written: on a thread of their own in a large run,
        // else here in slices between those statements (the server works meanwhile on PostgreSQL).
        const onThread = entriesThread?.prepare(closed, opened);
        const writes = settled(
          (async () => {
            await new TracingRepository(trx, store.capabilities).addModelLinks(provenance);
            const emptied = await settlePersons(trx, touched, at, new Set(keepers), store.capabilities);
            await new AuditRepository(trx).append(
              {
                actorId: options.by ?? null,
                actorRole: null,
                action: 'tracing.linked',
                subjectType: 'tracing_run',
                subjectId: runId,
                details: { moved: opened.length, persons: touched.size },
              },
              at,
            );
            return emptied;
          })(),
        );
        let prepared: Awaited<ReturnType<typeof prepareLogEntries>>;
        try {
          if (onThread) prepared = await onThread;
          else prepared = await prepareLogEntries(eachLinkEntry(closed, opened));
        } catch (error) {
          // Nothing of the transaction may run after its rollback: the chain ends first.
          await writes;
          throw error;
        }
        const emptied = unwrap(await writes);
        // Sequenced at once, not staged (~160k entries at 1M records: staging, reading back and unqueueing them
        // cost ~7 s at the command's end), and last, so the log's lock is held only while sequencing and committing.
        await sequencePreparedEntries(trx, store.capabilities, prepared, at);
        return emptied;
      });

      merged += written;
      moved += size;
      progress.report('writing', moved, totalMoved);
      await lock.renew();
      start = end;
    }
    lap('writing');

    const reviewPairs = reviewing ? unwrap(await reviewing) : await writeReview();
    lap('review');

    // Reports: their candidates, from the run's pairs and their persons.
    const candidateWeight =
      Math.log2(policy.candidatesFrom / (1 - policy.candidatesFrom)) - result.priorWeight;
    const reportPairs = new Map<number, { other: number; weight: number }[]>();
    for (let p = 0; p < pairCount; p++) {
      const x = pairA[p] as number;
      const y = pairB[p] as number;
      if (isReport[x] !== 1 && isReport[y] !== 1) continue;
      const w = result.weights[p] as number;
      if (w < candidateWeight && result.clusterOf[x] !== result.clusterOf[y]) continue;
      for (const [report, other] of [
        [x, y],
        [y, x],
      ] as const) {
        if (isReport[report] !== 1) continue;
        const list = reportPairs.get(report) ?? [];
        list.push({ other, weight: w });
        reportPairs.set(report, list);
      }
    }
    let reportsDone = 0;
    for (const r of reports) {
      const list = (reportPairs.get(r) ?? [])
        .sort((a, b) => b.weight - a.weight)
        .filter((c, k, all) => all.findIndex((d) => d.other === c.other) === k)
        .slice(0, policy.k);
      await storeReportCandidates(
        store,
        features.ids[r] as string,
        list.map((c) => ({
          recordId: features.ids[c.other] as string,
          weight: c.weight + result.priorWeight,
          explanation: explainPair(result.scorer, r, c.other, n),
        })),
        model.version,
        nowIso(options.clock),
      );
      progress.report('reports', ++reportsDone, reports.length);
    }
    lap('reports');

    const covered = await tracing.doneUpTo(coveredSeq, 'record');
    await reclaimDeleted(store.db, store.capabilities, 'tracing_queue', covered);
    lap('queue');
    const persons = new Set(result.clusterOf).size;
    if (out) {
      unwrap(await out.writing);
      fs.renameSync(out.partial, out.file);
      lap('out');
    }
    return {
      runId,
      records: n,
      persons,
      moved,
      merged,
      reviewPairs,
      refusedByGuard,
      reports: reports.length,
      model: { version: model.version, autoLinkAt: policy.autoLinkAt, reviewFrom: policy.reviewFrom },
      candidatePairs: pairCount,
      timingsMs: {},
      peakMemoryMiB: 0,
    };
  }
}

/**
 * `record_id,external_id,source,person_id` for every record the run read, with the person the run leaves it in
 * (records in id order, as read), 20,000 rows at a time with a turn of the event loop between: written while the
 * moves are (on PostgreSQL this thread mostly waits for the server then).
 */
async function writeOut(
  file: string,
  n: number,
  records: {
    ids: readonly string[];
    externalIds: readonly (string | null)[];
    sources: readonly string[];
    names: ReadonlyMap<string, string>;
    personOf: (r: number) => string;
  },
): Promise<void> {
  const writer = new CsvWriter(file, ['record_id', 'external_id', 'source', 'person_id']);
  for (let r = 0; r < n; r++) {
    if (r % 20_000 === 19_999) await nextTurn();
    const person = records.personOf(r);
    if (!person) continue; // no person (a store edited by hand): left out, as an export leaves it
    const source = records.sources[r] as string;
    writer.row([
      records.ids[r] as string,
      records.externalIds[r] ?? '',
      records.names.get(source) ?? source,
      person,
    ]);
  }
  await writer.close();
}

interface ThrottledProgress {
  report(stage: RegistryLinkStage, done: number, total: number): void;
  flush(): Promise<void>;
}

/**
 * The second part of the reading on its own thread (registry-read-worker.ts). `result` never rejects unobserved:
 * a run that fails first stops the thread with `stop`.
 */
function readInWorker(job: RegistryReadJob): { result: Promise<RegistryReadResult>; stop: () => void } {
  const worker = startWorker(import.meta.url, 'registry-read-worker', { workerData: job });
  const result = answerOf<RegistryReadResult>(
    worker,
    (error) => new Error(`reading the registry on a second thread failed: ${error.message}`),
  );
  result.catch(() => {});
  return { result, stop: () => void worker.terminate() };
}

/** A promise that never rejects (its failure is kept), so work running beside it may fail first without an unhandled rejection. */
function settled<T>(work: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return work.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/** Progress to the caller at once, and to the run's row at most every second (the imports screen reads it). */
function throttledProgress(
  store: Store,
  runId: string,
  onProgress: RegistryLinkOptions['onProgress'],
): ThrottledProgress {
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  let latest: { stage: string; done: number; total: number } | undefined;
  const tracing = new TracingRepository(store.db, store.capabilities);
  return {
    report(stage, done, total) {
      onProgress?.(stage, done, total);
      latest = { stage, done, total };
      const now = Date.now();
      if (now - last < 1000) return;
      last = now;
      const snapshot = latest;
      pending = pending.then(() => tracing.updateRun(runId, snapshot).catch(() => {}));
    },
    async flush() {
      await pending;
    },
  };
}
