import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { createTestDatabase } from '../../test/stores.js';
import { openStore } from './store.js';

// PostgreSQL only: SQLite has one namespace per file.

it('migrates a PostgreSQL schema while other schemas of the database come and go', async () => {
  // Another tenant of the database (tests, a second instance, another application) creating and dropping
  // schemas must not fail athar's migration: it reads its own schema only.
  const churn = new pg.Client({ connectionString: inject('pgUrl') });
  await churn.connect();
  let stop = false;
  let churned = 0;
  const churning = (async () => {
    while (!stop) {
      const name = `churn_${churned++}`;
      await churn.query(`create schema ${name}; create table ${name}.t (id serial primary key, v text)`);
      await churn.query(`drop schema ${name} cascade`);
    }
  })();
  try {
    for (let i = 0; i < 8; i++) {
      const database = await createTestDatabase('postgres');
      const store = await openStore(database.config);
      await store.close();
    }
  } finally {
    stop = true;
    await churning;
    await churn.end();
  }
  expect(churned).toBeGreaterThan(8);
});

it('introspects its own schema only: its tables and columns, and the migration tables when asked', async () => {
  const database = await createTestDatabase('postgres');
  const store = await openStore(database.config);
  const other = new pg.Client({ connectionString: inject('pgUrl') });
  await other.connect();
  try {
    await other.query(
      'create schema if not exists someone_else; create table if not exists someone_else.intruder (x int)',
    );
    const tables = await store.db.introspection.getTables();
    const names = tables.map((t) => t.name);
    expect(names).toContain('persons');
    expect(names).not.toContain('intruder');
    expect(names).not.toContain('kysely_migration');
    const schemas = new Set(tables.map((t) => t.schema));
    expect(schemas.size).toBe(1);
    const meta = tables.find((t) => t.name === 'meta')!;
    expect(meta.columns.map((c) => c.name)).toEqual(['key', 'value']);
    expect(meta.columns[0]).toMatchObject({ dataType: 'text', isNullable: false });
    const withInternal = await store.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(withInternal.map((t) => t.name)).toContain('kysely_migration');
    expect((await store.db.introspection.getSchemas()).map((s) => s.name)).toEqual([...schemas]);
  } finally {
    await other.query('drop schema if exists someone_else cascade');
    await other.end();
    await store.close();
  }
});
