import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';
import { slices } from '../slices.js';
import type { Db } from '../store.js';

/** A database handle that may name any table: verify walks tables by name from the log's list of covered ones. */
type AnyTables = Kysely<Database & Record<string, Record<string, unknown>>>;

/** What `athar verify` reads beside the log: rows page by page, and which items name a blob. */
export class IntegrityRepository {
  constructor(private readonly db: Db) {}

  private get any(): AnyTables {
    return this.db as unknown as AnyTables;
  }

  /** The items whose original, thumbnail or blurred view is this blob. */
  async itemsNamingBlob(sha256: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('evidence_items')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('sha256', '=', sha256),
          eb('thumbnail_sha256', '=', sha256),
          eb('blurred_sha256', '=', sha256),
        ]),
      )
      .execute();
    return rows.map((r) => r.id);
  }

  /** A page of items' blob names, by id after `after`. */
  blobsPage(after: string, limit: number) {
    return this.db
      .selectFrom('evidence_items')
      .select(['id', 'sha256', 'thumbnail_sha256', 'blurred_sha256'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** A page of a table's rows (these columns), by id after `after`. */
  async rowsPage(
    table: string,
    columns: readonly string[],
    after: string,
    limit: number,
  ): Promise<Record<string, unknown>[]> {
    return (await this.any
      .selectFrom(table)
      .select(columns as string[])
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute()) as Record<string, unknown>[];
  }

  /** The ids among these that a table holds. */
  async existing(table: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = (await this.any
      .selectFrom(table)
      .select('id')
      .where('id', 'in', [...ids])
      .execute()) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  /** A page of items as verify checks their views, flag and PDQ, by id after `after`. */
  itemsPage(after: string, limit: number) {
    return this.db
      .selectFrom('evidence_items')
      .select([
        'id',
        'sha256',
        'thumbnail_sha256',
        'blurred_sha256',
        'graphic',
        'pdq',
        'decode_status',
        'ingest_run_id',
      ])
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** The custody events of these kinds about these items, oldest first. */
  eventsFor(evidenceIds: readonly string[], kinds: readonly string[]) {
    if (evidenceIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('custody_events')
      .select(['id', 'evidence_id', 'kind', 'at', 'details'])
      .where('evidence_id', 'in', [...evidenceIds])
      .where('kind', 'in', [...kinds])
      .orderBy('at')
      .orderBy('id')
      .execute();
  }

  /** Every `annotated` custody event, oldest first (what each annotation's value and link must agree with). */
  annotationEvents() {
    return this.db
      .selectFrom('custody_events')
      .select(['id', 'evidence_id', 'at', 'details'])
      .where('kind', '=', 'annotated')
      .orderBy('at')
      .orderBy('id')
      .execute();
  }

  annotationsPage(after: string, limit: number) {
    return this.db
      .selectFrom('annotations')
      .selectAll()
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  locationsFor(evidenceIds: readonly string[]) {
    if (evidenceIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('evidence_locations')
      .select(['id', 'evidence_id', 'ingest_run_id', 'path_key', 'path_b64', 'path'])
      .where('evidence_id', 'in', [...evidenceIds])
      .execute();
  }

  ingestRuns() {
    return this.db.selectFrom('ingest_runs').select(['id', 'custodian', 'note', 'host']).execute();
  }

  /**
   * Views named by more than one item whose pictures differ (their PDQ hashes, or an item without one), and views
   * that are some item's original: a thumbnail or blurred view aimed at another item.
   */
  async sharedViews(): Promise<
    { column: 'thumbnail_sha256' | 'blurred_sha256'; sha256: string; ids: string[] }[]
  > {
    const out: { column: 'thumbnail_sha256' | 'blurred_sha256'; sha256: string; ids: string[] }[] = [];
    for (const column of ['thumbnail_sha256', 'blurred_sha256'] as const) {
      const shared = await this.db
        .selectFrom('evidence_items')
        .select((eb) => [eb.ref(column).as('sha256')])
        .where(column, 'is not', null)
        .groupBy(column)
        .having((eb) => eb.fn.count(sql`distinct coalesce(pdq, id)`), '>', 1)
        .limit(1000)
        .execute();
      const originals = await this.db
        .selectFrom('evidence_items as e')
        .innerJoin('evidence_items as o', 'o.sha256', `e.${column}`)
        .select((eb) => [eb.ref(`e.${column}`).as('sha256')])
        .limit(1000)
        .execute();
      const shas = [...new Set([...shared, ...originals].map((r) => r.sha256 as string))];
      for (const chunk of slices(shas, 500)) {
        const rows = await this.db
          .selectFrom('evidence_items')
          .select(['id', 'sha256', column])
          .where((eb) => eb.or([eb(column, 'in', chunk), eb('sha256', 'in', chunk)]))
          .orderBy('id')
          .execute();
        for (const sha of chunk) {
          const ids = rows
            .filter((r) => (r as Record<string, unknown>)[column] === sha || r.sha256 === sha)
            .map((r) => r.id);
          out.push({ column, sha256: sha, ids });
        }
      }
    }
    return out;
  }
}
