import type { Command } from 'commander';
import { withJson } from '../options.js';
import { CliError, exitCodes, printJson, printLine } from '../output.js';

export function registerSynth(program: Command): void {
  withJson(program.command('synth'))
    .description(
      'write synthetic, labelled person records (records.csv, truth.csv, stats.json) for tests and benchmarks',
    )
    .requiredOption('--people <n>', 'how many people the records describe')
    .requiredOption('--out <dir>', 'folder to write into')
    .option('--seed <seed>', 'seed (same seed, same data)', '1')
    .action(async (flags: { people: string; out: string; seed: string; json?: boolean }) => {
      const people = Number(flags.people);
      if (!Number.isInteger(people) || people < 0) {
        throw new CliError(`--people must be a whole number ≥ 0 (got ${flags.people})`, exitCodes.usage);
      }
      const { runSynth } = await import('../../services/batch/synth.js');
      const seed = /^\d+$/.test(flags.seed) ? Number(flags.seed) : flags.seed;
      const result = await runSynth({ people, out: flags.out, seed });
      if (flags.json) return printJson(result);
      printLine(`${result.records} synthetic records of ${result.people} people in ${result.out}`);
      printLine(
        `${result.truePairs} true pairs; ceiling ${result.ceiling.toFixed(4)} (share of true pairs whose records each fit exactly one person)`,
      );
    });
}
