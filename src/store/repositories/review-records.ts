import type { Selectable } from 'kysely';
import type { RecordTable } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

/** A record as stored, with its source's name and the person it is linked to now. */
export type RecordWithContext = Selectable<RecordTable> & {
  source_name: string | null;
  person_id: string | null;
};

/** Reads records for the review and identification screens (whole rows: presenters choose what is shown). */
export class ReviewRecordRepository {
  constructor(private readonly db: Db) {}

  async getMany(ids: readonly string[]): Promise<Map<string, RecordWithContext>> {
    const out = new Map<string, RecordWithContext>();
    const unique = [...new Set(ids)];
    for (const part of slices(unique, 500)) {
      const rows = await this.db
        .selectFrom('records as r')
        .leftJoin('sources as s', 's.id', 'r.source_id')
        .leftJoin('record_links as l', (join) =>
          join.onRef('l.record_id', '=', 'r.id').on('l.unlinked_at', 'is', null),
        )
        .selectAll('r')
        .select(['s.name as source_name', 'l.person_id as person_id'])
        .where('r.id', 'in', part)
        .execute();
      for (const row of rows) out.set(row.id, row);
    }
    return out;
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
