import type { Command } from 'commander';
import { withJson } from '../options.js';
import { CliError, exitCodes, printJson, printLine } from '../output.js';
import { stageProgress } from './stage-progress.js';

export function registerMatch(program: Command): void {
  withJson(program.command('match'))
    .description('for each query row, the top K registry records: query_id,rank,record_id,score')
    .argument('<registry>', 'registry person-record CSV')
    .requiredOption('--queries <file>', 'person-record CSV of the reports to match')
    .requiredOption('--out <file>', 'OUT.csv to write')
    .option('--top <k>', 'candidates per query', '10')
    .option('--model <file>', 'model JSON (default: the model that ships)')
    .action(
      async (
        registry: string,
        flags: { queries: string; out: string; top: string; model?: string; json?: boolean },
      ) => {
        const top = Number(flags.top);
        if (!Number.isInteger(top) || top < 1 || top > 1000) {
          throw new CliError(
            `--top must be a whole number from 1 to 1000 (got ${flags.top})`,
            exitCodes.usage,
          );
        }
        const { runMatch } = await import('../../services/batch/match.js');
        const progress = stageProgress(!flags.json);
        let summary: Awaited<ReturnType<typeof runMatch>>;
        try {
          summary = await runMatch({
            registry,
            queries: flags.queries,
            top,
            out: flags.out,
            model: flags.model,
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
        printLine(
          `${summary.queries.answered} queries against ${summary.registry.records} records: wrote ${summary.rows} rows to ${flags.out}`,
        );
        printLine(
          `index built in ${summary.indexBuildMs} ms; per query p50 ${summary.latencyMs.p50} ms, p95 ${summary.latencyMs.p95} ms`,
        );
        if (summary.queries.withoutName)
          printLine(`${summary.queries.withoutName} queries without any name had no candidates`);
      },
    );
}
