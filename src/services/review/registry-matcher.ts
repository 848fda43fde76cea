import type { PersonRecordFields } from '../../domain/person-record.js';
import { nextTurn } from '../../event-loop.js';
import { pairKey } from '../../linkage/clustering.js';
import type { Explanation } from '../../linkage/explain.js';
import { explainPair } from '../../linkage/explain.js';
import { RecordFeatures } from '../../linkage/features.js';
import { linkFeatures } from '../../linkage/link.js';
import { type MatchCandidate, MatchIndex } from '../../linkage/match-index.js';
import { CompiledModel, type LinkageModel, probabilityOf } from '../../linkage/model.js';
import { MatchRecordRepository, type MatchRecordRow } from '../../store/repositories/match-records.js';
import type { Store } from '../../store/store.js';
import { readModelFile } from '../batch/linkage-model-file.js';
import type { ProposeResult, ReviewService } from './review.js';

/** A stored record as the linkage core reads it (gazetteer ids resolve like any alias). */
export function recordFields(row: MatchRecordRow): PersonRecordFields {
  const fields: PersonRecordFields = { source: row.source_id };
  const put = (column: keyof PersonRecordFields, value: string | number | null) => {
    if (value !== null && value !== '') fields[column] = String(value);
  };
  put('full_name', row.full_name);
  put('first_name', row.first_name);
  put('father_name', row.father_name);
  put('grandfather_name', row.grandfather_name);
  put('family_name', row.family_name);
  put('mother_name', row.mother_name);
  put('sex', row.sex);
  put('birth_date', row.birth_date);
  put('birth_year', row.birth_year);
  put('governorate', row.governorate_id);
  put('place_of_origin', row.place_of_origin);
  put('arrest_date', row.arrest_date);
  put('arresting_branch', row.arresting_branch_id);
  put('detainee_number', row.detainee_number);
  put('death_date', row.death_date);
  return fields;
}

const pageSize = 5000;

/**
 * The match index over the registry: built from the database at start, kept current by `refresh` (records added
 * since) or `add` (a record just written). Answers a report with the best candidates, scores and explanations, and
 * proposes review pairs for new records.
 */
export class RegistryMatcher {
  private lastId: string | null = null;

  private constructor(
    private readonly store: Store,
    readonly index: MatchIndex,
    readonly model: LinkageModel,
  ) {}

  static async open(store: Store, model: LinkageModel = readModelFile()): Promise<RegistryMatcher> {
    const matcher = new RegistryMatcher(store, new MatchIndex(new CompiledModel(model)), model);
    const repo = new MatchRecordRepository(store.db);
    for (;;) {
      const page = await repo.page(matcher.lastId, pageSize);
      for (const row of page) matcher.index.append(row.id, recordFields(row));
      if (page.length > 0) matcher.lastId = (page[page.length - 1] as MatchRecordRow).id;
      if (page.length < pageSize) break;
    }
    matcher.index.pack();
    return matcher;
  }

  get size(): number {
    return this.index.size;
  }

  /** Takes in records stored since the last load or refresh; returns how many. */
  async refresh(): Promise<number> {
    const repo = new MatchRecordRepository(this.store.db);
    let added = 0;
    for (;;) {
      const page = await repo.page(this.lastId, pageSize);
      for (const row of page) {
        if (!this.index.has(row.id)) added++;
        this.index.add(row.id, recordFields(row));
      }
      if (page.length > 0) this.lastId = (page[page.length - 1] as MatchRecordRow).id;
      if (page.length < pageSize) break;
      // On SQLite every query resolves at once: without this a large refresh runs as one stretch in the server.
      await nextTurn();
    }
    return added;
  }

  /** Adds a record just written (by id, read from the store). */
  async add(recordId: string): Promise<boolean> {
    const row = await new MatchRecordRepository(this.store.db).get(recordId);
    if (!row) return false;
    this.index.add(row.id, recordFields(row));
    return true;
  }

  /** The best `k` registry records for a report. */
  top(fields: PersonRecordFields, k = 10): MatchCandidate[] {
    return this.index.top(fields, k);
  }

  explain(fields: PersonRecordFields, recordId: string): Explanation | undefined {
    return this.index.explain(fields, recordId);
  }

  /**
   * Proposes review pairs between a stored record and its best candidates at or above `minProbability` (default: the
   * model's threshold), each with its explanation.
   */
  async proposeFor(
    recordId: string,
    review: ReviewService,
    options: { k?: number; minProbability?: number } = {},
  ): Promise<ProposeResult> {
    const row = await new MatchRecordRepository(this.store.db).get(recordId);
    if (!row) return { proposed: 0, skippedDecided: 0, skippedSamePerson: 0 };
    this.index.add(row.id, recordFields(row));
    const fields = recordFields(row);
    const floor = options.minProbability ?? this.model.threshold;
    const hits = this.index
      .top(fields, (options.k ?? 10) + 1)
      .filter((c) => c.recordId !== recordId && c.probability >= floor);
    return review.propose(
      hits.map((c) => ({
        recordA: recordId,
        recordB: c.recordId,
        probability: c.probability,
        matchWeight: c.weight,
        modelVersion: this.model.version,
        explanation: this.index.explain(fields, c.recordId),
      })),
    );
  }
}

/**
 * Links the whole registry in one pass (as `athar link` does a file) and proposes every pair at or above
 * `minProbability` for review; rejected pairs are kept apart and never proposed again.
 */
export async function proposeFromRegistry(
  store: Store,
  review: ReviewService,
  options: { model?: LinkageModel; minProbability?: number } = {},
): Promise<ProposeResult & { records: number; pairs: number }> {
  const model = options.model ?? readModelFile();
  const features = new RecordFeatures(1 << 16);
  const repo = new MatchRecordRepository(store.db);
  const indexOf = new Map<string, number>();
  let after: string | null = null;
  for (;;) {
    const page = await repo.page(after, pageSize);
    for (const row of page) indexOf.set(row.id, features.add(row.id, recordFields(row)));
    if (page.length > 0) after = (page[page.length - 1] as MatchRecordRow).id;
    if (page.length < pageSize) break;
  }
  const cannotLink = new Set<number>();
  for (const [a, b] of await review.rejectedPairs()) {
    const x = indexOf.get(a);
    const y = indexOf.get(b);
    if (x !== undefined && y !== undefined) cannotLink.add(pairKey(x, y));
  }
  const compiled = new CompiledModel(model);
  const result = await linkFeatures(features, compiled, { cannotLink });
  const floor = options.minProbability ?? model.threshold;
  const pairs = [];
  for (let p = 0; p < result.candidates.pairs.length; p++) {
    const total = (result.weights[p] as number) + result.priorWeight;
    const probability = probabilityOf(total);
    if (probability < floor) continue;
    const a = result.candidates.pairs.a[p] as number;
    const b = result.candidates.pairs.b[p] as number;
    pairs.push({
      recordA: features.ids[a] as string,
      recordB: features.ids[b] as string,
      probability,
      matchWeight: total,
      modelVersion: model.version,
      explanation: explainPair(result.scorer, a, b, features.size),
    });
  }
  const proposed = await review.propose(pairs);
  return { ...proposed, records: features.size, pairs: pairs.length };
}
