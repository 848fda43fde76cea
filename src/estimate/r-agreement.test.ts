/**
 * athar's hand-written IRLS against a peer: R's glm(family = poisson), with R's own defaults, fitted to the same
 * 2^K − 1 cells with the same design. The estimate of the unobserved cell, n + exp(intercept), must agree to 1e-6
 * (relative); AIC too. Needs Debian's r-base-core: without Rscript the test fails and says so.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fitModel, pairsOf } from './loglinear.js';
import { scenarios } from './scenarios.js';
import { simulateTables } from './simulate.js';
import type { StratumTable } from './tables.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-estimate-r-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function rscript(): string {
  const found = spawnSync('Rscript', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error('Rscript not found: the R agreement test needs R (apt-get install r-base-core)');
  }
  return 'Rscript';
}

/** A table R reads: y, c1…cK for each observed pattern. */
function writeTable(table: StratumTable, file: string): void {
  const k = table.lists;
  const rows = [['y', ...Array.from({ length: k }, (_, j) => `c${j + 1}`)].join(',')];
  for (let mask = 1; mask < 1 << k; mask++) {
    rows.push([table.counts[mask], ...Array.from({ length: k }, (_, j) => (mask >> j) & 1)].join(','));
  }
  fs.writeFileSync(file, `${rows.join('\n')}\n`);
}

function formulaOf(k: number, pairMask: number): string {
  const mains = Array.from({ length: k }, (_, j) => `c${j + 1}`);
  const pairs = pairsOf(k)
    .filter((_, t) => pairMask & (1 << t))
    .map(([a, b]) => `c${a + 1}:c${b + 1}`);
  return `y ~ ${[...mains, ...pairs].join(' + ')}`;
}

describe('the log-linear fit agrees with R glm(family = poisson)', () => {
  it('gives the same estimate of the unobserved and the same AIC for 3 to 6 lists and several models', () => {
    const r = rscript();
    const cases: { file: string; formula: string; estimate: number; aic: number }[] = [];
    // Tables from worlds of every kind (dependent lists, classes, continuous heterogeneity), 3 to 6 lists.
    for (const [i, scenario] of scenarios.entries()) {
      const { tables } = simulateTables(scenario, `r-agreement-${i}`);
      const table = tables[0]!;
      const file = path.join(dir, `table-${i}.csv`);
      writeTable(table, file);
      const k = table.lists;
      const all = (1 << pairsOf(k).length) - 1;
      for (const pairMask of [0, 1, 0b101, all & 0b1011011, all & 0b110]) {
        const { fit, missing } = fitModel(table, pairMask);
        const n = table.counts.reduce((s, v) => s + v, 0);
        cases.push({ file, formula: formulaOf(k, pairMask), estimate: n + missing, aic: fit.aic });
      }
    }
    const manifest = path.join(dir, 'cases.tsv');
    fs.writeFileSync(manifest, `${cases.map((c) => `${c.file}\t${c.formula}`).join('\n')}\n`);
    const script = path.join(dir, 'fit.R');
    fs.writeFileSync(
      script,
      [
        'cases <- read.delim(commandArgs(TRUE)[1], header = FALSE, stringsAsFactors = FALSE)',
        'for (i in seq_len(nrow(cases))) {',
        '  d <- read.csv(cases[i, 1])',
        '  f <- glm(as.formula(cases[i, 2]), family = poisson, data = d)',
        "  cat(sprintf('%.17g\\t%.17g\\n', sum(d$y) + exp(coef(f)[[1]]), AIC(f)))",
        '}',
      ].join('\n'),
    );
    const lines = execFileSync(r, [script, manifest], { encoding: 'utf8' }).trim().split('\n');
    expect(lines).toHaveLength(cases.length);
    expect(cases.length).toBeGreaterThanOrEqual(40);
    lines.forEach((line, i) => {
      const [estimate, aic] = line.split('\t').map(Number) as [number, number];
      const ours = cases[i]!;
      expect(Math.abs(ours.estimate - estimate) / estimate, `${ours.formula} on ${ours.file}`).toBeLessThan(
        1e-6,
      );
      expect(Math.abs(ours.aic - aic) / Math.abs(aic), `AIC of ${ours.formula}`).toBeLessThan(1e-6);
    });
  });
});
