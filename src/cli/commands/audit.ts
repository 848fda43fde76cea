import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { printJson, printLine } from '../output.js';

/** `athar audit searched NAME`: for the machine's operator, who holds keys/audit.key. */
export function registerAudit(program: Command): void {
  const audit = program.command('audit').description('the audit log, from the machine');

  withJson(withDataOptions(audit.command('searched')))
    .description(
      'whether a name was searched, when and by whom: audit rows keep only a keyed digest of searched names',
    )
    .argument('<name>', 'the name, in any spelling a search treats as the same')
    .action(async (name: string, options: { data?: string; databaseUrl?: string; json?: boolean }) => {
      const { withWritableData } = await import('../data-session.js');
      const { servicesOf } = await import('../../services/index.js');
      const { commandLine } = await import('../../access/caller.js');
      const rows = await withWritableData(configFrom(options), (ctx) =>
        servicesOf(ctx).audit.searchesOf(name, commandLine),
      );
      if (options.json) return printJson({ items: rows });
      if (rows.length === 0) return printLine('no search of that name is in the audit log.');
      for (const r of rows) {
        printLine(`${r.at}  ${(r.actorRole ?? '-').padEnd(13)} ${r.actorId ?? '-'}  ${r.ip ?? ''}`);
      }
    });
}
