import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureSystemPackages } from './system-packages.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh PostgreSQL database made for this run (UTF-8), dropped after it. */
    pgUrl: string;
  }
}

/**
 * Makes one PostgreSQL database for the whole run. PostgreSQL is required: if it cannot be reached the run fails
 * here, with the reason, rather than skipping the dialect.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  ensureSystemPackages();
  // The browser tests run against the built web app; build it if the sources are newer.
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '..', 'scripts', 'build-web.js')], {
    stdio: 'inherit',
  });
  const adminUrl = process.env.ATHAR_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is required for the storage tests and cannot be reached at ${adminUrl.replace(/:[^:@/]*@/, ':***@')}: ${(error as Error).message}. Start it (pg_ctlcluster --skip-systemctl-redirect <version> main start) or set ATHAR_TEST_DATABASE_URL.`,
    );
  }
  const name = `athar_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await admin.query(
    `create database ${name} encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8' template template0`,
  );
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  project.provide('pgUrl', url.toString());
  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  };
}
