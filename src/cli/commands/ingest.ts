import fs from 'node:fs';
import os from 'node:os';
import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, note, printJson, printLine } from '../output.js';

interface IngestFlags {
  data?: string;
  databaseUrl?: string;
  json?: boolean;
  source?: string;
  custodian?: string;
  note?: string;
  actor?: string;
  concurrency?: string;
  maxPixels?: string;
  progress?: boolean;
}

export function registerIngest(program: Command): void {
  withJson(withDataOptions(program.command('ingest')))
    .description(
      'store files and folders in the evidence vault: SHA-256, type, metadata, PDQ, thumbnails; resumable and idempotent',
    )
    .argument('<paths...>', 'files and folders (symbolic links are not followed)')
    .option('--source <name>', 'the source the files come from (made on first use)')
    .option('--custodian <name>', 'who handed the material over')
    .option('--note <text>', 'a note kept with the run and its custody events')
    .option('--actor <name>', 'who runs the ingest (default os:<login name>)')
    .option('--concurrency <n>', 'files processed at once (default 4 per core)')
    .option('--max-pixels <n>', 'images with more pixels get no derived views (default 268402689)')
    .option('--no-progress', 'no progress bar, even on a terminal')
    .action(async (paths: string[], flags: IngestFlags) => {
      const concurrency = positiveInt(flags.concurrency, '--concurrency');
      const maxPixels = positiveInt(flags.maxPixels, '--max-pixels');
      // Nothing is created (not even the data folder) for a path that is not there.
      for (const p of paths) {
        if (!fs.existsSync(p)) {
          // existsSync follows links: a link loop or a link to nothing is named as what it is.
          const link = fs.lstatSync(p, { throwIfNoEntry: false });
          if (link?.isSymbolicLink()) {
            let loop = false;
            try {
              fs.realpathSync(p);
            } catch (error) {
              loop = (error as NodeJS.ErrnoException).code === 'ELOOP';
            }
            throw new CliError(
              loop
                ? `${p}: is a symbolic link loop (it leads back to itself), not a file or folder`
                : `${p}: is a symbolic link to ${fs.readlinkSync(p)}, which does not exist`,
              exitCodes.usage,
            );
          }
          throw new CliError(`${p}: does not exist`, exitCodes.usage);
        }
      }
      const config = configFrom(flags);
      const { withWritableData } = await import('../data-session.js');
      const { ingest } = await import('../../services/ingest/ingest.js');
      const { WalkError } = await import('../../services/ingest/ingest-walk.js');
      const { SharpImageDecoder } = await import('../../evidence/sharp-image-decoder.js');
      await withWritableData(config, async (ctx) => {
        const controller = new AbortController();
        let interrupts = 0;
        const onSignal = () => {
          interrupts++;
          if (interrupts > 1) process.exit(130);
          note('\nfinishing the files in hand, then stopping (press Ctrl-C again to stop at once)');
          controller.abort();
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
        const bar = flags.progress !== false && process.stderr.isTTY ? await progressBar() : undefined;
        try {
          const summary = await ingest(ctx, {
            paths,
            actor: flags.actor?.trim() || `os:${loginName()}`,
            source: flags.source ?? null,
            custodian: flags.custodian ?? null,
            note: flags.note ?? null,
            decoder: new SharpImageDecoder(),
            ...(concurrency ? { concurrency } : {}),
            ...(maxPixels ? { maxPixels } : {}),
            signal: controller.signal,
            onPlan: (plan) => bar?.start(plan),
            onProgress: (p) => bar?.update(p),
          }).catch((error: unknown) => {
            if (error instanceof WalkError) throw new CliError(error.message, exitCodes.usage);
            throw error;
          });
          bar?.stop();
          if (flags.json) {
            printJson(summary);
          } else {
            printHuman(summary);
          }
          if (summary.status === 'interrupted') {
            throw new CliError(`interrupted; run the same command again to continue (run ${summary.runId})`);
          }
        } finally {
          bar?.stop();
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      });
    });
}

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(`${flag} must be a whole number above 0`, exitCodes.usage);
  return n;
}

function loginName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}

type Summary = Awaited<ReturnType<typeof import('../../services/ingest/ingest.js').ingest>>;

function printHuman(s: Summary): void {
  printLine(
    `${s.seen} files seen: ${s.stored} stored, ${s.alreadyPresent} already present, ${s.refused} refused` +
      (s.skipped ? `, ${s.skipped} skipped` : ''),
  );
  if (s.undecodable || s.tooLarge) {
    printLine(
      `  of those stored: ${s.undecodable} undecodable, ${s.tooLarge} over the pixel limit (kept, no views)`,
    );
  }
  printLine(
    `${formatBytes(s.bytes)} in ${s.seconds.toFixed(1)} s (${s.filesPerSecond.toFixed(1)} files/s, ${formatBytes(s.bytesPerSecond)}/s); run ${s.runId}`,
  );
  const shown = s.problems.slice(0, 50);
  for (const p of shown) printLine(`  ${p.outcome}: ${p.path}: ${p.reason}`);
  if (s.problems.length > shown.length) {
    printLine(`  … and ${s.problems.length - shown.length} more (use --json for the full list)`);
  }
}

export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** A cli-progress bar on stderr: bytes drive the bar and the ETA; files and rate ride along. */
async function progressBar() {
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format:
        ' {bar} {percentage}% | {files}/{totalFiles} files | {done} of {total_bytes} | {rate} | ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 200,
      fps: 5,
    },
    Presets.shades_classic,
  );
  const started = performance.now();
  let running = false;
  return {
    start(plan: { files: number; bytes: number }) {
      bar.start(Math.max(plan.bytes, 1), 0, {
        files: 0,
        totalFiles: plan.files,
        done: formatBytes(0),
        total_bytes: formatBytes(plan.bytes),
        rate: '',
      });
      running = true;
    },
    update(p: { files: number; bytes: number; totalFiles: number; totalBytes: number }) {
      const seconds = (performance.now() - started) / 1000;
      bar.update(p.bytes, {
        files: p.files,
        done: formatBytes(p.bytes),
        rate:
          seconds > 0 ? `${(p.files / seconds).toFixed(1)} files/s, ${formatBytes(p.bytes / seconds)}/s` : '',
      });
    },
    stop() {
      if (running) bar.stop();
      running = false;
    },
  };
}
