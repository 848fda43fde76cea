import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/config.js';
import { DomainError } from '../domain/errors.js';
import { storageFault } from '../services/storage-faults.js';
import { version } from '../version.js';
import { registerAudit } from './commands/audit.js';
import { registerBackup } from './commands/backup.js';
import { registerBundle } from './commands/bundle.js';
import { registerContacts } from './commands/contacts.js';
import { registerEstimate } from './commands/estimate.js';
import { registerEvidence } from './commands/evidence.js';
import { registerExport } from './commands/export.js';
import { registerImport } from './commands/import.js';
import { registerIngest } from './commands/ingest.js';
import { registerInit } from './commands/init.js';
import { registerLedger } from './commands/ledger.js';
import { registerLink } from './commands/link.js';
import { registerMatch } from './commands/match.js';
import { registerModel } from './commands/model.js';
import { registerNames } from './commands/names.js';
import { registerOcr } from './commands/ocr.js';
import { registerRegistry } from './commands/registry.js';
import { registerRestore } from './commands/restore.js';
import { registerServe } from './commands/serve.js';
import { registerSynth } from './commands/synth.js';
import { registerUsers } from './commands/users.js';
import { registerVerify } from './commands/verify.js';
import { CliError, exitCodes } from './output.js';

/** The `athar` program. Only commands that work are registered; each area adds one line. */
export function buildProgram(): Command {
  const program = new Command('athar')
    .description('athar (أثر): the evidence of Syria’s detainees and disappeared, kept and linked')
    .version(version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerServe(program);
  registerInit(program);
  registerLedger(program);
  registerVerify(program);
  registerIngest(program);
  registerEvidence(program);
  registerOcr(program);
  registerNames(program);
  registerLink(program);
  registerMatch(program);
  registerImport(program);
  registerRegistry(program);
  registerModel(program);
  registerSynth(program);
  registerUsers(program);
  registerAudit(program);
  registerContacts(program);
  registerEstimate(program);
  registerBundle(program);
  registerExport(program);
  registerBackup(program);
  registerRestore(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the CLI and returns the exit code: 0 ok, 1 failure, 2 usage or configuration. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCodes.ok;
  } catch (error) {
    return report(error);
  }
}

function report(thrown: unknown): number {
  const error = storageFault(thrown) ?? thrown;
  if (error instanceof CommanderError) {
    // Help and version are successes; everything else commander raises is a usage error.
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.exitCode === 0
    ) {
      return exitCodes.ok;
    }
    return exitCodes.usage;
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`athar: ${error.message}\n`);
    return exitCodes.usage;
  }
  if (error instanceof DomainError) {
    // Bad input and what the environment lacks (a database, a key) are usage or configuration problems; a
    // refusal of the archive's state (not found, a conflict) is a failure.
    process.stderr.write(`athar: ${error.message}\n`);
    return error.kind === 'invalid' || error.kind === 'unavailable' ? exitCodes.usage : exitCodes.failure;
  }
  if (error instanceof CliError) {
    process.stderr.write(`athar: ${error.message}\n`);
    return error.exitCode;
  }
  const e = error as Error;
  process.stderr.write(`athar: ${e?.message ?? String(error)}\n`);
  if (process.env.ATHAR_DEBUG) process.stderr.write(`${e?.stack}\n`);
  return exitCodes.failure;
}

const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  main(process.argv.slice(2)).then((code) => {
    if (code !== 0) process.exitCode = code;
  });
}
