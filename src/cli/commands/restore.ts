import type { Command } from 'commander';
import { configFrom, withJson } from '../options.js';
import { CliError, exitCodes, printJson, printLine } from '../output.js';

export function registerRestore(program: Command): void {
  withJson(program.command('restore'))
    .description(
      'restore a backup snapshot into an empty data folder (and an empty PostgreSQL schema); every count is checked',
    )
    .argument('<backup>', 'the backup folder that athar backup wrote')
    .requiredOption('--data <dir>', 'the new data folder (must be empty or absent)')
    .option('--database-url <url>', 'postgres://… for a PostgreSQL snapshot (its schema must be empty)')
    .option('--snapshot <id>', 'which snapshot (default: the latest complete one)')
    .action(
      async (
        source: string,
        flags: { data: string; databaseUrl?: string; json?: boolean; snapshot?: string },
      ) => {
        const { restore, BackupError } = await import('../../services/exchange/backup.js');
        const config = configFrom(flags);
        const report = await restore(
          source,
          config,
          flags.snapshot ? { snapshot: flags.snapshot } : {},
        ).catch((error: unknown) => {
          if (error instanceof BackupError)
            throw new CliError(error.message, error.code === 'usage' ? exitCodes.usage : exitCodes.failure);
          throw error;
        });
        if (flags.json) printJson(report);
        else {
          printLine(
            `restored snapshot ${report.snapshot} into ${report.dataDir}: ${report.rows} rows, ${report.blobs} blobs, keys ${report.keys.join(', ') || 'none'}; every count matches. Run athar verify.`,
          );
        }
      },
    );
}
