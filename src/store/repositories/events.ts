import type { EventTable } from '../schema.js';
import type { Db } from '../store.js';

/** Events (arrest, detention at a branch, transfer, death…), appended: corrections are new events. */
export class EventRepository {
  constructor(private readonly db: Db) {}

  async insert(row: EventTable): Promise<void> {
    await this.db.insertInto('events').values(row).execute();
  }

  /** The events a record reports, in date order. */
  async ofRecord(recordId: string): Promise<EventTable[]> {
    return this.db
      .selectFrom('events')
      .selectAll()
      .where('record_id', '=', recordId)
      .orderBy('date_start')
      .orderBy('id')
      .execute();
  }
}
