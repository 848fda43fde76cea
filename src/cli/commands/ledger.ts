import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, printJson, printLine } from '../output.js';

interface DataOptions {
  data?: string;
  databaseUrl?: string;
  json?: boolean;
}

function whole(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^(0|[1-9][0-9]*)$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new CliError(`${name} must be a whole number ≥ 0 (got ${JSON.stringify(text)})`, exitCodes.usage);
  }
  return Number(text);
}

/** Runs `work` over an open context, turning the log's own errors into CLI errors. */
async function withLedger<T>(
  options: DataOptions,
  work: (ledger: import('../../services/ledger/setup.js').Ledger) => Promise<T>,
): Promise<T> {
  const { openContext } = await import('../../services/context.js');
  const { openLedger } = await import('../../services/ledger/setup.js');
  const { LedgerKeyError } = await import('../../services/ledger/key.js');
  const { LedgerRequestError } = await import('../../services/ledger/log.js');
  const ctx = await openContext(configFrom(options));
  try {
    return await work(openLedger(ctx));
  } catch (error) {
    if (error instanceof LedgerRequestError) {
      throw new CliError(error.message, error.code === 'bad_request' ? exitCodes.usage : exitCodes.failure);
    }
    if (error instanceof LedgerKeyError) throw new CliError(error.message, exitCodes.usage);
    throw error;
  } finally {
    await ctx.close();
  }
}

export function registerLedger(program: Command): void {
  const ledger = program
    .command('ledger')
    .description('the tamper-evident log: its verifier key, signed checkpoints and proofs (docs/ledger.md)');

  withJson(withDataOptions(ledger.command('key')))
    .description("print the log's verifier key (note vkey format: name+id+key), for tlog clients")
    .action(async (options: DataOptions) => {
      const { readLedgerKey, ledgerKeyFile, LedgerKeyError } = await import('../../services/ledger/key.js');
      const { formatVerifierKey } = await import('../../ledger/note.js');
      const config = configFrom(options);
      let key: ReturnType<typeof readLedgerKey>;
      try {
        key = readLedgerKey(config);
      } catch (error) {
        if (error instanceof LedgerKeyError) throw new CliError(error.message, exitCodes.usage);
        throw error;
      }
      const vkey = formatVerifierKey(key);
      if (options.json) {
        return printJson({
          origin: key.name,
          verifierKey: vkey,
          keyId: key.keyId.toString(16).padStart(8, '0'),
          keyFile: ledgerKeyFile(config),
        });
      }
      printLine(vkey);
    });

  withJson(withDataOptions(ledger.command('checkpoint')))
    .description('sequence every staged entry and print a freshly signed checkpoint (a signed note)')
    .action(async (options: DataOptions) => {
      await withLedger(options, async ({ sequencer, origin }) => {
        const cp = await sequencer.publish();
        if (options.json) return printJson({ origin, size: cp.size, root: cp.root, note: cp.note });
        process.stdout.write(cp.note);
      });
    });

  withJson(withDataOptions(ledger.command('prove')))
    .description('JSON inclusion proof of entry N in the tree of size M (default: the latest checkpoint)')
    .requiredOption('--index <n>', 'entry index, from 0')
    .option('--size <m>', 'tree size (default: the latest checkpoint)')
    .action(async (options: DataOptions & { index: string; size?: string }) => {
      const index = whole('--index', options.index) as number;
      const size = whole('--size', options.size);
      await withLedger(options, async ({ log }) => printJson(await log.inclusionProof(index, size)));
    });

  withJson(withDataOptions(ledger.command('consistency')))
    .description('JSON consistency proof from tree size A to B (default: the latest checkpoint)')
    .requiredOption('--from <a>', 'the older tree size')
    .option('--to <b>', 'the newer tree size (default: the latest checkpoint)')
    .action(async (options: DataOptions & { from: string; to?: string }) => {
      const from = whole('--from', options.from) as number;
      const to = whole('--to', options.to);
      await withLedger(options, async ({ log }) => printJson(await log.consistencyProof(from, to)));
    });
}
