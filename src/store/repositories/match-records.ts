import type { Selectable } from 'kysely';
import type { RecordTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

/** The columns of a record that matching reads. */
export type MatchRecordRow = Pick<
  Selectable<RecordTable>,
  | 'id'
  | 'source_id'
  | 'kind'
  | 'full_name'
  | 'first_name'
  | 'father_name'
  | 'grandfather_name'
  | 'family_name'
  | 'mother_name'
  | 'sex'
  | 'birth_date'
  | 'birth_year'
  | 'governorate_id'
  | 'place_of_origin'
  | 'arrest_date'
  | 'arresting_branch_id'
  | 'detainee_number'
  | 'death_date'
>;

const columns = [
  'id',
  'source_id',
  'kind',
  'full_name',
  'first_name',
  'father_name',
  'grandfather_name',
  'family_name',
  'mother_name',
  'sex',
  'birth_date',
  'birth_year',
  'governorate_id',
  'place_of_origin',
  'arrest_date',
  'arresting_branch_id',
  'detainee_number',
  'death_date',
] as const;

/** Reads records for the match index: all of them in id order, page by page, and those added after an id. */
export class MatchRecordRepository {
  constructor(private readonly db: Db) {}

  /**
   * Up to `limit` records with id > `after` and, when given, ≤ `until` (ids are UUIDv7: time-ordered, so "after"
   * also means "newer").
   */
  async page(after: string | null, limit: number, until: string | null = null): Promise<MatchRecordRow[]> {
    let q = this.db.selectFrom('records').select(columns);
    if (after !== null) q = q.where('id', '>', after);
    if (until !== null) q = q.where('id', '<=', until);
    return q.orderBy('id').limit(limit).execute();
  }

  /** The same page with each record's external id (a registry-wide run writing `--out` keeps them as it reads). */
  async pageWithExternalIds(
    after: string | null,
    limit: number,
    until: string | null = null,
  ): Promise<(MatchRecordRow & { external_id: string | null })[]> {
    let q = this.db.selectFrom('records').select([...columns, 'external_id']);
    if (after !== null) q = q.where('id', '>', after);
    if (until !== null) q = q.where('id', '<=', until);
    return q.orderBy('id').limit(limit).execute();
  }

  /**
   * How many records there are, the id of the record that ends the first `share` of them in id order (the middle
   * one by default), and of the last (null when there are none).
   */
  async splitPoint(share = 0.5): Promise<{ count: number; id: string | null; last: string | null }> {
    const { n } = await this.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const count = Number(n);
    if (count === 0) return { count, id: null, last: null };
    const row = await this.db
      .selectFrom('records')
      .select('id')
      .orderBy('id')
      .limit(1)
      .offset(Math.min(count - 1, Math.max(0, Math.floor((count - 1) * share))))
      .executeTakeFirst();
    const last = await this.db
      .selectFrom('records')
      .select('id')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return { count, id: row?.id ?? null, last: last?.id ?? null };
  }

  /** Every source's name by id. */
  async sourceNames(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('sources').select(['id', 'name']).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** These records (500 a statement), in no particular order. */
  async getMany(ids: readonly string[]): Promise<MatchRecordRow[]> {
    const out: MatchRecordRow[] = [];
    for (const part of slices(ids, 500)) {
      out.push(...(await this.db.selectFrom('records').select(columns).where('id', 'in', part).execute()));
    }
    return out;
  }

  async get(id: string): Promise<MatchRecordRow | undefined> {
    return this.db.selectFrom('records').select(columns).where('id', '=', id).executeTakeFirst();
  }
}
