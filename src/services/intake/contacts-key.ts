import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/config.js';
import { ReportRepository } from '../../store/repositories/reports.js';
import { getMeta, type Store, setMeta } from '../../store/store.js';
import type { AppContext } from '../context.js';
import { ContactKeyError, contactKeyId, openContact, sealContact } from './contact-cipher.js';

/** Where the contacts key lives when ATHAR_CONTACTS_KEY is not set: one base64 line, readable by its owner only. */
export function contactsKeyFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'keys', 'contacts.key');
}

/** Keys that sealed contacts before a rotation, one file per key named by its id: read, never used to seal. */
export function previousKeysDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'keys', 'contacts-previous');
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
  // A rotation that swapped the key files but stopped before recording the new id: the old key is kept, so go on.
  const rotatedFrom = recorded !== undefined && recorded !== id && readPreviousKeys(config).has(recorded);
  if (recorded === undefined || rotatedFrom) await setMeta(store.db, keyIdMeta, id);
  else if (recorded !== id) {
    throw new ContactKeyError(
      `the contacts key (${id}) is not the key this database's contacts are sealed with (${recorded}); ` +
        `restore that key (${file} or ATHAR_CONTACTS_KEY)`,
    );
  }
  return key;
}

/** The keys of earlier rotations, by id (empty when there are none). */
export function readPreviousKeys(config: Pick<Config, 'dataDir'>): Map<string, Buffer> {
  const dir = previousKeysDir(config);
  const keys = new Map<string, Buffer>();
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return keys;
  }
  for (const name of names) {
    if (!name.endsWith('.key')) continue;
    const key = parseKey(fs.readFileSync(path.join(dir, name), 'utf8'), path.join(dir, name));
    keys.set(contactKeyId(key), key);
  }
  return keys;
}

/** The key that seals new contacts, and the keys that open stored ones (the current and earlier ones) by id. */
export interface ContactKeys {
  sealing(): Buffer;
  opening(keyId: string): Buffer;
}

/**
 * Reads the keys on first use, so a server without one still starts and answers everything else. After a rotation
 * by another process (`athar contacts rotate-key`) the next contact is sealed with the new key (the key file is
 * looked at before each sealing), and a contact sealed with a key this process has not read makes it read again.
 */
export function contactKeysProvider(config: Pick<Config, 'dataDir' | 'contacts'>): ContactKeys {
  let current: Buffer | undefined;
  let byId = new Map<string, Buffer>();
  let fileVersion = '';
  // The key file's identity and time: a rotation by another process replaces the file.
  const versionNow = () => {
    if (config.contacts.key) return 'environment';
    try {
      const stat = fs.statSync(contactsKeyFile(config));
      return `${stat.ino}:${stat.mtimeMs}`;
    } catch {
      return 'missing';
    }
  };
  const load = () => {
    fileVersion = versionNow();
    const key = readContactsKey(config);
    byId = readPreviousKeys(config);
    byId.set(contactKeyId(key), key);
    current = key;
    return key;
  };
  return {
    sealing: () => (current && versionNow() === fileVersion ? current : load()),
    opening: (keyId) => {
      if (!current) load();
      let known = byId.get(keyId);
      if (!known) {
        load();
        known = byId.get(keyId);
      }
      if (!known) {
        throw new ContactKeyError(
          `this contact was sealed with key ${keyId}, which is neither the contacts key nor one in ${previousKeysDir(config)}`,
        );
      }
      return known;
    },
  };
}

/** Writes a file durably and atomically: temp, fsync, rename, fsync of the folder. */
function writeKeyFile(file: string, key: Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  const handle = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeSync(handle, `${key.toString('base64')}\n`);
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  fs.renameSync(temp, file);
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}

export interface ResealReport {
  /** The key that now seals every contact. */
  keyId: string;
  resealed: number;
  /** Ids of earlier keys that no stored contact needs any more. */
  unused: string[];
}

/**
 * Rotates the contacts key: the current key is kept among the previous ones, a new random key takes its place, and
 * every stored contact is sealed again with it (resealContacts). Each step is durable before the next, so a rotation
 * cut short leaves every contact readable, and `athar contacts reseal` (or rotating again) finishes it.
 */
export async function rotateContactsKey(
  config: Config,
  store: Store,
): Promise<ResealReport & { previousKeyId: string }> {
  if (config.contacts.key) {
    throw new ContactKeyError(
      'the contacts key comes from ATHAR_CONTACTS_KEY: rotation works on the key file (put the key in ' +
        `${contactsKeyFile(config)}, unset ATHAR_CONTACTS_KEY, rotate, then share the new file's key)`,
    );
  }
  const old = await ensureContactsKey(config, store);
  const previousKeyId = contactKeyId(old);
  writeKeyFile(path.join(previousKeysDir(config), `${previousKeyId}.key`), old);
  writeKeyFile(contactsKeyFile(config), randomBytes(32));
  await ensureContactsKey(config, store);
  return { ...(await resealContacts(config, store)), previousKeyId };
}

/** Seals again, with the current key, every stored contact sealed with an earlier one; batch by batch, resumable. */
export async function resealContacts(config: Config, store: Store, batch = 500): Promise<ResealReport> {
  const current = await ensureContactsKey(config, store);
  const keyId = contactKeyId(current);
  const keys = contactKeysProvider(config);
  let resealed = 0;
  for (;;) {
    const rows = await new ReportRepository(store.db).contactsNotSealedWith(keyId, batch);
    if (rows.length === 0) break;
    await store.transaction(async (trx) => {
      for (const row of rows) {
        const contact = openContact(keys.opening(row.key_id), row.report_id, {
          ciphertext: row.ciphertext,
          nonce: row.nonce,
          keyId: row.key_id,
        });
        const sealed = sealContact(current, row.report_id, contact);
        await new ReportRepository(trx).reseal(row.id, row.key_id, sealed);
      }
    });
    resealed += rows.length;
  }
  const inUse = await new ReportRepository(store.db).contactKeysInUse();
  const unused = [...readPreviousKeys(config).keys()].filter((id) => !inUse.has(id)).sort();
  return { keyId, resealed, unused };
}
