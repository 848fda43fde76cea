import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/config.js';

/**
 * Secrets of the installation kept in `<data>/keys/` (issue 21): one base64 line of 32 random bytes per file, mode
 * 0600 in a 0700 folder, made on first use. They key the digests that must not be reversible by whoever reads the
 * database or a backup of it alone (rate-limit keys, sign-in back-off keys, searched names in the audit) and seal
 * the TOTP seeds. docs/access.md ("Keys of the installation").
 */
export class InstallationKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstallationKeyError';
  }
}

export function keysDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'keys');
}

/** Names a key without revealing it: the first 8 bytes of its SHA-256, hex. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

function parse(text: string, file: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== 32) {
    throw new InstallationKeyError(`${file} is not 32 bytes in base64`);
  }
  return key;
}

/**
 * The key in `file`, made (32 random bytes) when there is none. Written to a temporary file and linked into place,
 * so two processes starting at once agree on one key and nobody ever reads a half-written one.
 */
export function keyFile(file: string): Buffer {
  try {
    return parse(fs.readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.writeSync(handle, `${randomBytes(32).toString('base64')}\n`);
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  try {
    fs.linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return parse(fs.readFileSync(file, 'utf8'), file);
}

/** HMAC-SHA256 of `value` under `key`, for one purpose (the purpose is bound in, so digests of two uses differ). */
export function keyedDigest(key: Buffer, purpose: string, value: string): string {
  return createHmac('sha256', key).update(`${purpose}\n${value}`).digest('hex');
}

/**
 * A key read once per process and cached; read again when its file was replaced (a rotation by another process)
 * or is gone.
 */
export function cachedKey(file: () => string): () => Buffer {
  let cached: { key: Buffer; version: string } | undefined;
  const version = () => {
    try {
      const stat = fs.statSync(file());
      return `${stat.ino}:${stat.mtimeMs}`;
    } catch {
      return 'missing';
    }
  };
  return () => {
    const now = version();
    if (cached && cached.version === now) return cached.key;
    const key = keyFile(file());
    cached = { key, version: version() };
    return key;
  };
}

/** The key of the sign-in back-off (usernames and addresses): stable, so a back-off outlives a restart. */
export function signInKeyFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(keysDir(config), 'sign-in.key');
}

/** The key of searched names in the audit log: stable, so an auditor can ask whether a name was searched. */
export function auditKeyFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(keysDir(config), 'audit.key');
}

/** The key that seals TOTP seeds. */
export function totpKeyFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(keysDir(config), 'totp.key');
}

/**
 * The rate-limit keys rotate by themselves: one per UTC day in `keys/rate-limits/`, never copied into backups
 * (backups take the files of `keys/` itself, not its folders), and deleted two days on. A counter of a day whose
 * key is gone can no longer be tied to any address, whatever else is read.
 */
export function rateLimitKeysDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(keysDir(config), 'rate-limits');
}

export const dayMs = 24 * 60 * 60 * 1000;

/** The rate-limit keys of one process: the key of a window is the key of the day the window starts in. */
export class RotatingKeys {
  private readonly byDay = new Map<number, Buffer>();

  constructor(
    private readonly dir: string,
    /** Days a key is kept after its own. */
    private readonly keepDays = 2,
  ) {}

  keyOf(atMs: number): Buffer {
    const day = Math.floor(atMs / dayMs);
    let key = this.byDay.get(day);
    if (key) return key;
    key = keyFile(path.join(this.dir, `${new Date(day * dayMs).toISOString().slice(0, 10)}.key`));
    this.byDay.set(day, key);
    this.forget(day);
    return key;
  }

  /** Drops the keys of days more than `keepDays` before `day`, from memory and from disk. */
  forget(day: number): void {
    for (const known of this.byDay.keys()) if (known < day - this.keepDays) this.byDay.delete(known);
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const m = /^(\d{4}-\d{2}-\d{2})\.key$/.exec(name);
      if (!m) continue;
      const of = Math.floor(Date.parse(`${m[1]}T00:00:00.000Z`) / dayMs);
      if (of < day - this.keepDays) fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }
}

/** How a sealed value is stored: `sealed:v1:<key id>:<nonce>:<ciphertext and tag>` (base64url parts). */
const sealedPrefix = 'sealed:v1:';

export function isSealed(stored: string): boolean {
  return stored.startsWith(sealedPrefix);
}

/** AES-256-GCM with a random nonce, as contacts are sealed; `binding` (e.g. the row's id) is the associated data. */
export function sealText(key: Buffer, binding: string, text: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: 16 });
  cipher.setAAD(Buffer.from(binding, 'utf8'));
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${sealedPrefix}${keyIdOf(key)}:${nonce.toString('base64url')}:${body.toString('base64url')}`;
}

export function openText(key: Buffer, binding: string, stored: string, file: string): string {
  const [keyId, nonce, body] = stored.slice(sealedPrefix.length).split(':');
  if (!keyId || !nonce || !body) throw new InstallationKeyError('a sealed value is malformed');
  if (keyId !== keyIdOf(key)) {
    throw new InstallationKeyError(
      `a value was sealed with key ${keyId}, but ${file} is key ${keyIdOf(key)}: restore that key file`,
    );
  }
  const data = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'), {
    authTagLength: 16,
  });
  decipher.setAAD(Buffer.from(binding, 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}
