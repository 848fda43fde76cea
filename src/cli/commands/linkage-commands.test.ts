import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAthar } from '../../../test/cli.js';

const athar = (args: string[]) => runAthar(args, { timeoutMs: 120_000 });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-cli-linkage-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('athar synth, link and match', () => {
  const synthDir = path.join(dir, 'synth');

  beforeAll(async () => {
    const run = await athar(['synth', '--people', '300', '--seed', '9', '--out', synthDir, '--json']);
    expect(run.code).toBe(0);
  });

  it('synth writes records, truth and stats, and --json prints one object with the ceiling', async () => {
    const run = await athar(['synth', '--people', '50', '--out', path.join(dir, 'small'), '--json']);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ people: 50, label: expect.stringContaining('SYNTHETIC') });
    expect(summary.ceiling).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(dir, 'small', 'truth.csv'), 'utf8').split('\n')[0]).toBe(
      'record_id,person_id',
    );
  });

  it('link writes record_id,cluster_id for every record and summarises in JSON', async () => {
    const out = path.join(dir, 'clusters.csv');
    const run = await athar(['link', path.join(synthDir, 'records.csv'), '--out', out, '--json']);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('record_id,cluster_id');
    expect(lines).toHaveLength(summary.records + 1);
    expect(summary.clusters).toBeLessThan(summary.records);
  });

  it('link --explain prints the waterfall of two records', async () => {
    const ids = fs
      .readFileSync(path.join(synthDir, 'records.csv'), 'utf8')
      .split('\n')
      .slice(1, 3)
      .map((l) => l.split(',')[0] as string);
    const run = await athar(['link', path.join(synthDir, 'records.csv'), '--explain', ids[0]!, ids[1]!]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('prior');
    expect(run.stdout).toMatch(/match probability/);
  });

  it('match answers each query with ranked candidates and reports latency', async () => {
    const records = fs.readFileSync(path.join(synthDir, 'records.csv'), 'utf8').trim().split('\n');
    const queries = path.join(dir, 'queries.csv');
    fs.writeFileSync(queries, [records[0], ...records.slice(1, 6)].join('\n'));
    const out = path.join(dir, 'matches.csv');
    const run = await athar([
      'match',
      path.join(synthDir, 'records.csv'),
      '--queries',
      queries,
      '--top',
      '3',
      '--out',
      out,
      '--json',
    ]);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.latencyMs.p95).toBeGreaterThanOrEqual(summary.latencyMs.p50);
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('query_id,rank,record_id,score');
    // A query that is itself in the registry finds itself first.
    const first = records[1]!.split(',')[0];
    expect(lines[1]).toMatch(new RegExp(`^${first},1,${first},`));
  });

  it('says what is wrong: usage errors exit 2, bad input exits 1 with the file named', async () => {
    const noOut = await athar(['link', path.join(synthDir, 'records.csv')]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--out');
    const badTop = await athar(['match', 'r.csv', '--queries', 'q.csv', '--out', 'o.csv', '--top', '0']);
    expect(badTop.code).toBe(2);
    const dup = path.join(dir, 'dup.csv');
    fs.writeFileSync(dup, 'record_id,full_name\n7,Ali Hasan\n7,Ali Hasan\n');
    const run = await athar(['link', dup, '--out', path.join(dir, 'x.csv')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/duplicate record_id: 7/);
    const missing = await athar(['link', path.join(dir, 'nope.csv'), '--out', path.join(dir, 'y.csv')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.csv: no such file/);
  });
});
