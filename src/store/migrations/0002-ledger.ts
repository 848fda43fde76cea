import type { Kysely, Migration } from 'kysely';
import type { Capabilities } from '../capabilities.js';

/**
 * The tamper-evident log (docs/ledger.md). Entries are staged in ledger_queue inside the caller's transaction and
 * moved into ledger_entries, in order, by the single sequencer, which also grows ledger_tiles (the tree's hashes,
 * one row per c2sp.org/tlog-tiles tile), keeps ledger_rows (the latest entry that vouches for each covered row)
 * and signs ledger_checkpoints. ledger_state holds the tree size; writing it first is how a sequencing transaction
 * takes SQLite's write lock.
 */
export function ledger(caps: Capabilities): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on an untyped database
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ledger_queue')
        .addColumn('id', caps.dialect === 'postgres' ? 'bigint' : 'integer', (c) =>
          caps.dialect === 'postgres'
            ? c.primaryKey().generatedByDefaultAsIdentity()
            : c.primaryKey().autoIncrement(),
        )
        .addColumn('entry', 'text', (c) => c.notNull())
        .addColumn('staged_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('ledger_entries')
        .addColumn('idx', 'bigint', (c) => c.primaryKey())
        .addColumn('entry', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('ledger_tiles')
        .addColumn('level', 'integer', (c) => c.notNull())
        .addColumn('idx', 'bigint', (c) => c.notNull())
        .addColumn('hashes', caps.binaryType, (c) => c.notNull())
        .addPrimaryKeyConstraint('ledger_tiles_pk', ['level', 'idx'])
        .execute();

      await db.schema
        .createTable('ledger_rows')
        .addColumn('table_name', 'text', (c) => c.notNull())
        .addColumn('row_id', 'text', (c) => c.notNull())
        .addColumn('idx', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('ledger_rows_pk', ['table_name', 'row_id'])
        .execute();

      await db.schema
        .createTable('ledger_checkpoints')
        .addColumn('size', 'bigint', (c) => c.primaryKey())
        .addColumn('root', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('ledger_state')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db
        .insertInto('ledger_state')
        .values({ id: 1, size: 0, updated_at: new Date(0).toISOString() })
        .execute();
    },
  };
}
