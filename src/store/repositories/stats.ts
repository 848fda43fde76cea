import { sql } from 'kysely';
import type { Db } from '../store.js';

export interface Counted {
  key: string;
  count: number;
}

const n = (v: string | number | bigint | null | undefined) => Number(v ?? 0);

/**
 * Aggregates for the archive's overview. Dates are ISO text on both dialects, so a year is substr(x, 1, 4), a
 * month substr(x, 1, 7) and a day substr(x, 1, 10) — the same SQL on SQLite and PostgreSQL.
 */
export class StatsRepository {
  constructor(private readonly db: Db) {}

  async count(
    table: 'records' | 'persons' | 'evidence_items' | 'identifications' | 'family_reports',
  ): Promise<number> {
    const row = await this.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return n(row.n);
  }

  async recordsByGovernorate(): Promise<Counted[]> {
    const rows = await this.db
      .selectFrom('records')
      .select(['governorate_id as key', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('governorate_id', 'is not', null)
      .groupBy('governorate_id')
      .execute();
    return rows.map((r) => ({ key: r.key as string, count: n(r.n) }));
  }

  async recordsByBranch(): Promise<Counted[]> {
    const rows = await this.db
      .selectFrom('records')
      .select(['arresting_branch_id as key', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('arresting_branch_id', 'is not', null)
      .groupBy('arresting_branch_id')
      .execute();
    return rows.map((r) => ({ key: r.key as string, count: n(r.n) }));
  }

  async recordsByArrestYear(): Promise<Counted[]> {
    const year = sql<string>`substr(arrest_date, 1, 4)`;
    const rows = await this.db
      .selectFrom('records')
      .select([year.as('key'), (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('arrest_date', 'is not', null)
      .groupBy(year)
      .orderBy(year)
      .execute();
    return rows.map((r) => ({ key: r.key, count: n(r.n) }));
  }

  /** Identifications confirmed by their second reviewer, by month of that confirmation. */
  async confirmationsByMonth(): Promise<Counted[]> {
    const month = sql<string>`substr(second_confirmed_at, 1, 7)`;
    const rows = await this.db
      .selectFrom('identifications')
      .select([month.as('key'), (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('second_confirmed_at', 'is not', null)
      .where('status', 'in', ['confirmed', 'family_informed'])
      .groupBy(month)
      .orderBy(month)
      .execute();
    return rows.map((r) => ({ key: r.key, count: n(r.n) }));
  }

  /** Rows made per day since `since` (ISO), from a table's created_at. */
  async perDay(table: 'evidence_items' | 'records', since: string): Promise<Counted[]> {
    const day = sql<string>`substr(created_at, 1, 10)`;
    const rows = await this.db
      .selectFrom(table)
      .select([day.as('key'), (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('created_at', '>=', since)
      .groupBy(day)
      .orderBy(day)
      .execute();
    return rows.map((r) => ({ key: r.key, count: n(r.n) }));
  }
}
