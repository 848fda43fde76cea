import fs from 'node:fs';
import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, note, printJson, printLine } from '../output.js';

export function registerVerify(program: Command): void {
  withJson(withDataOptions(program.command('verify')))
    .description(
      're-hash every blob, rebuild the log against its signed checkpoints, check every covered row and what the custody events recorded: exit 0 only when all is intact (reads only: works on a read-only copy)',
    )
    .option(
      '--key <vkey>',
      "the log's verifier key to trust (text or a file holding it); default: the one recorded at init",
    )
    .option(
      '--checkpoint <file>',
      'a signed checkpoint kept outside the database (printed in a court record, held by a partner): the log must extend it',
    )
    .option(
      '--recompute <n|all>',
      're-decode images and compare PDQ, thumbnail and blurred view with what is stored: a random sample of n, or all (slow: about 10–50 ms an image)',
    )
    .action(
      async (options: {
        data?: string;
        databaseUrl?: string;
        json?: boolean;
        key?: string;
        checkpoint?: string;
        recompute?: string;
      }) => {
        const { parseVerifierKey } = await import('../../ledger/note.js');
        const { openContext } = await import('../../services/context.js');
        const { verifyAll } = await import('../../services/ledger/verify.js');
        let verifierKey: ReturnType<typeof parseVerifierKey>;
        if (options.key !== undefined) {
          const text = fs.existsSync(options.key) ? fs.readFileSync(options.key, 'utf8') : options.key;
          verifierKey = parseVerifierKey(text);
          if (!verifierKey)
            throw new CliError(
              `--key is not a verifier key (name+<8 hex>+<base64>): ${options.key}`,
              exitCodes.usage,
            );
        }
        let checkpoint: string | undefined;
        if (options.checkpoint !== undefined) {
          try {
            checkpoint = fs.readFileSync(options.checkpoint, 'utf8');
          } catch (error) {
            throw new CliError(
              `--checkpoint: cannot read ${options.checkpoint}: ${(error as NodeJS.ErrnoException).code}`,
              exitCodes.usage,
            );
          }
        }
        let recompute: number | 'all' | undefined;
        if (options.recompute !== undefined) {
          recompute = options.recompute === 'all' ? 'all' : Number(options.recompute);
          if (recompute !== 'all' && !(Number.isInteger(recompute) && recompute > 0))
            throw new CliError(
              `--recompute takes a count of images or all, not ${options.recompute}`,
              exitCodes.usage,
            );
        }
        const decoder = recompute
          ? new (await import('../../evidence/sharp-image-decoder.js')).SharpImageDecoder()
          : undefined;
        // Verifying never writes: the database is opened read-only and nothing is migrated or sequenced.
        const ctx = await openContext(configFrom(options), { readOnly: true });
        let report: Awaited<ReturnType<typeof verifyAll>>;
        try {
          let last = 0;
          report = await verifyAll(ctx, {
            ...(verifierKey ? { verifierKey } : {}),
            ...(checkpoint !== undefined ? { checkpoint } : {}),
            ...(recompute ? { recompute } : {}),
            ...(decoder ? { decoder } : {}),
            onProgress: (phase, done) => {
              if (process.stderr.isTTY && Date.now() - last > 500) {
                last = Date.now();
                process.stderr.write(`\r${phase}: ${done}…   `);
              }
            },
          });
          if (process.stderr.isTTY && last > 0) process.stderr.write('\r\x1b[K');
        } finally {
          await ctx.close();
        }
        if (options.json) printJson(report);
        else {
          const mb = (report.blobs.bytes / 1e6).toFixed(1);
          const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
          printLine(
            `blobs: ${n(report.blobs.checked, 'blob')} re-hashed (${mb} MB) in ${report.blobs.ms} ms`,
          );
          printLine(
            `log:   ${n(report.log.entries, 'entry', 'entries')}, ${n(report.log.checkpoints, 'checkpoint')} (latest ${report.log.latestCheckpoint ?? 'none'}) in ${report.log.ms} ms`,
          );
          printLine(`rows:  ${n(report.rows.checked, 'row')} checked in ${report.rows.ms} ms`);
          const e = report.evidence;
          printLine(
            `evidence: ${n(e.items, 'item')}, ${n(e.annotations, 'annotation')}, ${n(e.locations, 'location')} against their custody events${e.recomputed ? `, ${e.recomputed} re-derived` : ''} in ${e.ms} ms`,
          );
          if (
            checkpoint !== undefined &&
            report.problems.every(
              (p) =>
                !['checkpoint_rollback', 'checkpoint_signature', 'checkpoint_malformed'].includes(p.code),
            )
          )
            printLine(`checkpoint ${options.checkpoint}: the log extends it`);
          for (const n of report.notes) note(`note: ${n}`);
          if (report.ok)
            printLine(
              `intact: every blob, entry and covered row agrees with the log signed by ${report.verifierKey}`,
            );
          else {
            const more = Object.values(report.omitted).reduce((a, b) => a + (b ?? 0), 0);
            printLine(`NOT INTACT: ${report.problems.length + more} problems`);
            for (const p of report.problems) printLine(`  [${p.code}] ${p.message}`);
            if (more > 0) printLine(`  … and ${more} more`);
          }
        }
        if (!report.ok) throw new CliError('verification failed', exitCodes.failure);
      },
    );
}
