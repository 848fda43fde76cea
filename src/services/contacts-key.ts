import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { getMeta, type Store, setMeta } from '../store/store.js';
import { ContactKeyError, contactKeyId } from './contact-cipher.js';
import type { AppContext } from './context.js';

/** Where the contacts key lives when ATHAR_CONTACTS_KEY is not set: one base64 line, readable by its owner only. */
export function contactsKeyFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'keys', 'contacts.key');
}

const keyIdMeta = 'contacts.key_id';

function parseKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== 32) {
    throw new ContactKeyError(`${where} is not 32 bytes in base64`);
  }
  return key;
}

/** The contacts key: ATHAR_CONTACTS_KEY when set, else the key file. Throws a ContactKeyError naming the fix. */
export function readContactsKey(config: Pick<Config, 'dataDir' | 'contacts'>): Buffer {
  if (config.contacts.key) return config.contacts.key;
  const file = contactsKeyFile(config);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContactKeyError(
      code === 'ENOENT'
        ? `no contacts key at ${file} (run athar init, or set ATHAR_CONTACTS_KEY)`
        : `cannot read the contacts key ${file}: ${code}`,
    );
  }
  return parseKey(text, file);
}

/**
 * Init step: makes <data>/keys/contacts.key (32 random bytes, mode 0600) unless ATHAR_CONTACTS_KEY is set or
 * the file exists, and records the key's id in the database so a later start with another key fails loudly
 * instead of sealing new contacts under a key the old ones do not open with. Idempotent.
 */
export async function initContactsKey(ctx: AppContext): Promise<void> {
  await ensureContactsKey(ctx.config, ctx.store);
}

export async function ensureContactsKey(config: Config, store: Store): Promise<Buffer> {
  const file = contactsKeyFile(config);
  if (!config.contacts.key && !fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const handle = fs.openSync(file, 'wx', 0o600);
    try {
      fs.writeSync(handle, `${randomBytes(32).toString('base64')}\n`);
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
  }
  const key = readContactsKey(config);
  const id = contactKeyId(key);
  const recorded = await getMeta(store.db, keyIdMeta);
  if (recorded === undefined) await setMeta(store.db, keyIdMeta, id);
  else if (recorded !== id) {
    throw new ContactKeyError(
      `the contacts key (${id}) is not the key this database's contacts are sealed with (${recorded}); ` +
        `restore that key (${file} or ATHAR_CONTACTS_KEY)`,
    );
  }
  return key;
}

/** Reads the key once, on first use, so a server without one still starts and answers everything else. */
export function contactsKeyProvider(config: Pick<Config, 'dataDir' | 'contacts'>): () => Buffer {
  let key: Buffer | undefined;
  return () => {
    key ??= readContactsKey(config);
    return key;
  };
}
