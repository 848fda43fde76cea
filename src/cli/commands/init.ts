import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { note, printJson, printLine } from '../output.js';

export function registerInit(program: Command): void {
  withJson(withDataOptions(program.command('init')))
    .description('create the data folder, database, log key and first admin (prints a one-time password)')
    .action(async (options: { data?: string; databaseUrl?: string; json?: boolean }) => {
      const config = configFrom(options);
      const { initialise } = await import('../../services/setup.js');
      const { ctx, result } = await initialise(config);
      await ctx.close();
      if (options.json) return printJson(result);
      printLine(`data folder: ${result.dataDir}`);
      printLine(`database:    ${result.database}`);
      if (result.admin) printAdminPassword(result.admin);
      else note('already initialised; nothing changed');
    });
}

export function printAdminPassword(admin: { username: string; password: string }): void {
  printLine('');
  printLine('  First administrator created. This password is shown once only:');
  printLine(`    username: ${admin.username}`);
  printLine(`    password: ${admin.password}`);
  printLine('  You will be asked to choose a new one at first sign-in.');
  printLine('');
}
