import type { Command } from 'commander';
import type { ConfigFlags } from '../../config/config.js';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, printJson, printLine } from '../output.js';
import { stageProgress } from './stage-progress.js';

/**
 * `athar registry link`: the registry-wide linkage job (docs/tracing.md), and `athar registry trace`: the tracing
 * loop's queue taken once, for an installation where no server runs.
 */
export function registerRegistry(program: Command): void {
  const registry = program
    .command('registry')
    .description('link the registry into persons and match new records');

  withJson(withDataOptions(registry.command('link')))
    .description(
      'link every record of the registry into persons (policy: auto-link at autoLinkAt, review from reviewFrom)',
    )
    .option('--out <file>', 'also write record_id,external_id,source,person_id for every record')
    .option('--wait <seconds>', 'wait this long for another linking job to finish (default: refuse at once)')
    .action(async (flags: ConfigFlags & { out?: string; wait?: string; json?: boolean }) => {
      const waitMs = flags.wait === undefined ? 0 : Number(flags.wait) * 1000;
      if (!(waitMs >= 0))
        throw new CliError(`--wait must be a number of seconds (got ${flags.wait})`, exitCodes.usage);
      const { withWritableData } = await import('../data-session.js');
      const { servicesOf } = await import('../../services/index.js');
      const progress = stageProgress(!flags.json);
      const summary = await withWritableData(configFrom(flags), (ctx) =>
        servicesOf(ctx)
          .tracing.link({ ...(flags.out ? { out: flags.out } : {}), waitMs, onProgress: progress.update })
          .finally(progress.stop),
      );
      if (flags.json) return printJson(summary);
      printLine(
        `${summary.records} records in ${summary.persons} persons: ${summary.moved} records linked by the model, ${summary.merged} persons merged`,
      );
      printLine(
        `${summary.reviewPairs} pairs for review (${summary.refusedByGuard} the guard kept apart), ${summary.reports} reports matched`,
      );
      printLine(
        `model ${summary.model.version}: auto-link at ${summary.model.autoLinkAt}, review from ${summary.model.reviewFrom} (${Math.round(summary.timingsMs.total ?? 0) / 1000} s)`,
      );
      if (flags.out) printLine(`persons written to ${flags.out}`);
    });

  withJson(withDataOptions(registry.command('trace')))
    .description(
      'link and match every record and card label waiting in the queue, once (a server does this itself)',
    )
    .action(async (flags: ConfigFlags & { json?: boolean }) => {
      const { withWritableData } = await import('../data-session.js');
      const { servicesOf } = await import('../../services/index.js');
      const summary = await withWritableData(configFrom(flags), (ctx) =>
        servicesOf(ctx).tracing.tracer.processPending(),
      );
      if (flags.json) return printJson(summary);
      printLine(
        `${summary.records} records and ${summary.labels} labels traced: ${summary.linked} linked, ${summary.reviewPairs} pairs for review, ${summary.reportCandidates} report candidates, ${summary.identificationsProposed} identifications proposed`,
      );
    });
  for (const command of registry.commands) command.exitOverride();
}
