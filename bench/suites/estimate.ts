/**
 * Estimation: on SYNTHETIC populations with a known total (src/estimate/scenarios.ts: 3–6 lists, 1,000–500,000
 * people, dependent lists, latent classes, continuous heterogeneity), the 95% interval's coverage of the truth over
 * many runs, the bias and the interval's width, per scenario and method; the log-linear fit of a 5-list,
 * 20-stratum registry of 1M records against a 10 s goal (and against the same run's tally of the histories); the
 * agreement with R's glm (and, where the R package is installed, with R's LCMCR); and the linkage's uncertainty
 * carried into the interval.
 *
 * Choices are made on tune seeds (`tune-1…`) and figures reported on report seeds (`report-1…`), never the same.
 * `--quick`: fewer runs. `BENCH_ESTIMATE=coverage,registry,r,linkage` (comma-separated) runs only those parts; the
 * criterion is then BIC, the default the tune part chose when it last ran.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { estimateFromHistories, type MethodEstimate } from '../../src/estimate/estimate.js';
import { estimateLcmcr, type LcmcrOptions } from '../../src/estimate/lcmcr.js';
import { type CandidatePair, type LinkageRecord, samplePersonSets } from '../../src/estimate/linkage.js';
import { type Criterion, estimateLoglinear, fitModel, pairsOf } from '../../src/estimate/loglinear.js';
import { Rng } from '../../src/estimate/random.js';
import { type JudgedScenario, scenarios } from '../../src/estimate/scenarios.js';
import { simulatePeople, simulateTables, strataOf } from '../../src/estimate/simulate.js';
import { refusalOf, summarise, tally } from '../../src/estimate/tables.js';
import { type BenchRow, percentile, quick, report } from '../harness.js';

const suite = 'estimate';
const rows: BenchRow[] = [];
const log = (text: string) => process.stderr.write(`${text}\n`);
const runsLoglinear = quick ? 20 : 200;
const runsLcmcr = quick ? 5 : 60;
const tuneRuns = quick ? 10 : 40;
/** The bench's sampler settings (the CLI's defaults run 4× longer): 2 × (5,000 + 500 × 20) iterations. */
const lcmcrBench: Partial<LcmcrOptions> = { burnIn: 5000, samples: 500, thinning: 20, chains: 2 };
const parts = new Set((process.env.BENCH_ESTIMATE ?? 'tune,coverage,registry,r,linkage').split(','));
const letters = (k: number) => Array.from({ length: k }, (_, j) => String.fromCharCode(65 + j));

interface Tally {
  covered: number;
  runs: number;
  refused: number;
  noUpper: number;
  bias: number[];
  width: number[];
  ms: number[];
}

const fresh = (): Tally => ({ covered: 0, runs: 0, refused: 0, noUpper: 0, bias: [], width: [], ms: [] });

function judge(
  scenario: JudgedScenario,
  method: 'loglinear' | 'lcmcr',
  seeds: string[],
  criterion: Criterion,
): Tally {
  const t = fresh();
  const names = letters(scenario.lists);
  for (const seed of seeds) {
    const { tables, truth } = simulateTables(scenario, seed);
    const table = tables[0]!;
    const summary = summarise(table);
    const size = truth[0]!.size;
    t.runs++;
    if (refusalOf(summary, names)) {
      t.refused++;
      continue;
    }
    const start = performance.now();
    let lower: number;
    let upper: number | null;
    let estimate: number;
    if (method === 'loglinear') {
      const r = estimateLoglinear(table, summary, names, { criterion });
      if ('refusal' in r) {
        t.refused++;
        continue;
      }
      ({ lower, upper } = r.interval);
      estimate = r.estimate;
    } else {
      const r = estimateLcmcr(table, summary, { ...lcmcrBench, seed });
      ({ lower, upper } = r.interval);
      estimate = r.estimate;
    }
    t.ms.push(performance.now() - start);
    if (upper === null) t.noUpper++;
    if (lower <= size && (upper === null || size <= upper)) t.covered++;
    t.bias.push((estimate - size) / size);
    t.width.push(((upper ?? Number.POSITIVE_INFINITY) - lower) / size);
  }
  return t;
}

const seedsOf = (kind: 'tune' | 'report', n: number) =>
  Array.from({ length: n }, (_, i) => `${kind}-${i + 1}`);
const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : Number.NaN);
const coverage = (t: Tally) => t.covered / Math.max(1, t.runs - t.refused);

// --- 1. Choosing the criterion on tune seeds ---------------------------------------------------------------
const suitedLoglinear = scenarios.filter((s) => s.suits === 'loglinear' && parts.has('tune'));
const tune: Record<Criterion, number[]> = { bic: [], aic: [] };
const tuneDetail: string[] = [];
for (const scenario of suitedLoglinear) {
  const seeds = seedsOf('tune', tuneRuns);
  const bic = coverage(judge(scenario, 'loglinear', seeds, 'bic'));
  const aic = coverage(judge(scenario, 'loglinear', seeds, 'aic'));
  tune.bic.push(bic);
  tune.aic.push(aic);
  tuneDetail.push(`${scenario.name} ${bic.toFixed(3)}/${aic.toFixed(3)}`);
  log(`tune ${scenario.name}: coverage BIC ${bic.toFixed(3)}, AIC ${aic.toFixed(3)}`);
}
// The criterion whose worst scenario covers best (ties: BIC, the simpler models).
const chosen: Criterion = Math.min(...tune.aic) > Math.min(...tune.bic) ? 'aic' : 'bic';
if (parts.has('tune'))
  rows.push({
    suite,
    name: 'tune: log-linear model choice, BIC vs AIC (worst coverage over the log-linear worlds)',
    size: `${suitedLoglinear.length} scenarios × ${tuneRuns} tune seeds (tune-1…tune-${tuneRuns})`,
    extra: {
      chosen,
      worstBic: Math.min(...tune.bic),
      worstAic: Math.min(...tune.aic),
      perScenarioBicAic: tuneDetail.join('; '),
    },
  });

// --- 2. Coverage, bias and width on report seeds ------------------------------------------------------------
for (const scenario of parts.has('coverage') ? scenarios : []) {
  const size = scenario.strata.reduce((s, x) => s + x.size, 0);
  const methods: ('loglinear' | 'lcmcr')[] = ['loglinear'];
  if (scenario.suits !== 'loglinear' || scenario.name === 'independent-3x1k') methods.push('lcmcr');
  for (const method of methods) {
    const runs = method === 'loglinear' ? runsLoglinear : runsLcmcr;
    const seeds = seedsOf('report', runs);
    const t = judge(scenario, method, seeds, chosen);
    const cov = coverage(t);
    const suited = scenario.suits === method;
    log(
      `${scenario.name} ${method}: coverage ${cov.toFixed(3)} over ${t.runs - t.refused} runs, bias ${(mean(t.bias) * 100).toFixed(2)}%`,
    );
    rows.push({
      suite,
      name: `coverage: ${scenario.name} — ${method === 'loglinear' ? `log-linear (${chosen.toUpperCase()})` : 'LCMCR'}${suited ? ' [suited]' : ''}`,
      size: `${size.toLocaleString('en-US')} people, ${scenario.lists} lists, ${runs} runs`,
      p50Ms: percentile(t.ms, 50),
      p95Ms: percentile(t.ms, 95),
      ratio: suited ? { against: 'goal 0.90', value: cov / 0.9, goal: 'coverage ≥ 0.90' } : undefined,
      extra: {
        coverage: cov,
        biasPct: mean(t.bias) * 100,
        medianWidthPct: percentile(t.width, 50) * 100,
        refused: t.refused,
        noUpperBound: t.noUpper,
        suits: scenario.suits,
        seeds: `report-1…report-${runs}`,
        about: scenario.about,
      },
    });
  }
}

// --- 3. Time: the log-linear fit of a 5-list, 20-stratum registry of 1M records ----------------------------------
if (parts.has('registry')) {
  const world = {
    name: 'registry',
    lists: 5,
    strata: strataOf(725_000, 20, 'governorate'),
    capture: {
      kind: 'loglinear' as const,
      logits: [-0.8, -1.0, -1.2, -0.9, -1.4],
      pairs: [
        { lists: [0, 1] as [number, number], logOddsRatio: 0.6 },
        { lists: [2, 3] as [number, number], logOddsRatio: -0.5 },
        { lists: [1, 4] as [number, number], logOddsRatio: 0.3 },
      ],
    },
  };
  const { histories } = simulatePeople(world, 'registry-1');
  let records = 0;
  for (const h of histories) for (let m = h.mask; m; m &= m - 1) records++;
  const lists = letters(5);
  const cpuOf = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
  // Baseline: one pass over the histories into the 20 tables (what any estimate must do first).
  let c0 = process.cpuUsage();
  let w0 = performance.now();
  tally(5, histories);
  const tallyMs = performance.now() - w0;
  const tallyCpu = cpuOf(process.cpuUsage(c0));
  c0 = process.cpuUsage();
  w0 = performance.now();
  const r = estimateFromHistories({ lists, histories }, { method: 'loglinear' });
  const fitMs = performance.now() - w0;
  const fitCpu = cpuOf(process.cpuUsage(c0));
  const fitted = r.strata.filter((s) => s.loglinear && 'estimate' in s.loglinear).length;
  log(
    `registry fit: ${(fitMs / 1000).toFixed(2)} s wall, ${(fitCpu / 1000).toFixed(2)} CPU-s (tally ${tallyMs.toFixed(0)} ms)`,
  );
  rows.push({
    suite,
    name: 'log-linear fit of a registry: 20 strata × 1,024 models, profile intervals (estimateFromHistories)',
    size: `${records.toLocaleString('en-US')} records, ${histories.length.toLocaleString('en-US')} people, 5 lists, 20 strata`,
    p50Ms: fitMs,
    ratio: { against: '10 s goal', value: fitMs / 10_000, goal: '≤ 1' },
    extra: {
      cpuMs: fitCpu,
      tallyBaselineMs: tallyMs,
      tallyCpuMs: tallyCpu,
      fitOverTally: fitMs / tallyMs,
      stratafitted: fitted,
      seed: 'registry-1',
    },
  });
}

// --- 4. Agreement with R ---------------------------------------------------------------------------------------
const hasR = spawnSync('Rscript', ['--version']).status === 0;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-bench-estimate-'));
try {
  if (!parts.has('r')) {
    // skipped on request
  } else if (!hasR) {
    rows.push({
      suite,
      name: 'agreement with R glm(family = poisson)',
      size: '—',
      extra: { r: 'Rscript not installed (apt-get install r-base-core)' },
    });
  } else {
    const cases: { file: string; formula: string; ours: number }[] = [];
    scenarios.forEach((scenario, i) => {
      const { tables } = simulateTables(scenario, `r-agreement-${i}`);
      const t = tables[0]!;
      const k = t.lists;
      const file = path.join(dir, `t${i}.csv`);
      const lines = [['y', ...Array.from({ length: k }, (_, j) => `c${j + 1}`)].join(',')];
      for (let m = 1; m < 1 << k; m++)
        lines.push([t.counts[m], ...Array.from({ length: k }, (_, j) => (m >> j) & 1)].join(','));
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      const all = (1 << pairsOf(k).length) - 1;
      for (const mask of [0, 1, 0b101, all & 0b1011011, all & 0b110]) {
        const terms = pairsOf(k)
          .filter((_, b) => mask & (1 << b))
          .map(([a, b]) => `c${a + 1}:c${b + 1}`);
        const formula = `y ~ ${[...Array.from({ length: k }, (_, j) => `c${j + 1}`), ...terms].join(' + ')}`;
        const n = t.counts.reduce((s, v) => s + v, 0);
        cases.push({ file, formula, ours: n + fitModel(t, mask).missing });
      }
    });
    const manifest = path.join(dir, 'cases.tsv');
    fs.writeFileSync(manifest, cases.map((c) => `${c.file}\t${c.formula}`).join('\n'));
    const script = path.join(dir, 'glm.R');
    fs.writeFileSync(
      script,
      "cases <- read.delim(commandArgs(TRUE)[1], header = FALSE, stringsAsFactors = FALSE)\nfor (i in seq_len(nrow(cases))) { d <- read.csv(cases[i, 1]); f <- glm(as.formula(cases[i, 2]), family = poisson, data = d); cat(sprintf('%.17g\\n', sum(d$y) + exp(coef(f)[[1]]))) }\n",
    );
    const theirs = execFileSync('Rscript', [script, manifest], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(Number);
    const worst = Math.max(...cases.map((c, i) => Math.abs(c.ours - theirs[i]!) / theirs[i]!));
    log(`R glm: worst relative difference ${worst.toExponential(2)} over ${cases.length} fits`);
    rows.push({
      suite,
      name: 'agreement with R glm(family = poisson), R’s defaults: estimate n + exp(intercept)',
      size: `${cases.length} fits, ${scenarios.length} tables of 3–6 lists`,
      extra: { worstRelativeDifference: worst.toExponential(2), goal: '≤ 1e-6', met: worst <= 1e-6 },
    });

    // R's LCMCR package, where it is installed (it is not a dependency: see docs/estimation.md).
    const lib = process.env.BENCH_R_LIBS ?? '';
    const probe = spawnSync('Rscript', [
      '-e',
      `suppressMessages(library(LCMCR${lib ? `, lib.loc='${lib}'` : ''}))`,
    ]);
    if (probe.status !== 0) {
      rows.push({
        suite,
        name: 'agreement with R’s LCMCR package',
        size: '—',
        extra: { r: 'LCMCR not installed (set BENCH_R_LIBS to its library)' },
      });
    } else {
      const parts: string[] = [];
      let worstQ = 0;
      for (const name of ['classes-4x5k', 'continuous-5x20k']) {
        const scenario = scenarios.find((s) => s.name === name)!;
        const { tables } = simulateTables(scenario, 'lcmcr-agreement');
        const t = tables[0]!;
        const k = t.lists;
        const file = path.join(dir, `lcmcr-${name}.csv`);
        const lines = [[...Array.from({ length: k }, (_, j) => `c${j + 1}`), 'Freq'].join(',')];
        for (let m = 1; m < 1 << k; m++)
          lines.push([...Array.from({ length: k }, (_, j) => (m >> j) & 1), t.counts[m]].join(','));
        fs.writeFileSync(file, `${lines.join('\n')}\n`);
        const out = execFileSync(
          'Rscript',
          [
            '-e',
            `suppressMessages(library(LCMCR${lib ? `, lib.loc='${lib}'` : ''})); d <- read.csv('${file}'); for (j in 1:${k}) d[[j]] <- factor(d[[j]], levels = c(0, 1)); s <- lcmCR(captures = d, tabular = TRUE, in_list_label = '1', not_in_list_label = '0', K = 10, a_alpha = 0.25, b_alpha = 0.25, seed = 123, buffer_size = 10000, thinning = 50, verbose = FALSE); N <- lcmCR_PostSampl(s, burnin = 10000, samples = 2000, thinning = 50, output = FALSE); cat(quantile(N, c(0.025, 0.5, 0.975)))`,
          ],
          { encoding: 'utf8' },
        )
          .trim()
          .split(/\s+/)
          .map(Number);
        const ours = estimateLcmcr(t, summarise(t), { seed: 9, burnIn: 10_000, samples: 1000, thinning: 50 });
        const mine = [ours.interval.lower, ours.estimate, ours.interval.upper];
        const observed = summarise(t).observed;
        // Differences relative to the estimated missing (what the two samplers actually estimate).
        const diffs = mine.map((q, i) => Math.abs(q - out[i]!) / (out[1]! - observed));
        worstQ = Math.max(worstQ, ...diffs);
        parts.push(
          `${name}: R ${out.map((q) => Math.round(q)).join('/')} athar ${mine.map((q) => Math.round(q)).join('/')}`,
        );
      }
      log(`R LCMCR: ${parts.join('; ')}`);
      rows.push({
        suite,
        name: 'agreement with R’s LCMCR 0.4.14: posterior 2.5/50/97.5% of N (same table, same priors, K* = 10)',
        size: '2 tables; R 2,000 draws, athar 2 × 1,000',
        extra: { quantiles: parts.join('; '), worstDifferenceShareOfMissing: worstQ },
      });
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

// --- 5. Linkage uncertainty carried into the interval ------------------------------------------------------------
if (parts.has('linkage')) {
  // People from an independent 3-list world (the truth), one record per list they are on. Candidate pairs: each
  // person's records, with a match score s ~ Beta(5, 1), and as many decoys between different people, s ~ Beta(1, 5).
  // Each pair's probability is what s says by Bayes' rule, p = s⁴ / (s⁴ + (1 − s)⁴): calibrated, so among pairs
  // given p a share p are true links, and the sampled person sets are draws the truth could have been one of.
  const runs = quick ? 5 : 40;
  const covered = { truth: 0, threshold: 0, mixed: 0 };
  const widening: number[] = [];
  const thresholdBias: number[] = [];
  const lists = ['A', 'B', 'C'];
  const largestOf = (rng: Rng, k: number) => {
    let m = 0;
    for (let i = 0; i < k; i++) m = Math.max(m, rng.uniform());
    return m; // the largest of k uniforms is Beta(k, 1)
  };
  const calibrated = (score: number) => score ** 4 / (score ** 4 + (1 - score) ** 4);
  for (let run = 1; run <= runs; run++) {
    const seed = `report-${run}`;
    const rng = new Rng(`linkage-${seed}`);
    const { histories, truth } = simulatePeople(
      {
        name: 'linkage',
        lists: 3,
        strata: [{ name: 'all', size: 5000 }],
        capture: { kind: 'loglinear', logits: [-0.9, -1.1, -1.3] },
      },
      seed,
    );
    const size = truth[0]!.size;
    const records: LinkageRecord[] = [];
    const pairs: CandidatePair[] = [];
    histories.forEach((h, person) => {
      const mine: string[] = [];
      for (let j = 0; j < 3; j++) {
        if (!(h.mask & (1 << j))) continue;
        records.push({ id: `${person}:${j}`, list: j });
        mine.push(`${person}:${j}`);
      }
      for (let i = 1; i < mine.length; i++) {
        pairs.push({ a: mine[0]!, b: mine[i]!, probability: calibrated(largestOf(rng, 5)) });
      }
    });
    for (let d = pairs.length; d > 0; d--) {
      const a = records[Math.floor(rng.uniform() * records.length)]!;
      const b = records[Math.floor(rng.uniform() * records.length)]!;
      if (a.list === b.list || a.id.split(':')[0] === b.id.split(':')[0]) continue;
      pairs.push({ a: a.id, b: b.id, probability: calibrated(1 - largestOf(rng, 5)) });
    }
    const threshold = samplePersonSets(
      records,
      pairs.map((p) => ({ ...p, probability: p.probability >= 0.5 ? 1 : 0 })),
      { samples: 1, seed: 1 },
    )[0]!;
    const estimateOn = (histories: typeof threshold) =>
      estimateFromHistories({ lists, histories }, { method: 'loglinear' }).strata[0]!
        .loglinear as MethodEstimate;
    const samples = samplePersonSets(records, pairs, { samples: 20, seed: `samples-${seed}` });
    const mixed = estimateFromHistories({ lists, linkageSamples: samples }, { method: 'loglinear' })
      .strata[0]!.loglinear as MethodEstimate;
    const covers = (m: MethodEstimate) =>
      m.interval.lower <= size && (m.interval.upper === null || size <= m.interval.upper);
    const single = estimateOn(threshold);
    if (covers(estimateOn(histories))) covered.truth++;
    if (covers(single)) covered.threshold++;
    if (covers(mixed)) covered.mixed++;
    widening.push(mixed.linkage?.widening ?? Number.NaN);
    thresholdBias.push((single.estimate - size) / size);
  }
  log(
    `linkage: coverage true set ${covered.truth}/${runs}, threshold ${covered.threshold}/${runs}, mixed ${covered.mixed}/${runs}`,
  );
  rows.push({
    suite,
    name: 'linkage uncertainty (log-linear): the true person set, one set linked at p ≥ 0.5, 20 sampled sets mixed',
    size: `5,000 people, 3 lists, calibrated pair probabilities, ${runs} runs`,
    extra: {
      trueSetCoverage: covered.truth / runs,
      thresholdCoverage: covered.threshold / runs,
      mixedCoverage: covered.mixed / runs,
      thresholdBiasPct: mean(thresholdBias) * 100,
      medianWidening: percentile(widening, 50),
      seeds: `report-1…report-${runs}`,
    },
  });
}

report(rows);
