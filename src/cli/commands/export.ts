import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, note, printJson, printLine } from '../output.js';

interface ExportFlags {
  data?: string;
  databaseUrl?: string;
  json?: boolean;
  format: string;
  out: string;
  purpose?: string;
}

export function registerExport(program: Command): void {
  withJson(withDataOptions(program.command('export')))
    .description(
      'export records, persons or evidence metadata as CSV, JSON or PFIF 1.4; family reports only where consent covers --purpose, contact details never',
    )
    .argument('<what>', 'records, persons or evidence')
    .requiredOption('--format <format>', 'csv, json or pfif (PFIF 1.4 XML; records and persons)')
    .requiredOption('--out <file>', 'a new file (never written over)')
    .option(
      '--purpose <purpose>',
      'the consent purpose the export serves (without it, no family report goes out)',
    )
    .action(async (what: string, flags: ExportFlags) => {
      const { exportKinds, exportFormats } = await import('../../exchange/export-formats.js');
      const { consentPurposes } = await import('../../domain/consent.js');
      if (!(exportKinds as readonly string[]).includes(what))
        throw new CliError(`what to export must be one of ${exportKinds.join(', ')}`, exitCodes.usage);
      if (!(exportFormats as readonly string[]).includes(flags.format))
        throw new CliError(`--format must be one of ${exportFormats.join(', ')}`, exitCodes.usage);
      if (flags.purpose && !(consentPurposes as readonly string[]).includes(flags.purpose))
        throw new CliError(`--purpose must be one of ${consentPurposes.join(', ')}`, exitCodes.usage);
      if (what === 'evidence' && flags.format === 'pfif')
        throw new CliError('PFIF describes people: export evidence as csv or json', exitCodes.usage);
      const { openContext } = await import('../../services/context.js');
      const { exportData, ExportError } = await import('../../services/exchange/export.js');
      const ctx = await openContext(configFrom(flags));
      try {
        const report = await exportData(ctx, {
          kind: what as 'records',
          format: flags.format as 'csv',
          out: flags.out,
          purpose: (flags.purpose as 'internal_use' | undefined) ?? null,
        }).catch((error: unknown) => {
          if (error instanceof ExportError) throw new CliError(error.message, exitCodes.usage);
          throw error;
        });
        if (flags.json) printJson(report);
        else {
          printLine(
            `${report.out}: ${report.exported} ${report.kind} as ${report.format} (${(report.bytes / 1e6).toFixed(1)} MB) in ${report.ms} ms`,
          );
          if (report.withheld > 0)
            note(
              `${report.withheld} family-report records left out: their consent does not cover ${report.purpose ?? 'an export without --purpose'}`,
            );
        }
      } finally {
        await ctx.close();
      }
    });
}
