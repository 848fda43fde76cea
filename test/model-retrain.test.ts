import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAthar } from './cli.js';

/** `athar model retrain --from-decisions` on a real data folder: decisions made, a model written, nothing switched. */
describe('athar model retrain --from-decisions', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-retrain-'));
  const data = ['--data', path.join(dir, 'data')];
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const synth = await runAthar([
      'synth',
      '--people',
      '400',
      '--seed',
      '9',
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
    ]);
    expect(imported.code, imported.stderr).toBe(0);
  }, 120_000);

  it('refuses with no decisions, then learns from them and writes the model without switching to it', async () => {
    const none = await runAthar(['model', 'retrain', '--from-decisions', ...data]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no reviewer decisions in force/);
    expect((await runAthar(['model', 'retrain', ...data])).code).toBe(2);

    // Decisions as reviewers would make them: the synthetic truth on pairs of the records.
    const { openStore } = await import('../src/store/store.js');
    const { loadConfig } = await import('../src/config/config.js');
    const config = loadConfig({ ATHAR_DATA: path.join(dir, 'data') });
    const store = await openStore(config.database);
    const truth = new Map<string, string>();
    for (const line of fs
      .readFileSync(path.join(dir, 'synth', 'truth.csv'), 'utf8')
      .split('\n')
      .slice(1)) {
      const [record, person] = line.split(',');
      if (record && person) truth.set(record, person);
    }
    const records = await store.db
      .selectFrom('records')
      .select(['id', 'external_id'])
      .orderBy('id')
      .execute();
    const byPerson = new Map<string, string[]>();
    for (const r of records) {
      const p = truth.get(r.external_id as string);
      if (p) byPerson.set(p, [...(byPerson.get(p) ?? []), r.id]);
    }
    const rows: { a: string; b: string; match: boolean }[] = [];
    const groups = [...byPerson.values()].filter((g) => g.length > 1).slice(0, 80);
    for (const [i, g] of groups.entries()) {
      rows.push({ a: g[0] as string, b: g[1] as string, match: true });
      const other = groups[(i + 1) % groups.length]?.[0] as string;
      rows.push({ a: g[0] as string, b: other, match: false });
    }
    const reviewer = 'synthetic-reviewer';
    await store.db
      .insertInto('decisions')
      .values(
        rows.map((r, i) => ({
          id: `synthetic-decision-${i}`,
          record_a: r.a < r.b ? r.a : r.b,
          record_b: r.a < r.b ? r.b : r.a,
          decision: r.match ? 'match' : 'non_match',
          reviewer_id: reviewer,
          decided_at: new Date(0).toISOString(),
          model_version: null,
          note: 'SYNTHETIC',
          superseded_by: null,
        })),
      )
      .execute();
    await store.close();

    const out = path.join(dir, 'reviewed.json');
    const run = await runAthar(['model', 'retrain', '--from-decisions', '--out', out, '--json', ...data]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.decisions.matches).toBe(groups.length);
    expect(report.decisions.training + report.decisions.heldOut).toBe(rows.length);
    expect(report.decisions.heldOut).toBeGreaterThan(0);
    expect(report.f1.before).toBeGreaterThan(0.5);
    expect(report.f1.after).toBeGreaterThan(0.5);
    const model = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(model.version).toBe(report.model);
    expect(model.version).toMatch(/^reviewed/);
    // The written model is one athar link takes.
    const link = await runAthar([
      'link',
      path.join(dir, 'synth', 'records.csv'),
      '--model',
      out,
      '--out',
      path.join(dir, 'clusters.csv'),
    ]);
    expect(link.code, link.stderr).toBe(0);
  }, 180_000);
});
