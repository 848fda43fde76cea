import type { Command } from 'commander';
import { configFrom, withDataOptions, withJson } from '../options.js';
import { CliError, exitCodes, printJson, printLine } from '../output.js';

interface DataOptions {
  data?: string;
  databaseUrl?: string;
  json?: boolean;
}

/** `athar contacts rotate-key|reseal`: the key that seals families' contact details (docs/intake.md). */
export function registerContacts(program: Command): void {
  const contacts = program
    .command('contacts')
    .description("the key that seals families' contact details: rotate it, reseal with it");

  withJson(withDataOptions(contacts.command('rotate-key')))
    .description(
      'make a new contacts key, keep the old one for reading, and seal every contact again with the new one',
    )
    .action(async (options: DataOptions) => {
      const { rotateContactsKey } = await import('../../services/intake/contacts-key.js');
      const report = await keyWork(options, 'contacts_key_rotated', (config, store) =>
        rotateContactsKey(config, store),
      );
      if (options.json) return printJson(report);
      printLine(`contacts key rotated: ${report.previousKeyId} → ${report.keyId}`);
      printResealed(report);
    });

  withJson(withDataOptions(contacts.command('reseal')))
    .description(
      'seal again with the current key every contact still sealed with an earlier one (finishes a rotation)',
    )
    .action(async (options: DataOptions) => {
      const { resealContacts } = await import('../../services/intake/contacts-key.js');
      const report = await keyWork(options, 'contacts_resealed', (config, store) =>
        resealContacts(config, store),
      );
      if (options.json) return printJson(report);
      printResealed(report);
    });
}

function printResealed(report: { keyId: string; resealed: number; unused: string[] }): void {
  printLine(`${report.resealed} contacts sealed again with key ${report.keyId}`);
  for (const id of report.unused) {
    printLine(`  no contact needs key ${id} any more: keys/contacts-previous/${id}.key may be destroyed`);
  }
}

/** Runs a key operation on the data folder and audits it (ids of keys only, never keys). */
async function keyWork<T extends { keyId: string; resealed: number }>(
  options: DataOptions,
  action: string,
  work: (
    config: import('../../config/config.js').Config,
    store: import('../../store/store.js').Store,
  ) => Promise<T>,
): Promise<T> {
  const { withWritableData } = await import('../data-session.js');
  const { ContactKeyError } = await import('../../services/intake/contact-cipher.js');
  const { servicesOf } = await import('../../services/index.js');
  const { commandLine } = await import('../../access/caller.js');
  return withWritableData(configFrom(options), async (ctx) => {
    try {
      const report = await work(ctx.config, ctx.store);
      await servicesOf(ctx).audit.record(commandLine, {
        action,
        subjectType: 'contacts_key',
        subjectId: report.keyId,
        details: { resealed: report.resealed },
      });
      return report;
    } catch (error) {
      if (error instanceof ContactKeyError) throw new CliError(error.message, exitCodes.failure);
      throw error;
    }
  });
}
