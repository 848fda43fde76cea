import fs from 'node:fs';
import os from 'node:os';
import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, note, printJson, printLine } from '../output.js';

interface CreateFlags {
  data?: string;
  databaseUrl?: string;
  json?: boolean;
  person?: string;
  evidence?: string[];
  ingestRun?: string;
  out: string;
  requester?: string;
  approver?: string;
  reason?: string;
  purpose?: string;
  organization?: string;
}

function loginName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}

export function registerBundle(program: Command): void {
  const bundle = program
    .command('bundle')
    .description('court bundles: BagIt bags of evidence that anyone can verify offline (docs/exchange.md)');

  withJson(withDataOptions(bundle.command('create')))
    .description(
      'build a court bundle of a person, some evidence items or an ingest run (a custody event: exported)',
    )
    .option('--person <id>', 'a person: its records, identified evidence, annotations, claims and events')
    .option('--evidence <item...>', 'evidence items (id, SHA-256 or a prefix of 8+ hex digits)')
    .option('--ingest-run <id>', 'every item an ingest run found')
    .requiredOption('--out <dir|file.zip>', 'a new (or empty) folder, or a new .zip file')
    .option('--requester <username>', 'the athar user who asked for it (default: you, os:<login>)')
    .option('--approver <username>', 'the admin or investigator who approved it (not the requester)')
    .option('--reason <text>', 'why the bundle is made (logged with the export)')
    .option('--purpose <purpose>', 'the consent purpose it serves (default criminal_proceedings)')
    .option('--organization <name>', "Source-Organization in bag-info.txt (default: the log's origin)")
    .action(async (flags: CreateFlags) => {
      const scopes = [flags.person, flags.evidence, flags.ingestRun].filter((s) => s !== undefined);
      if (scopes.length !== 1) {
        throw new CliError('give exactly one of --person, --evidence or --ingest-run', exitCodes.usage);
      }
      const { consentPurposes } = await import('../../domain/consent.js');
      if (flags.purpose && !(consentPurposes as readonly string[]).includes(flags.purpose)) {
        throw new CliError(`--purpose must be one of ${consentPurposes.join(', ')}`, exitCodes.usage);
      }
      const { openContext } = await import('../../services/context.js');
      const { createBundle, BundleError } = await import('../../services/exchange/bundle-build.js');
      const { BagPlaceError } = await import('../../services/exchange/bag-files.js');
      const { servicesOf } = await import('../../services/index.js');
      const ctx = await openContext(configFrom(flags));
      const services = servicesOf(ctx);
      try {
        const actor = async (username: string, flag: string) => {
          const user = await services.accounts.userByName(username);
          if (!user || user.disabled)
            throw new CliError(`${flag}: no active user ${username}`, exitCodes.usage);
          return { id: user.id, role: user.role, name: user.username };
        };
        const requester = flags.requester
          ? await actor(flags.requester, '--requester')
          : { id: `os:${loginName()}`, role: 'operator', name: `os:${loginName()}` };
        const approver = flags.approver ? await actor(flags.approver, '--approver') : null;
        let scope: import('../../exchange/bundle-layout.js').BundleScope;
        if (flags.person) scope = { kind: 'person', personId: flags.person };
        else if (flags.ingestRun) scope = { kind: 'ingest_run', ingestRunId: flags.ingestRun };
        else {
          const ids: string[] = [];
          for (const ref of flags.evidence ?? []) {
            ids.push((await services.catalogue.resolve(ref)).id);
          }
          scope = { kind: 'evidence', evidenceIds: ids };
        }
        let last = 0;
        const result = await createBundle(
          ctx,
          {
            scope,
            requester,
            approver,
            reason: flags.reason ?? null,
            ...(flags.purpose ? { purpose: flags.purpose } : {}),
            ...(flags.organization ? { sourceOrganization: flags.organization } : {}),
          },
          flags.out,
          {
            onProgress: (done, total) => {
              if (process.stderr.isTTY && Date.now() - last > 300) {
                last = Date.now();
                process.stderr.write(`\rbundling: ${done}/${total} items…   `);
              }
            },
          },
        ).catch((error: unknown) => {
          if (error instanceof BundleError) {
            throw new CliError(
              error.message,
              error.code === 'bad_request' ? exitCodes.usage : exitCodes.failure,
            );
          }
          if (error instanceof BagPlaceError) throw new CliError(error.message, exitCodes.usage);
          throw error;
        });
        if (process.stderr.isTTY && last > 0) process.stderr.write('\r\x1b[K');
        if (flags.json) printJson(result);
        else {
          printLine(
            `bundle ${result.id}: ${result.items} items (${result.graphic} graphic), ${result.payloadFiles} files, ${(result.payloadBytes / 1e6).toFixed(1)} MB, ${result.entries} log entries proven against checkpoint ${result.checkpointSize}`,
          );
          printLine(`written to ${result.location}`);
          if (result.withheldRecords > 0)
            note(
              `${result.withheldRecords} family-report records left out: their consent does not cover the purpose`,
            );
        }
      } finally {
        await ctx.close();
      }
    });

  withJson(bundle.command('verify'))
    .description(
      'check a court bundle offline: manifests, every file re-hashed, every proof and signature (no database, no network)',
    )
    .argument('<bag>', 'the bundle: a folder or a .zip file')
    .option('--key <vkey>', "the log's verifier key you were given (text or a file holding it)")
    .action(async (source: string, flags: { json?: boolean; key?: string }) => {
      const { parseVerifierKey } = await import('../../ledger/note.js');
      const { verifyBundle } = await import('../../services/exchange/bundle-verify.js');
      const { BagPlaceError } = await import('../../services/exchange/bag-files.js');
      let trustedKey: ReturnType<typeof parseVerifierKey>;
      if (flags.key !== undefined) {
        const text = fs.existsSync(flags.key) ? fs.readFileSync(flags.key, 'utf8') : flags.key;
        trustedKey = parseVerifierKey(text);
        if (!trustedKey)
          throw new CliError(
            `--key is not a verifier key (name+<8 hex>+<base64>): ${flags.key}`,
            exitCodes.usage,
          );
      }
      const report = await verifyBundle(source, trustedKey ? { trustedKey } : {}).catch((error: unknown) => {
        if (error instanceof BagPlaceError) throw new CliError(error.message, exitCodes.usage);
        throw error;
      });
      if (flags.json) printJson(report);
      else {
        printLine(
          `${report.location}: ${report.files} files (${(report.bytes / 1e6).toFixed(1)} MB) re-hashed, ${report.originals} originals, ${report.entries} log entries, ${report.rows} rows in ${report.ms} ms`,
        );
        for (const n of report.notes) note(`note: ${n}`);
        if (report.ok) printLine(`intact: bundle ${report.bundle} verifies against ${report.verifierKey}`);
        else {
          printLine(`NOT INTACT: ${report.faults.length} faults; the first:`);
          for (const f of report.faults) printLine(`  [${f.code}] ${f.message}`);
        }
      }
      if (!report.ok) {
        const first = report.faults[0];
        throw new CliError(`bundle does not verify: [${first?.code}] ${first?.message}`, exitCodes.failure);
      }
    });
}
