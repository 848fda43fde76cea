import type { Command } from 'commander';
import { type Config, type ConfigFlags, loadConfig } from '../config/config.js';

/** Adds the storage options every command that touches the data folder accepts. */
export function withDataOptions(command: Command): Command {
  return command
    .option('--data <dir>', 'data folder (env ATHAR_DATA, default ./data)')
    .option('--database-url <url>', 'postgres://… to use PostgreSQL (env ATHAR_DATABASE_URL)');
}

export function withJson(command: Command): Command {
  return command.option('--json', 'print one JSON object on stdout');
}

/** Reads the config from env + this command's flags; a ConfigError propagates (exit 2). */
export function configFrom(options: ConfigFlags): Config {
  return loadConfig(process.env, options);
}
