import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAthar } from '../../../test/cli.js';
import { simulatePeople, strataOf } from '../../estimate/simulate.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-cli-estimate-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const quick = ['--burn-in', '300', '--samples', '100', '--thinning', '3'];
const file = (name: string) => path.join(dir, name);

describe('athar estimate --lists', () => {
  let truth: { stratum: string; size: number }[] = [];
  const lists = ['SNHR.csv', 'families.csv', 'caesar.csv'].map(file);

  beforeAll(() => {
    // SYNTHETIC people on three lists in two governorates; the first file has a header, the others not.
    const world = simulatePeople(
      {
        name: 'cli',
        lists: 3,
        strata: strataOf(4000, 2, 'gov'),
        capture: {
          kind: 'loglinear',
          logits: [-0.9, -1.1, -1.3],
          pairs: [{ lists: [0, 1], logOddsRatio: 0.6 }],
        },
      },
      'cli-estimate',
    );
    truth = world.truth;
    const lines: string[][] = [['person_id,stratum'], [], []];
    world.histories.forEach((h, i) => {
      for (let j = 0; j < 3; j++) if (h.mask & (1 << j)) lines[j]!.push(`SYN-${i},${h.stratum}`);
    });
    for (const [j, f] of lists.entries()) fs.writeFileSync(f, `${lines[j]!.join('\n')}\n`);
  });

  it('prints one JSON object with each stratum’s observed, estimate, interval, model and why, and the total', async () => {
    const run = await runAthar(['estimate', '--lists', ...lists, '--json', ...quick]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.lists).toEqual(['SNHR', 'families', 'caesar']);
    expect(report.input.files.map((f: { header: boolean }) => f.header)).toEqual([true, false, false]);
    expect(report.strata.map((s: { stratum: string }) => s.stratum)).toEqual(['gov 01', 'gov 02']);
    for (const s of report.strata) {
      const size = truth.find((t) => t.stratum === s.stratum)!.size;
      expect(s.observed).toBeLessThan(size);
      for (const m of [s.loglinear, s.lcmcr]) {
        expect(m.estimate).toBeGreaterThan(s.observed);
        expect(m.interval.lower).toBeLessThan(m.interval.upper);
        expect(typeof m.model).toBe('string');
        expect(m.why.length).toBeGreaterThan(20);
      }
      expect(s.loglinear.why).toMatch(/^BIC/);
    }
    expect(report.total.observed).toBe(report.strata[0].observed + report.strata[1].observed);
    expect(report.total.loglinear.estimate).toBeGreaterThan(report.total.observed);
  });

  it('prints a readable report by default, and --method loglinear runs only the log-linear models', async () => {
    const run = await runAthar(['estimate', '--lists', ...lists, '--method', 'loglinear']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^lists: SNHR \([\d,]+\), families \([\d,]+\), caesar \([\d,]+\)/);
    expect(run.stdout).toMatch(/gov 01: [\d,]+ observed/);
    expect(run.stdout).toMatch(/log-linear +[\d,]+ +\(95%: [\d,]+–[\d,]+\)/);
    expect(run.stdout).not.toContain('latent-class');
    expect(run.stdout).toMatch(/\ntotal: [\d,]+ observed/);
  });

  it('names each bad line by file and line, and estimates nothing', async () => {
    const bad = file('bad.csv');
    fs.writeFileSync(bad, 'person_id\nSYN-1\n,gov 01\nSYN-2,gov 01,extra\n');
    const run = await runAthar(['estimate', '--lists', lists[0]!, lists[1]!, bad, '--json']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`athar: ${bad} line 3: person_id is empty`);
    expect(run.stderr).toContain(`athar: ${bad} line 4: expected person_id[,stratum], found 3 fields`);
    expect(run.stderr).toMatch(/2 bad lines in the list files .*nothing estimated/);
  });

  it('refuses fewer than three lists (exit 2) and a list with no records (exit 1), with no number', async () => {
    const two = await runAthar(['estimate', '--lists', lists[0]!, lists[1]!]);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(
      /no estimate: multiple systems estimation needs at least three lists \(got 2\)/,
    );
    const empty = file('empty.csv');
    fs.writeFileSync(empty, 'person_id,stratum\n');
    const none = await runAthar(['estimate', '--lists', lists[0]!, lists[1]!, empty, '--json']);
    expect(none.code).toBe(1);
    const report = JSON.parse(none.stdout);
    expect(report.refusal.code).toBe('empty-list');
    expect(report.strata).toEqual([]);
    expect(none.stderr).toMatch(/no estimate: list empty has no records/);
  });

  it('rejects a bad option or a missing file as a usage error', async () => {
    const method = await runAthar(['estimate', '--lists', ...lists, '--method', 'magic']);
    expect(method.code).toBe(2);
    expect(method.stderr).toContain('--method must be loglinear, lcmcr or both (got magic)');
    const missing = await runAthar(['estimate', '--lists', lists[0]!, lists[1]!, file('nope.csv')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.csv: no such file');
  });
});
