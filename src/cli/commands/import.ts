import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, note, printJson, printLine } from '../output.js';

interface ImportFlags {
  data?: string;
  databaseUrl?: string;
  json?: boolean;
  kind: string;
  source?: string;
  map?: string;
  dryRun?: boolean;
  actor?: string;
}

const kinds = ['family_report', 'registry_line', 'death_notice', 'diaspora_list', 'evidence_card', 'other'];

export function registerImport(program: Command): void {
  withJson(withDataOptions(program.command('import')))
    .description(
      'import a person-record CSV into the registry with a validation report (file, row, field); idempotent on (source, record_id)',
    )
    .argument('<file>', 'the CSV file (UTF-8, header row; docs/import.md lists the columns)')
    .requiredOption('--kind <kind>', `what the rows are: ${kinds.join(', ')}`)
    .option(
      '--source <name>',
      "every row's source (made on first use); default: the source column, else the file name",
    )
    .option('--map <map.json>', 'a JSON map { "columns": { "<header in the file>": "<column>" } }')
    .option('--dry-run', 'validate and count, write nothing')
    .option('--actor <name>', 'who runs the import (default os:<login name>)')
    .action(async (file: string, flags: ImportFlags) => {
      if (!kinds.includes(flags.kind)) {
        throw new CliError(`--kind must be one of ${kinds.join(', ')}`, exitCodes.usage);
      }
      if (!fs.existsSync(file)) throw new CliError(`${file}: no such file`, exitCodes.usage);
      if (fs.statSync(file).isDirectory())
        throw new CliError(`${file}: is a folder, not a CSV file`, exitCodes.usage);
      const { parseColumnMap, importRecords, countCsvRows } = await import(
        '../../services/imports/record-import.js'
      );
      const { CsvError } = await import('../../services/batch/person-csv.js');
      let map: ReturnType<typeof parseColumnMap> | undefined;
      if (flags.map) {
        try {
          map = parseColumnMap(JSON.parse(fs.readFileSync(flags.map, 'utf8')));
        } catch (error) {
          throw new CliError(`${flags.map}: ${(error as Error).message}`, exitCodes.usage);
        }
      }
      const config = configFrom(flags);
      const { withWritableData } = await import('../data-session.js');
      const report = await withWritableData(config, async (ctx) => {
        const text = fs.readFileSync(file, 'utf8');
        try {
          return await importRecords(ctx.store, [text], {
            kind: flags.kind as 'other',
            sourceName: flags.source ?? null,
            map: map ?? null,
            dryRun: flags.dryRun === true,
            actor: flags.actor?.trim() || `os:${loginName()}`,
            fileName: path.basename(file),
            total: countCsvRows(text),
          });
        } catch (error) {
          if (error instanceof CsvError) throw new CliError(error.message, exitCodes.failure);
          throw error;
        }
      });
      if (flags.json) printJson(report);
      else {
        const verb = report.dryRun ? 'would create' : 'created';
        printLine(
          `${report.file}: ${report.total} rows; ${verb} ${report.created}, already present ${report.skipped}, rejected ${report.rejected}`,
        );
        for (const e of report.errors)
          printLine(`${e.file} row ${e.row} (line ${e.line}) ${e.field}: ${e.message}`);
        for (const w of report.warnings)
          note(`warning: ${w.file} row ${w.row} (line ${w.line}) ${w.field}: ${w.message}`);
        if (report.ignoredColumns.length) note(`ignored columns: ${report.ignoredColumns.join(', ')}`);
      }
      if (report.errors.length > 0)
        throw new CliError(`${report.errors.length} bad values; see the report`, exitCodes.failure);
    });
}

function loginName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}
