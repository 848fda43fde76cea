import type { Command } from 'commander';
import { commandLine } from '../../access/caller.js';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, note, printJson, printLine } from '../output.js';
import { stageProgress } from './stage-progress.js';

interface OcrFlags {
  data?: string;
  databaseUrl?: string;
  json?: boolean;
  ingestRun?: string;
  pages?: boolean;
  progress?: boolean;
}

export function registerOcr(program: Command): void {
  withJson(withDataOptions(program.command('ocr')))
    .description(
      'read the cards in body photos into proposed card numbers (docs/ocr.md); an item this reader version read is not read again',
    )
    .argument('[items...]', 'evidence items: id, SHA-256 or a SHA-256 prefix')
    .option('--ingest-run <id>', 'every item of this ingest run not yet read')
    .option(
      '--pages',
      'read the items as scanned registry pages (tesseract; every page of a PDF or multi-page TIFF): each row a proposed record for a documenter to decide',
    )
    .option('--no-progress', 'no progress bar, even on a terminal')
    .action(async (items: string[], flags: OcrFlags) => {
      if (!flags.ingestRun && items.length === 0)
        throw new CliError('give --ingest-run ID or the items to read', exitCodes.usage);
      if (flags.ingestRun && items.length > 0)
        throw new CliError('give --ingest-run ID or items, not both', exitCodes.usage);
      if (flags.pages && flags.ingestRun)
        throw new CliError('--pages reads the items named, not an ingest run', exitCodes.usage);
      const config = configFrom(flags);
      const { withWritableData } = await import('../data-session.js');
      const { servicesOf } = await import('../../services/index.js');
      await withWritableData(config, async (ctx) => {
        const ocr = servicesOf(ctx).ocr;
        if (flags.pages) {
          const bar = stageProgress(flags.progress !== false && !flags.json);
          try {
            const summary = await servicesOf(ctx).scans.read(items, commandLine, {
              onItem: (done, total) => bar.update('reading pages', done, total),
            });
            bar.stop();
            if (flags.json) printJson(summary);
            else {
              printLine(
                `${summary.items} items (${summary.pages} pages read): ${summary.proposed} with rows (${summary.rows} rows proposed), ${summary.alreadyRead} read before by this version; no rows: ${summary.noRows} no row found, ${summary.notImage} not images, ${summary.bodyPhoto} body photos, ${summary.unavailable} not read (engine or pdftoppm missing), ${summary.failed} failed (${summary.seconds} s)`,
              );
              for (const p of summary.problems.slice(0, 20))
                printLine(`  ${p.evidenceId}: ${p.outcome}: ${p.reason}`);
            }
          } finally {
            bar.stop();
          }
          return;
        }
        let refs = items;
        if (flags.ingestRun) {
          const run = await servicesOf(ctx).ingestRuns.get(flags.ingestRun, commandLine);
          if (!run) throw new CliError(`no ingest run ${flags.ingestRun}`, exitCodes.failure);
          refs = await ocr.itemsOfRun(flags.ingestRun);
        }
        const controller = new AbortController();
        const onSignal = () => {
          note('\nstopping after this photo; run the same command again to read the rest');
          controller.abort();
        };
        process.on('SIGINT', onSignal);
        const bar = stageProgress(flags.progress !== false && !flags.json);
        try {
          const summary = await ocr.read(refs, {
            signal: controller.signal,
            onItem: (done, total) => bar.update('reading', done, total),
          });
          bar.stop();
          if (flags.json) printJson(summary);
          else {
            printLine(
              `${summary.items} items: ${summary.proposed} with proposals (${summary.proposals} numbers), ${summary.alreadyRead} read before by this version; no proposal: ${summary.noCard} no card, ${summary.noNumbers} no numbers, ${summary.unclearNumbers} numbers not clear, ${summary.notImage} not images, ${summary.failed} failed (${summary.seconds} s)`,
            );
            for (const p of summary.problems.slice(0, 20))
              printLine(`  ${p.evidenceId}: ${p.outcome}: ${p.reason}`);
          }
          if (controller.signal.aborted) process.exitCode = 1;
        } finally {
          bar.stop();
          process.off('SIGINT', onSignal);
        }
      });
    });
}
