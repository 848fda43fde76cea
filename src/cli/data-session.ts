import type { Config } from '../config/config.js';
import type { AppContext } from '../services/context.js';
import { note } from './output.js';

/**
 * Runs a command that changes the archive: the data folder is initialised if it is new (the one-time admin
 * password then goes to stderr, once), and when the work ends — even when it fails or is interrupted after
 * committing some rows — the log entries it staged are sequenced and a checkpoint is signed, so `athar verify`
 * and the log's readers see them without a server running.
 */
/**
 * Entries sequenced per transaction when a command ends: nothing else waits on a command's log lock, and on SQLite
 * each commit of the default 5,000 wrote and synced the tree's pages again (1M-record registry link: 7.3 s).
 */
const publishBatch = 50_000;

export async function withWritableData<T>(config: Config, work: (ctx: AppContext) => Promise<T>): Promise<T> {
  const { initialise } = await import('../services/setup.js');
  const { openLedger } = await import('../services/ledger/setup.js');
  const { ctx, result } = await initialise(config);
  if (result.admin) {
    note(`first administrator created: username ${result.admin.username}, password ${result.admin.password}`);
    note('(shown once only; you will choose a new password at first sign-in)');
  }
  try {
    return await work(ctx);
  } finally {
    try {
      await openLedger(ctx).sequencer.publish(publishBatch);
    } finally {
      await ctx.close();
    }
  }
}
