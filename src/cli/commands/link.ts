import type { Command } from 'commander';
import { withJson } from '../options.js';
import { CliError, exitCodes, printJson, printLine } from '../output.js';
import { stageProgress } from './stage-progress.js';

interface LinkFlags {
  out?: string;
  pairs?: string;
  pairsMin?: string;
  model?: string;
  train?: boolean;
  saveModel?: string;
  threshold?: string;
  workers?: string;
  explain?: string[];
  json?: boolean;
}

function probabilityFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const p = Number(value);
  if (!(p > 0 && p < 1))
    throw new CliError(`--${name} must be a probability between 0 and 1 (got ${value})`, exitCodes.usage);
  return p;
}

export function registerLink(program: Command): void {
  withJson(program.command('link'))
    .description('dedupe and link person-record CSVs: one record_id,cluster_id line per input record')
    .argument('<in...>', 'person-record CSV files')
    .option('--out <file>', 'CLUSTERS.csv to write (record_id,cluster_id)')
    .option(
      '--pairs <file>',
      'also write scored pairs (record_a,record_b,match_weight,probability,same_cluster)',
    )
    .option('--pairs-min <p>', 'lowest match probability written to --pairs (default: the threshold)')
    .option('--model <file>', 'model JSON (default: the model that ships)')
    .option('--train', 'retrain the model on these records (EM) before linking')
    .option('--save-model <file>', 'with --train: write the retrained model here')
    .option('--threshold <p>', "match probability at which pairs link (default: the model's)")
    .option('--workers <n>', 'scoring threads (default: one per core from 250,000 records, else 1)')
    .option('--explain <ids...>', 'print the waterfall of two records (record ids)')
    .action(async (inputs: string[], flags: LinkFlags) => {
      if (!flags.out && !flags.explain)
        throw new CliError('give --out CLUSTERS.csv (or --explain A B)', exitCodes.usage);
      if (flags.explain && flags.explain.length !== 2)
        throw new CliError('--explain takes two record ids', exitCodes.usage);
      if (flags.saveModel && !flags.train) throw new CliError('--save-model needs --train', exitCodes.usage);
      const workers = flags.workers === undefined ? undefined : Number(flags.workers);
      if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1)) {
        throw new CliError(`--workers must be a whole number ≥ 1 (got ${flags.workers})`, exitCodes.usage);
      }
      const { runLink } = await import('../../services/batch/link.js');
      const { formatExplanation } = await import('../../linkage/explain.js');
      const progress = stageProgress(!flags.json);
      let summary: Awaited<ReturnType<typeof runLink>>;
      try {
        summary = await runLink({
          inputs,
          out: flags.out,
          pairs: flags.pairs,
          pairsMinProbability: probabilityFlag('pairs-min', flags.pairsMin),
          model: flags.model,
          train: flags.train,
          saveModel: flags.saveModel,
          threshold: probabilityFlag('threshold', flags.threshold),
          workers,
          explain: flags.explain as [string, string] | undefined,
          onProgress: progress.update,
        });
      } catch (error) {
        const name = (error as Error).name;
        if (name === 'CsvError' || name === 'ModelError') throw new CliError((error as Error).message);
        throw error;
      } finally {
        progress.stop();
      }
      if (flags.json) return printJson(summary);
      if (summary.explanation) printLine(formatExplanation(summary.explanation));
      if (!flags.out) return;
      printLine(
        `${summary.records} records → ${summary.clusters} clusters (${summary.linkedRecords} records linked, ${summary.singletons} alone); wrote ${flags.out}`,
      );
      printLine(
        `model ${summary.model.version}, threshold ${summary.model.threshold}; ${summary.candidatePairs} candidate pairs`,
      );
      if (summary.rowsWithoutName)
        printLine(
          `${summary.rowsWithoutName} rows without any name: linked only by a detainee number and branch, else alone`,
        );
      for (const [column, count] of Object.entries(summary.invalidDates)) {
        if (count) printLine(`${count} unreadable or future ${column} values treated as missing`);
      }
      for (const rule of summary.blocking ?? []) {
        if (rule.oversizedBlocks) {
          printLine(
            `blocking ${rule.rule}: ${rule.oversizedBlocks} oversized blocks (${rule.oversizedRecords} records) sub-blocked; ${rule.pairsNotCompared} pairs in them not compared`,
          );
        }
      }
      if (flags.pairs) printLine(`wrote ${summary.pairsWritten} pairs to ${flags.pairs}`);
    });
}
