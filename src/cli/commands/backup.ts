import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, note, printJson, printLine } from '../output.js';

export function registerBackup(program: Command): void {
  withJson(withDataOptions(program.command('backup')))
    .description(
      'a consistent backup of the database, blobs and keys while athar runs, into a backup folder (blobs incremental: a second backup to the same folder copies new ones only)',
    )
    .requiredOption('--out <folder>', 'the backup folder (new, empty, or an earlier backup of this archive)')
    .option('--no-keys', 'leave the signing and contacts keys out (back them up apart)')
    .action(
      async (flags: { data?: string; databaseUrl?: string; json?: boolean; out: string; keys?: boolean }) => {
        const { openContext } = await import('../../services/context.js');
        const { backup, BackupError } = await import('../../services/exchange/backup.js');
        const ctx = await openContext(configFrom(flags), { migrate: false });
        try {
          const report = await backup(ctx, flags.out, { keys: flags.keys !== false }).catch(
            (error: unknown) => {
              if (error instanceof BackupError)
                throw new CliError(
                  error.message,
                  error.code === 'usage' ? exitCodes.usage : exitCodes.failure,
                );
              throw error;
            },
          );
          if (report.keys.length > 0) {
            note(
              `warning: the backup holds the keys (${report.keys.join(', ')}): whoever has it can sign the log and open families' contact details. Keep it as safe as the data folder, or back up with --no-keys and keep the keys apart.`,
            );
          }
          if (flags.json) printJson(report);
          else {
            printLine(
              `snapshot ${report.snapshot} in ${report.target}: ${report.rows} rows (${report.dialect}), ${report.blobs.count} blobs (${report.blobs.copied} copied, ${report.blobs.reused} already there) in ${report.ms} ms`,
            );
          }
        } finally {
          await ctx.close();
        }
      },
    );
}
