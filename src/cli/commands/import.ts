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
  encoding?: string;
  sheet?: string;
  mapping?: string;
  saveMapping?: string;
  acceptGuess?: boolean;
}

const kinds = ['family_report', 'registry_line', 'death_notice', 'diaspora_list', 'evidence_card', 'other'];

export function registerImport(program: Command): void {
  withJson(withDataOptions(program.command('import')))
    .description(
      'import a person-record CSV into the registry with a validation report (file, row, field); idempotent on (source, record_id)',
    )
    .argument(
      '<file>',
      'a CSV (UTF-8, UTF-16 or Windows-1256), XLSX or PFIF 1.4 XML file with a header row (docs/import.md)',
    )
    .requiredOption('--kind <kind>', `what the rows are: ${kinds.join(', ')}`)
    .option(
      '--source <name>',
      "every row's source (made on first use); default: the source column, else the file name",
    )
    .option('--map <map.json>', 'a JSON map { "columns": { "<header in the file>": "<column>" } }')
    .option('--dry-run', 'validate and count, write nothing; shows the guessed map of the headers')
    .option('--encoding <encoding>', 'utf-8, utf-16le, utf-16be or windows-1256 (default: detected)')
    .option('--sheet <name|n>', 'XLSX: the sheet to read (default: the first)')
    .option('--mapping <name>', 'a map saved earlier with --save-mapping')
    .option('--save-mapping <name>', 'save the map used (given, or guessed and accepted) under this name')
    .option('--accept-guess', 'import with the guessed map of the headers (review it first with --dry-run)')
    .option('--actor <name>', 'who runs the import (default os:<login name>)')
    .action(async (file: string, flags: ImportFlags) => {
      if (!kinds.includes(flags.kind)) {
        throw new CliError(`--kind must be one of ${kinds.join(', ')}`, exitCodes.usage);
      }
      if (!fs.existsSync(file)) throw new CliError(`${file}: no such file`, exitCodes.usage);
      if (fs.statSync(file).isDirectory())
        throw new CliError(`${file}: is a folder, not a CSV file`, exitCodes.usage);
      const { parseColumnMap, importRecords } = await import('../../services/imports/record-import.js');
      const { CsvError } = await import('../../services/batch/person-csv.js');
      const { textEncodings } = await import('../../exchange/text-decode.js');
      const exchange = await import('../../services/exchange/import-source.js');
      if (flags.encoding && !(textEncodings as readonly string[]).includes(flags.encoding)) {
        throw new CliError(`--encoding must be one of ${textEncodings.join(', ')}`, exitCodes.usage);
      }
      let map: ReturnType<typeof parseColumnMap> | undefined;
      if (flags.map) {
        try {
          map = parseColumnMap(JSON.parse(fs.readFileSync(flags.map, 'utf8')));
        } catch (error) {
          throw new CliError(`${flags.map}: ${(error as Error).message}`, exitCodes.usage);
        }
      }
      if (flags.saveMapping && !exchange.validMappingName(flags.saveMapping)) {
        throw new CliError(
          `--save-mapping ${JSON.stringify(flags.saveMapping)}: letters, digits, space . _ - (up to 64)`,
          exitCodes.usage,
        );
      }
      // The whole file is read and decoded before anything is opened or written.
      let source: Awaited<ReturnType<typeof exchange.readImportFile>>;
      try {
        source = await exchange.readImportFile(file, {
          ...(flags.encoding ? { encoding: flags.encoding as 'utf-8' } : {}),
          ...(flags.sheet ? { sheet: flags.sheet } : {}),
        });
      } catch (error) {
        if (error instanceof exchange.ImportFileError) throw new CliError(error.message, exitCodes.failure);
        throw error;
      }
      const guessed =
        !map && !flags.mapping && source.guesses.needsConfirmation ? source.guesses.map : undefined;
      if (guessed && !flags.dryRun && !flags.acceptGuess) {
        for (const g of source.guesses.guesses)
          note(`  ${JSON.stringify(g.header)} → ${g.column ?? '(ignored)'} (${g.confidence})`);
        throw new CliError(
          `${file}: the headers are not athar's column names; the guessed map is above. Check it with --dry-run, then run again with --accept-guess (and --save-mapping NAME to keep it), or give --map MAP.json`,
          exitCodes.usage,
        );
      }
      const config = configFrom(flags);
      const { withWritableData } = await import('../data-session.js');
      const { servicesOf } = await import('../../services/index.js');
      const report = await withWritableData(config, async (ctx) => {
        if (flags.mapping) {
          const saved = await exchange.loadImportMapping(ctx.store, flags.mapping);
          if (saved === undefined)
            throw new CliError(`--mapping ${flags.mapping}: no map saved under that name`, exitCodes.usage);
          map = parseColumnMap(saved);
        }
        const used = map ?? guessed ?? null;
        try {
          const imported = await importRecords(ctx.store, source.text === undefined ? [] : [source.text], {
            kind: flags.kind as 'other',
            sourceName: flags.source ?? null,
            map: used,
            dryRun: flags.dryRun === true,
            actor: flags.actor?.trim() || `os:${loginName()}`,
            fileName: path.basename(file),
            total: source.total,
            ...(source.rows ? { rows: source.rows } : {}),
          });
          let claimsAdded = 0;
          if (source.pfif && !flags.dryRun) {
            claimsAdded = await exchange.applyPfifNotes(ctx.store, servicesOf(ctx).registry, source.pfif, {
              sourceName: flags.source ?? null,
              fileName: path.basename(file),
              actor: flags.actor?.trim() || `os:${loginName()}`,
            });
          }
          if (flags.saveMapping && !flags.dryRun && used)
            await exchange.saveImportMapping(ctx.store, flags.saveMapping, used);
          return {
            ...imported,
            format: source.format,
            encoding: source.encoding,
            ...(source.sheet ? { sheet: source.sheet } : {}),
            ...(guessed ? { proposedMap: guessed, headerGuesses: source.guesses.guesses } : {}),
            ...(source.pfif ? { claimsAdded } : {}),
          };
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
        if ('headerGuesses' in report && report.headerGuesses) {
          note(`${report.dryRun ? 'proposed' : 'used'} map of the headers (confirm with --accept-guess):`);
          for (const g of report.headerGuesses)
            note(`  ${JSON.stringify(g.header)} → ${g.column ?? '(ignored)'} (${g.confidence})`);
        }
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
