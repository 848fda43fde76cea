import { ed25519Signer } from '../../ledger/note.js';
import type { AppContext } from '../context.js';
import { ensureLedgerKey, readLedgerKey } from './key.js';
import { LedgerLog } from './log.js';
import { LedgerSequencer, type SequencerOptions } from './sequencer.js';

/**
 * Part of `athar init` (and of `athar serve`, which initialises first): makes the log's key and signs the first
 * checkpoint, so /log/checkpoint answers from the start. Idempotent.
 */
export async function initLedger(ctx: AppContext): Promise<void> {
  const key = await ensureLedgerKey(ctx.config, ctx.store);
  await new LedgerSequencer(ctx.store, ed25519Signer(key), { clock: ctx.clock }).publish();
}

export interface Ledger {
  sequencer: LedgerSequencer;
  log: LedgerLog;
  /** The log's name: the origin line of its checkpoints and its key's name. */
  origin: string;
}

/** The log over a context, signing with the key in the data folder. */
export function openLedger(ctx: AppContext, options: SequencerOptions = {}): Ledger {
  const key = readLedgerKey(ctx.config);
  return {
    sequencer: new LedgerSequencer(ctx.store, ed25519Signer(key), { clock: ctx.clock, ...options }),
    log: new LedgerLog(ctx.store),
    origin: key.name,
  };
}
