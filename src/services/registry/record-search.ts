/**
 * Name search over the registry, in Arabic or Latin: the query's name keys find candidates through the
 * record_name_keys index (rarest keys first, so a common name never scans a tenth of the registry), then every
 * candidate is scored part by part with the names module and answers why it matched. Filters narrow both searches
 * and plain listings; the case status, derived from claims, filters after scoring. docs/registry.md.
 */

import type { Caller } from '../../access/caller.js';
import type { CaseStatus } from '../../domain/case-status.js';
import { DomainError } from '../../domain/errors.js';
import { compareTokens, explainTokens, keys, parseParts, prepareToken } from '../../names/index.js';
import { type RecordFilter, RecordRepository, type RecordView } from '../../store/repositories/records.js';
import type { Store } from '../../store/store.js';
import type { AuditService } from '../audit/audit.js';
import { SearchDigests } from '../audit/search-digest.js';
import type { AppContext } from '../context.js';
import { seesWithdrawn } from './consent-filter.js';
import type { PlaceService } from './places.js';
import type { RegistryService } from './registry.js';
import type { SourceService } from './sources.js';

/** Filters as a caller names them: places and sources by id or any alias or name. */
export interface NamedFilter {
  governorate?: string;
  branch?: string;
  source?: string;
  from?: string;
  to?: string;
}

export interface SearchQuery {
  q?: string;
  filter: RecordFilter;
  status?: CaseStatus;
  limit: number;
  cursor?: string;
}

/**
 * Why a query part matched, as codes and parameters, so that each interface says it in its own language: the query
 * part, the record part it matched (its column) and its text, the score, and the names module's reason code.
 */
export type MatchReason =
  | {
      query: string;
      matched: true;
      part: string;
      text: string;
      score: number;
      reason: 'identical' | 'same-lexicon-entry' | 'different-lexicon-entries' | 'spelling' | 'empty';
    }
  | { query: string; matched: false };

export interface SearchHit {
  record: RecordView;
  score?: number;
  why?: string[];
  reasons?: MatchReason[];
}

export interface SearchResult {
  items: SearchHit[];
  nextCursor?: string;
}

/** A key carried by more records than this is "common": it ranks candidates but does not find them. */
const selectiveCap = 4000;
/** Candidates scored per search: the best of them by key evidence. Name search answers at most this many. */
const candidateLimit = 200;
/** A record answers a name search when its parts cover the query's this well. */
const minScore = 0.72;
const keyWeight = (key: string) => (key.startsWith('fk:') ? 4 : key.startsWith('k:') ? 2 : 1);

function encodeCursor(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeCursor(cursor: string | undefined): { o?: number; b?: string } {
  if (!cursor) return {};
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown; b?: unknown };
    if (typeof v.o === 'number' && Number.isInteger(v.o) && v.o >= 0) return { o: v.o };
    if (typeof v.b === 'string') return { b: v.b };
  } catch {
    // fall through
  }
  throw new DomainError('invalid', 'the cursor is not one this search gave', { field: 'cursor' });
}

const roleNames: Record<string, string> = {
  first_name: 'first name',
  father_name: "father's name",
  grandfather_name: "grandfather's name",
  family_name: 'family name',
};

/**
 * How well a record's name parts cover the query's parts: for each query part, its best-matching record part (a
 * part in the role the query's parse gives it counts in full, elsewhere at 0.9), averaged. With `explain`, the
 * reasons in words.
 */
export function scoreName(
  query: string,
  record: Pick<RecordView, 'first_name' | 'father_name' | 'grandfather_name' | 'family_name' | 'full_name'>,
  explain = false,
): { score: number; why: string[]; reasons: MatchReason[] } {
  const qParts = parseParts(query).parts;
  const rParts: { column: string; text: string }[] = [];
  for (const column of ['first_name', 'father_name', 'grandfather_name', 'family_name'] as const) {
    const text = record[column];
    if (text) rParts.push({ column, text });
  }
  if (rParts.length === 0 && record.full_name) {
    for (const p of parseParts(record.full_name).parts)
      rParts.push({ column: `${p.role}_name`, text: p.text });
  }
  if (qParts.length === 0 || rParts.length === 0) return { score: 0, why: [], reasons: [] };
  let total = 0;
  const why: string[] = [];
  const reasons: MatchReason[] = [];
  for (const qp of qParts) {
    const qt = prepareToken(qp.text);
    let best = { score: 0, part: undefined as (typeof rParts)[number] | undefined };
    for (const rp of rParts) {
      const sameRole =
        rp.column === `${qp.role}_name` || (qp.role === 'middle' && rp.column !== 'first_name');
      const s = compareTokens(qt, prepareToken(rp.text)) * (sameRole ? 1 : 0.9);
      if (s > best.score) best = { score: s, part: rp };
    }
    total += best.score;
    if (explain) {
      if (best.part && best.score >= 0.5) {
        const explained = explainTokens(qt, prepareToken(best.part.text));
        why.push(
          `"${qp.text}" ≈ ${roleNames[best.part.column] ?? best.part.column} "${best.part.text}" (${best.score.toFixed(2)}: ${explained.detail})`,
        );
        reasons.push({
          query: qp.text,
          matched: true,
          part: best.part.column,
          text: best.part.text,
          score: Math.round(best.score * 100) / 100,
          reason: explained.reason,
        });
      } else {
        why.push(`"${qp.text}" matched no part of the name`);
        reasons.push({ query: qp.text, matched: false });
      }
    }
  }
  return { score: Math.round((total / qParts.length) * 1000) / 1000, why, reasons };
}

export class RecordSearch {
  private readonly digests: SearchDigests;

  constructor(
    private readonly ctx: AppContext,
    private readonly deps: {
      registry: RegistryService;
      places: PlaceService;
      sources: SourceService;
      audit: AuditService;
    },
  ) {
    this.digests = new SearchDigests(ctx.config);
  }

  private get store(): Store {
    return this.ctx.store;
  }

  private get registry(): RegistryService {
    return this.deps.registry;
  }

  /** Places and sources named by id or any alias resolved to ids; an unknown one is refused, naming its field. */
  async resolveFilter(named: NamedFilter): Promise<RecordFilter> {
    const filter: RecordFilter = {};
    const unknown = (field: string, value: string) =>
      new DomainError('invalid', `no ${field} is known as ${JSON.stringify(value)}`, {
        issues: [{ field, message: 'unknown' }],
      });
    if (named.governorate) {
      const id = await this.deps.places.governorateId(named.governorate);
      if (!id) throw unknown('governorate', named.governorate);
      filter.governorateId = id;
    }
    if (named.branch) {
      const id = await this.deps.places.branchId(named.branch);
      if (!id) throw unknown('branch', named.branch);
      filter.branchId = id;
    }
    if (named.source) {
      const source = await this.deps.sources.find(named.source);
      if (!source) throw unknown('source', named.source);
      filter.sourceId = source.id;
    }
    if (named.from) filter.from = named.from;
    if (named.to) filter.to = named.to;
    return filter;
  }

  /**
   * A search as its caller may see it, audited: records withheld by consent are left out before paging, so a page
   * is full whenever more records match.
   */
  async searchFor(
    query: Omit<SearchQuery, 'filter'> & { filter: NamedFilter },
    caller: Caller,
  ): Promise<SearchResult> {
    const filter = await this.resolveFilter(query.filter);
    if (!seesWithdrawn(caller)) filter.withoutWithdrawn = true;
    const result = await this.search({ ...query, filter });
    await this.deps.audit.record(caller, {
      action: 'search',
      subjectType: 'record',
      // The searched name only as a keyed digest, the filters as given (docs/access.md, "Searches in the audit").
      details: {
        qDigest: query.q?.trim() ? this.digests.digest(query.q) : null,
        governorate: query.filter.governorate ?? null,
        branch: query.filter.branch ?? null,
        source: query.filter.source ?? null,
        status: query.status ?? null,
        from: query.filter.from ?? null,
        to: query.filter.to ?? null,
        cursor: query.cursor ?? null,
        results: result.items.length,
      },
    });
    return result;
  }

  private repo(): RecordRepository {
    return new RecordRepository(this.store.db, this.store.capabilities);
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    const cursor = decodeCursor(query.cursor);
    const q = query.q?.trim();
    if (q) return this.byName(q, query, cursor.o ?? 0);
    return this.list(query, cursor.b);
  }

  /** Records found by name, best first; the cursor is an offset into the scored candidates. */
  private async byName(q: string, query: SearchQuery, offset: number): Promise<SearchResult> {
    const repo = this.repo();
    const wanted = keys(q);
    if (wanted.length === 0) return { items: [] };
    const frequency = new Map<string, number>();
    for (const key of wanted) frequency.set(key, await repo.keyFrequency(key, selectiveCap));
    let finding = wanted.filter(
      (k) => (frequency.get(k) ?? 0) <= selectiveCap && (frequency.get(k) ?? 0) > 0,
    );
    if (finding.length === 0) {
      // Only common keys (a lone "Mohammad"): the rarest of them finds, the cap bounds the work.
      const rarest = [...wanted].sort(
        (a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0),
      )[0] as string;
      finding = [rarest];
    }
    const hits = await repo.keyHits(finding, query.filter, selectiveCap * finding.length);
    const weight = new Map<string, number>();
    for (const h of hits) weight.set(h.record_id, (weight.get(h.record_id) ?? 0) + keyWeight(h.key));
    const candidates = [...weight.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, candidateLimit)
      .map(([id]) => id);
    const records = await repo.many(candidates);
    let scored = records
      .map((record) => ({ record, score: scoreName(q, record).score }))
      .filter((s) => s.score >= minScore)
      .sort((a, b) => b.score - a.score || (a.record.id < b.record.id ? -1 : 1));
    if (query.status) {
      const statuses = await this.registry.statusOfRecords(scored.map((s) => s.record));
      scored = scored.filter((s) => statuses.get(s.record.id) === query.status);
    }
    const page = scored.slice(offset, offset + query.limit);
    return {
      items: page.map((s) => {
        const { why, reasons } = scoreName(q, s.record, true);
        return { record: s.record, score: s.score, why, reasons };
      }),
      ...(offset + query.limit < scored.length
        ? { nextCursor: encodeCursor({ o: offset + query.limit }) }
        : {}),
    };
  }

  /** Records passing the filters, newest first; with a status, pages are read until the limit is met. */
  private async list(query: SearchQuery, before: string | undefined): Promise<SearchResult> {
    const repo = this.repo();
    if (!query.status) {
      const rows = await repo.page(query.filter, before, query.limit + 1);
      const items = rows.slice(0, query.limit).map((record) => ({ record }));
      const last = items[items.length - 1]?.record.id;
      return {
        items,
        ...(rows.length > query.limit && last ? { nextCursor: encodeCursor({ b: last }) } : {}),
      };
    }
    const items: SearchHit[] = [];
    let cursor = before;
    let scanned = 0;
    let more = true;
    // A status is derived, not stored: read pages and keep those whose status matches, up to a bound per request.
    while (items.length < query.limit && scanned < 5000) {
      const rows = await repo.page(query.filter, cursor, 250);
      scanned += rows.length;
      const statuses = await this.registry.statusOfRecords(rows);
      for (const record of rows) {
        cursor = record.id;
        if (statuses.get(record.id) === query.status) items.push({ record });
        if (items.length === query.limit) break;
      }
      if (rows.length < 250) {
        more = items.length === query.limit && cursor !== rows[rows.length - 1]?.id;
        break;
      }
    }
    return { items, ...(more && cursor ? { nextCursor: encodeCursor({ b: cursor }) } : {}) };
  }
}
