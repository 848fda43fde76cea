import type { Command } from 'commander';
import { configFrom, withDataOptions } from '../options.js';
import { note } from '../output.js';
import { printAdminPassword } from './init.js';

interface ServeOptions {
  data?: string;
  databaseUrl?: string;
  port?: string;
  host?: string;
  logLevel?: string;
  workers?: string;
}

export function registerServe(program: Command): void {
  withDataOptions(program.command('serve'))
    .description('serve the API and the web interface (initialises the data folder on first start)')
    .option('--port <port>', 'port (env ATHAR_PORT, default 8080)')
    .option('--host <host>', 'address to bind (env ATHAR_HOST, default 127.0.0.1)')
    .option(
      '--workers <n>',
      'server processes sharing the port, up to the cores (env ATHAR_WORKERS, default 1)',
    )
    .option('--log-level <level>', 'fatal … trace, or silent (env ATHAR_LOG_LEVEL)')
    .action(async (options: ServeOptions) => {
      const { serve } = await import('../../server/supervisor.js');
      await serve(configFrom(options), { note, adminPassword: printAdminPassword });
    });
}
