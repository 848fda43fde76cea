import pg from 'pg';
import { openStore, type Store } from '../src/store/store.js';

/**
 * A new UTF-8 PostgreSQL database for one bench suite, dropped afterwards; undefined (and a line on stderr) when
 * PostgreSQL cannot be reached, so the suite leaves its PostgreSQL rows out rather than failing.
 */
export async function benchPostgresStore(
  prefix: string,
  poolSize: number,
): Promise<{ store: Store; url: string; drop: () => Promise<void> } | undefined> {
  const adminUrl = process.env.ATHAR_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
    await admin.query(`create database ${name} encoding 'UTF8' template template0`);
  } catch (error) {
    process.stderr.write(`PostgreSQL not reachable (${(error as Error).message}): its rows are left out\n`);
    return undefined;
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const store = await openStore({ kind: 'postgres', url: url.toString(), poolSize });
  return {
    store,
    url: url.toString(),
    drop: async () => {
      await store.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
