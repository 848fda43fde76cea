import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { ConfigFlags } from '../../config/config.js';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, note, printJson, printLine } from '../output.js';

interface EstimateFlags extends ConfigFlags {
  lists?: string[];
  by?: string;
  method: string;
  criterion: string;
  level: string;
  seed: string;
  classes?: string;
  burnIn?: string;
  samples?: string;
  thinning?: string;
  json?: boolean;
}

export function registerEstimate(program: Command): void {
  withJson(withDataOptions(program.command('estimate')))
    .description(
      'how many are missing: multiple systems estimation of everyone the lists missed, from three or more overlapping lists (docs/estimation.md)',
    )
    .option(
      '--lists <lists...>',
      'three or more CSV files, one per list, each line person_id[,stratum] (header optional); or, on the registry, the names or ids of its sources to take as lists (default: every source)',
    )
    .option('--by <stratum>', 'on the registry: strata by governorate, year, sex or branch')
    .option('--method <method>', 'loglinear, lcmcr or both', 'both')
    .option('--criterion <criterion>', 'log-linear model choice: bic or aic', 'bic')
    .option('--level <level>', 'interval level', '0.95')
    .option('--seed <seed>', 'seed of the latent-class sampler (same seed, same numbers)', '1')
    .option('--classes <k>', 'latent classes K* (default 10)')
    .option('--burn-in <n>', 'sampler iterations discarded per chain (default 10000)')
    .option('--samples <n>', 'posterior draws kept per chain (default 1000)')
    .option('--thinning <n>', 'iterations per kept draw (default 50)')
    .action(async (flags: EstimateFlags) => {
      const method = flags.method;
      if (method !== 'loglinear' && method !== 'lcmcr' && method !== 'both') {
        throw new CliError(`--method must be loglinear, lcmcr or both (got ${method})`, exitCodes.usage);
      }
      if (flags.criterion !== 'bic' && flags.criterion !== 'aic') {
        throw new CliError(`--criterion must be bic or aic (got ${flags.criterion})`, exitCodes.usage);
      }
      const level = Number(flags.level);
      if (!(level > 0 && level < 1))
        throw new CliError(`--level must be between 0 and 1 (got ${flags.level})`, exitCodes.usage);
      const lcmcr = {
        ...whole('--classes', flags.classes, 1, 'classes'),
        ...whole('--burn-in', flags.burnIn, 0, 'burnIn'),
        ...whole('--samples', flags.samples, 10, 'samples'),
        ...whole('--thinning', flags.thinning, 1, 'thinning'),
      };
      const options = {
        method: method as 'loglinear' | 'lcmcr' | 'both',
        level,
        seed: /^\d+$/.test(flags.seed) ? Number(flags.seed) : flags.seed,
        loglinear: { criterion: flags.criterion as 'bic' | 'aic' },
        lcmcr,
      };
      // Files named: the analyst's lists. Otherwise the registry's sources, and its persons as the linkage.
      const lists = flags.lists ?? [];
      // A name that looks like a path (a folder in it, or a file's ending) is a file the analyst meant: a missing
      // one is a usage error naming it, never a silent switch to the registry's sources.
      const looksLikeFile = (l: string) => /[\\/]|\.(csv|tsv|txt)$/i.test(l);
      const missing = lists.find((l) => looksLikeFile(l) && !fs.existsSync(l));
      if (missing !== undefined) throw new CliError(`${missing}: no such file`, exitCodes.usage);
      const fromFiles = lists.length > 0 && flags.by === undefined && lists.every((l) => fs.existsSync(l));
      if (!fromFiles) return estimateRegistry(flags, lists, options);
      const estimate = await import('../../estimate/index.js');
      const files = lists.map((file) => estimate.parseListFile(file, readText(file)));
      const bad = files.flatMap((f) => f.bad.map((b) => `${f.name} line ${b.line}: ${b.problem}`));
      for (const line of bad.slice(0, 50)) note(`athar: ${line}`);
      if (bad.length > 0) {
        throw new CliError(
          `${bad.length} bad line${bad.length === 1 ? '' : 's'} in the list files (see above${bad.length > 50 ? '; the first 50 shown' : ''}); nothing estimated`,
        );
      }
      const joined = estimate.joinLists(files);
      for (const problem of joined.problems) note(`athar: ${problem}`);
      if (joined.problems.length > 0)
        throw new CliError('the list files disagree about strata (see above); nothing estimated');
      const names = listNames(lists);
      let report: Report;
      try {
        report = estimate.estimateFromHistories({ lists: names, histories: joined.histories }, options);
      } catch (error) {
        if (error instanceof estimate.EstimateInputError) throw new CliError(error.message, exitCodes.usage);
        throw error;
      }
      const input = {
        files: files.map((f, j) => ({
          file: f.name,
          list: names[j],
          people: f.rows.length,
          duplicateLines: f.duplicates,
          header: f.header,
        })),
        people: joined.people,
      };
      if (flags.json) printJson({ input, ...report });
      else printReport(report, input.files);
      if (report.refusal) {
        throw new CliError(
          `no estimate: ${report.refusal.message}`,
          report.refusal.code === 'too-few-lists' ? exitCodes.usage : exitCodes.failure,
        );
      }
    });
}

async function estimateRegistry(
  flags: EstimateFlags,
  lists: string[],
  estimate: Omit<import('../../estimate/index.js').EstimateOptions, 'keepDraws'>,
): Promise<void> {
  const { estimateStrata } = await import('../../services/estimate/registry-estimate.js');
  if (flags.by !== undefined && !(estimateStrata as readonly string[]).includes(flags.by)) {
    throw new CliError(`--by must be one of ${estimateStrata.join(', ')} (got ${flags.by})`, exitCodes.usage);
  }
  const { openContext } = await import('../../services/context.js');
  const { servicesOf } = await import('../../services/index.js');
  const { commandLine } = await import('../../access/caller.js');
  const ctx = await openContext(configFrom(flags));
  let report: Awaited<ReturnType<ReturnType<typeof servicesOf>['estimate']['fromRegistry']>>;
  try {
    report = await servicesOf(ctx).estimate.fromRegistry(
      {
        ...(flags.by ? { by: flags.by as (typeof estimateStrata)[number] } : {}),
        ...(lists.length ? { lists } : {}),
        estimate,
      },
      commandLine,
    );
  } finally {
    await ctx.close();
  }
  if (flags.json) printJson(report);
  else
    printReport(
      report,
      report.sources.map((s) => ({ list: s.name, people: s.persons, duplicateLines: 0 })),
    );
  if (report.refusal) {
    throw new CliError(
      `no estimate: ${report.refusal.message}`,
      report.refusal.code === 'too-few-lists' ? exitCodes.usage : exitCodes.failure,
    );
  }
}

function whole(flag: string, value: string | undefined, min: number, key: string): Record<string, number> {
  if (value === undefined) return {};
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new CliError(`${flag} must be a whole number ≥ ${min} (got ${value})`, exitCodes.usage);
  return { [key]: n };
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `cannot read ${file}${code === 'ENOENT' ? ': no such file' : code ? ` (${code})` : ''}`,
      exitCodes.usage,
    );
  }
}

/** Each list is named by its file's name without .csv; where two would clash, by the path as given. */
function listNames(files: string[]): string[] {
  const short = files.map((f) => path.basename(f).replace(/\.csv$/i, ''));
  return short.map((s, i) => (short.indexOf(s) !== short.lastIndexOf(s) ? files[i]! : s));
}

type Report = ReturnType<typeof import('../../estimate/index.js').estimateFromHistories>;

function printReport(
  report: Report,
  files: { list: string | undefined; people: number; duplicateLines: number }[],
): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  printLine(
    `lists: ${files.map((f) => `${f.list} (${n(f.people)}${f.duplicateLines ? `, ${f.duplicateLines} repeated lines` : ''})`).join(', ')}`,
  );
  if (report.refusal) return;
  const level = `${Math.round(report.level * 100)}%`;
  const method = (label: string, outcome: NonNullable<Report['strata'][number]['loglinear']> | undefined) => {
    if (!outcome) return;
    if ('refusal' in outcome) {
      printLine(`  ${label.padEnd(13)} no estimate: ${outcome.refusal.message}`);
      return;
    }
    const upper = outcome.interval.upper === null ? 'no upper bound' : n(outcome.interval.upper);
    printLine(
      `  ${label.padEnd(13)} ${n(outcome.estimate)}  (${level}: ${n(outcome.interval.lower)}–${upper})  ${outcome.model}`,
    );
    printLine(`  ${''.padEnd(13)} ${outcome.why}`);
    for (const w of outcome.warnings) printLine(`  ${''.padEnd(13)} warning: ${w.message}`);
  };
  for (const s of report.strata) {
    printLine();
    const sizes = Object.entries(s.listSizes)
      .map(([name, size]) => `${name} ${n(size)}`)
      .join(', ');
    printLine(
      `${s.stratum}: ${n(s.observed)} observed (${sizes}; ${n(s.onSeveralLists)} on two lists or more)`,
    );
    if (s.refusal) {
      printLine(`  no estimate: ${s.refusal.message}`);
      continue;
    }
    method('log-linear', s.loglinear);
    method('latent-class', s.lcmcr);
    for (const w of s.warnings) printLine(`  warning: ${w.message}`);
  }
  if (report.total) {
    printLine();
    printLine(`total: ${n(report.total.observed)} observed`);
    for (const [label, outcome] of [
      ['log-linear', report.total.loglinear],
      ['latent-class', report.total.lcmcr],
    ] as const) {
      if (!outcome) continue;
      if ('refusal' in outcome) printLine(`  ${label.padEnd(13)} no estimate: ${outcome.refusal.message}`);
      else {
        const upper = outcome.interval.upper === null ? 'no upper bound' : n(outcome.interval.upper);
        printLine(
          `  ${label.padEnd(13)} ${n(outcome.estimate)}  (${level}: ${n(outcome.interval.lower)}–${upper})  ${outcome.why}`,
        );
      }
    }
  }
}
