import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/config.js';
import {
  type Ed25519Key,
  formatSignerKey,
  formatVerifierKey,
  generateEd25519Key,
  parseSignerKey,
  parseVerifierKey,
} from '../../ledger/note.js';
import { getMeta, type Store, setMeta } from '../../store/store.js';

/** Where the log's signing key lives: one line, Go's note signer-key format, readable by its owner only. */
export function ledgerKeyFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'keys', 'log.key');
}

const vkeyMeta = 'ledger.vkey';

/** A problem with the log's key that a person must fix (missing, unreadable, not the database's). */
export class LedgerKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerKeyError';
  }
}

export function readLedgerKey(config: Pick<Config, 'dataDir'>): Required<Ed25519Key> {
  const file = ledgerKeyFile(config);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new LedgerKeyError(
      code === 'ENOENT'
        ? `no log key at ${file} (run athar init)`
        : `cannot read the log key ${file}: ${code}`,
    );
  }
  const key = parseSignerKey(text);
  if (!key) throw new LedgerKeyError(`${file} is not an Ed25519 note signer key (PRIVATE+KEY+name+id+key)`);
  return key;
}

/**
 * Makes the log's key on first `athar init` (named by config.log.origin, which is then fixed) and records its
 * verifier key in the database; on later runs checks that the key file and the database still belong together.
 */
export async function ensureLedgerKey(config: Config, store: Store): Promise<Required<Ed25519Key>> {
  const file = ledgerKeyFile(config);
  let key: Required<Ed25519Key>;
  if (fs.existsSync(file)) {
    key = readLedgerKey(config);
  } else {
    key = generateEd25519Key(config.log.origin);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const handle = fs.openSync(file, 'wx', 0o600);
    try {
      fs.writeSync(handle, `${formatSignerKey(key)}\n`);
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
  }
  const vkey = formatVerifierKey(key);
  const recorded = await getMeta(store.db, vkeyMeta);
  if (recorded === undefined) await setMeta(store.db, vkeyMeta, vkey);
  else if (recorded !== vkey) {
    throw new LedgerKeyError(
      `the log key ${file} (${vkey}) is not the key this database's log is signed with (${recorded}); copy that key's file here`,
    );
  }
  return key;
}

/** The verifier key recorded when the log's key was made, if any. */
export async function recordedVerifierKey(store: Store): Promise<Ed25519Key | undefined> {
  const text = await getMeta(store.db, vkeyMeta);
  return text ? parseVerifierKey(text) : undefined;
}
