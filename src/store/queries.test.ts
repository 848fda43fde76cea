import path from 'node:path';
import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Capabilities, postgresCapabilities, sqliteCapabilities } from './capabilities.js';
import { CandidatePairRepository } from './repositories/candidate-pairs.js';
import { LedgerRepository } from './repositories/ledger.js';
import { PersonPageRepository } from './repositories/person-page.js';
import { RecordRepository } from './repositories/records.js';
import type { Database } from './schema.js';
import type { Db } from './store.js';

/**
 * The SQL of the hot and the hand-written queries, per dialect, kept in `src/store/queries/*.sql` so a change to
 * one is reviewed as SQL (as Immich keeps its `queries/*.sql`). The repositories run against a database that
 * answers nothing (Kysely's DummyDriver) and every statement that reaches it is written down. A changed query
 * fails here until its file is updated (`npx vitest run src/store/queries.test.ts -u`) and the diff reviewed.
 */
const dialects = {
  sqlite: {
    capabilities: sqliteCapabilities,
    adapter: () => new SqliteAdapter(),
    compiler: () => new SqliteQueryCompiler(),
    introspector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
  },
  postgres: {
    capabilities: postgresCapabilities,
    adapter: () => new PostgresAdapter(),
    compiler: () => new PostgresQueryCompiler(),
    introspector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
  },
} as const;

function recording(dialect: keyof typeof dialects): {
  db: Db;
  caps: Capabilities;
  statements: CompiledQuery[];
} {
  const d = dialects[dialect];
  const statements: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: d.adapter,
      createDriver: () => new DummyDriver(),
      createIntrospector: d.introspector,
      createQueryCompiler: d.compiler,
    },
    log: (event) => {
      if (event.level === 'query') statements.push(event.query);
    },
  });
  return { db, caps: d.capabilities, statements };
}

const queries: Record<string, (db: Db, caps: Capabilities) => Promise<unknown>> = {
  'person-page': (db, caps) => new PersonPageRepository(db, caps).load('person-1'),
  'search-key-hits': (db, caps) => new RecordRepository(db, caps).keyHits(['k:MHMD', 'fk:AZM'], {}, 8000),
  'search-key-hits-filtered': (db, caps) =>
    new RecordRepository(db, caps).keyHits(
      ['k:MHMD'],
      { governorateId: 'gov-damascus', from: '2012', withoutWithdrawn: true },
      4000,
    ),
  'search-key-frequency': (db, caps) => new RecordRepository(db, caps).keyFrequency('k:MHMD', 4000),
  'records-page': (db, caps) =>
    new RecordRepository(db, caps).page({ branchId: 'branch-215', withoutWithdrawn: true }, 'record-9', 51),
  'review-queue': (db, caps) =>
    new CandidatePairRepository(db, caps).list('open', 50, { priority: 0.5, id: 'pair-1' }),
  'ledger-upsert-rows': (db, caps) =>
    new LedgerRepository(db, caps).upsertRows([
      { table_name: 'records', row_id: 'record-1', idx: 7, sha256: 'a'.repeat(64) },
      { table_name: 'records', row_id: 'record-2', idx: 8, sha256: 'b'.repeat(64) },
    ]),
};

const folder = path.join(import.meta.dirname, 'queries');

/** Statements as a reviewer reads them: one per block, its parameters listed beneath. */
function asText(statements: readonly CompiledQuery[]): string {
  return `${statements
    .map((s) => `${s.sql.trim()};\n-- parameters: ${JSON.stringify(s.parameters)}`)
    .join('\n\n')}\n`;
}

describe('the SQL of the hot queries', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    for (const [name, run] of Object.entries(queries)) {
      it(`${name} on ${dialect} is the SQL under review in queries/${name}.${dialect}.sql`, async () => {
        const { db, caps, statements } = recording(dialect);
        await run(db, caps);
        expect(statements.length).toBeGreaterThan(0);
        await expect(asText(statements)).toMatchFileSnapshot(path.join(folder, `${name}.${dialect}.sql`));
      });
    }
  }
});
