/**
 * `athar registry link` from the command line, as a user runs it: on records imported from a CSV, it makes the
 * same persons as `athar link` makes of the file at the same threshold; a kill -9 while it writes leaves every
 * record in exactly one person, and the next run finishes the work to the same persons.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/store.js';
import { runAthar } from './cli.js';
import { createTestDatabase, dialects, type TestDatabase } from './stores.js';

const bin = path.resolve(import.meta.dirname, '../bin/athar.js');

/** Persons as sets of the file's record ids, for comparing partitions. */
function partition(rows: Record<string, string>[], id: string, group: string): string[] {
  const groups = new Map<string, string[]>();
  for (const r of rows)
    groups.set(r[group] as string, [...(groups.get(r[group] as string) ?? []), r[id] as string]);
  return [...groups.values()].map((g) => g.sort().join(' ')).sort();
}

describe.each(dialects)('athar registry link [%s]', (dialect) => {
  let dir: string;
  let database: TestDatabase;
  let data: string[];
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-registry-link-'));
    database = await createTestDatabase(dialect);
    const url = database.config.kind === 'sqlite' ? `sqlite:${database.config.file}` : database.config.url;
    data = ['--data', path.join(dir, 'data'), '--database-url', url];
    const synth = await runAthar([
      'synth',
      '--people',
      '1500',
      '--seed',
      '5',
      '--out',
      path.join(dir, 'synth'),
    ]);
    expect(synth.code, synth.stderr).toBe(0);
    const imported = await runAthar([
      'import',
      path.join(dir, 'synth', 'records.csv'),
      '--kind',
      'registry_line',
      ...data,
      '--json',
    ]);
    expect(imported.code, imported.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is killed while it writes, leaves every record in one person, and the next run finishes to athar link’s persons', async () => {
    const url = database.config.kind === 'sqlite' ? `sqlite:${database.config.file}` : database.config.url;
    // Kill it as soon as its first batch of moves is committed.
    const killedOut = path.join(dir, 'killed.csv');
    const child = spawn(process.execPath, [bin, 'registry', 'link', ...data, '--out', killedOut, '--json'], {
      env: { ...process.env, ATHAR_LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const store = await openStore(database.config, { migrate: false });
    try {
      const killed = await new Promise<boolean>((resolve) => {
        const timer = setInterval(async () => {
          const moved = await store.db
            .selectFrom('record_links')
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .where('basis', '=', 'model')
            .executeTakeFirst()
            .catch(() => undefined);
          if (Number(moved?.n ?? 0) > 0) {
            clearInterval(timer);
            child.kill('SIGKILL');
            resolve(true);
          }
        }, 20);
        child.on('exit', () => {
          clearInterval(timer);
          resolve(false);
        });
      });
      // On a fast machine the run may end before the watcher sees a move: then there was nothing to interrupt.
      if (killed) await new Promise((resolve) => child.on('exit', resolve));
      const open = await store.db
        .selectFrom('record_links')
        .select(['record_id', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where('unlinked_at', 'is', null)
        .groupBy('record_id')
        .execute();
      const records = await store.db
        .selectFrom('records')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirst();
      expect(open.length).toBe(Number(records?.n));
      expect(open.every((r) => Number(r.n) === 1)).toBe(true);
      // Its file is written beside the moves and named --out only once complete: killed before that, there is
      // none; after (the kill may land as the run ends), it names every record.
      if (fs.existsSync(killedOut))
        expect(parse(fs.readFileSync(killedOut), { columns: true })).toHaveLength(Number(records?.n));
    } finally {
      await store.close();
    }

    // The killed run's lock is taken over: its process is gone.
    const out = path.join(dir, 'persons.csv');
    const again = await runAthar(['registry', 'link', ...data, '--out', out, '--json'], {
      timeoutMs: 180_000,
    });
    expect(again.code, again.stderr).toBe(0);
    const summary = JSON.parse(again.stdout);
    const persons = parse(fs.readFileSync(out), { columns: true }) as Record<string, string>[];
    expect(persons.length).toBe(summary.records);
    expect(fs.existsSync(`${out}.partial`)).toBe(false);
    // The file is written from what the run read and wrote: each record's person is the one the registry holds.
    const check = await openStore(database.config, { migrate: false });
    try {
      const held = await check.db
        .selectFrom('record_links')
        .select(['record_id', 'person_id'])
        .where('unlinked_at', 'is', null)
        .execute();
      expect(new Map(persons.map((p) => [p.record_id, p.person_id]))).toEqual(
        new Map(held.map((h) => [h.record_id, h.person_id])),
      );
    } finally {
      await check.close();
    }

    const clusters = path.join(dir, 'clusters.csv');
    const linked = await runAthar([
      'link',
      path.join(dir, 'synth', 'records.csv'),
      '--out',
      clusters,
      '--threshold',
      String(summary.model.autoLinkAt),
      '--json',
    ]);
    expect(linked.code, linked.stderr).toBe(0);
    const fromFile = parse(fs.readFileSync(clusters), { columns: true }) as Record<string, string>[];
    expect(partition(persons, 'external_id', 'person_id')).toEqual(
      partition(fromFile, 'record_id', 'cluster_id'),
    );

    // Nothing left to do: a third run moves nothing, and the log still verifies.
    const third = await runAthar(['registry', 'link', ...data, '--json']);
    expect(JSON.parse(third.stdout)).toMatchObject({ moved: 0, merged: 0, persons: summary.persons });
    const verify = await runAthar(['verify', ...data, '--json'], { timeoutMs: 120_000 });
    expect(verify.code, verify.stdout).toBe(0);
    void url;
  }, 300_000);
});
