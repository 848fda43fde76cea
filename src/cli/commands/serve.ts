import type { Command } from 'commander';
import { configFrom, withDataOptions } from '../options.js';
import { CliError, exitCodes, note } from '../output.js';
import { printAdminPassword } from './init.js';

export function registerServe(program: Command): void {
  withDataOptions(program.command('serve'))
    .description('serve the API and the web interface (initialises the data folder on first start)')
    .option('--port <port>', 'port (env ATHAR_PORT, default 8080)')
    .option('--host <host>', 'address to bind (env ATHAR_HOST, default 127.0.0.1)')
    .option('--log-level <level>', 'fatal … trace, or silent (env ATHAR_LOG_LEVEL)')
    .action(
      async (options: {
        data?: string;
        databaseUrl?: string;
        port?: string;
        host?: string;
        logLevel?: string;
      }) => {
        const config = configFrom(options);
        const { initialise } = await import('../../services/setup.js');
        const { buildServer } = await import('../../server/app.js');
        const { openLedger } = await import('../../services/ledger-setup.js');
        const { ctx, result } = await initialise(config);
        if (result.admin) printAdminPassword(result.admin);
        const app = await buildServer(ctx);
        try {
          await app.listen({ host: config.server.host, port: config.server.port });
        } catch (error) {
          await app.close();
          await ctx.close();
          const e = error as NodeJS.ErrnoException;
          const where = `${config.server.host}:${config.server.port}`;
          if (e.code === 'EADDRINUSE') {
            throw new CliError(
              `port ${where} is already in use (choose another with --port or ATHAR_PORT)`,
              exitCodes.usage,
            );
          }
          if (e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES') {
            throw new CliError(`cannot listen on ${where}: ${e.code}`, exitCodes.usage);
          }
          throw error;
        }
        const address = app.server.address();
        const port = typeof address === 'object' && address ? address.port : config.server.port;
        note(`athar is serving http://${config.server.host}:${port} (data: ${config.dataDir})`);
        // The log's sequencer: staged entries are sequenced as they come, checkpoints signed at most every second.
        const { sequencer } = openLedger(ctx, {
          onError: (error) => app.log.error({ err: error }, 'log sequencer'),
        });
        sequencer.start();
        const stop = async () => {
          await sequencer.stop();
          await app.close();
          await ctx.close();
          process.exit(0);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      },
    );
}
