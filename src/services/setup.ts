import fs from 'node:fs';
import path from 'node:path';
import { generatePassword, hashPassword } from '../access/passwords.js';
import type { Config } from '../config/config.js';
import { StoreError } from '../store/errors.js';
import { UserRepository } from '../store/repositories/users.js';
import { getMeta, setMeta } from '../store/store.js';
import { TotpSeeds } from './accounts/totp-seeds.js';
import { SearchDigests } from './audit/search-digest.js';
import type { AppContext } from './context.js';
import { openContext } from './context.js';
import { initContactsKey } from './intake/contacts-key.js';
import { initLedger } from './ledger/setup.js';
import { givePersonsToAllRecords } from './registry/new-records.js';

export interface InitResult {
  dataDir: string;
  database: string;
  created: boolean;
  /** Present only when the first admin was made now: shown once, never stored in clear. */
  admin?: { username: string; password: string };
}

/**
 * Makes sure the data folder exists and is writable, and is its owner's only (0700: it holds the database, its
 * WAL, the keys and the blobs; issue 21, Security 6); one clear line when it is not.
 */
export function ensureDataDir(dataDir: string): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new StoreError(`data folder ${dataDir} cannot be created: ${e.code ?? e.message}`, 'not_writable');
  }
  const stat = fs.statSync(dataDir);
  if (!stat.isDirectory()) {
    throw new StoreError(`data folder ${dataDir} is not a folder`, 'not_writable');
  }
  if ((stat.mode & 0o077) !== 0) ownerOnly(dataDir, stat.mode);
  const probe = path.join(dataDir, `.write-test-${process.pid}`);
  try {
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (error) {
    throw new StoreError(
      `data folder ${dataDir} is not writable: ${(error as NodeJS.ErrnoException).code ?? error}`,
      'not_writable',
    );
  }
  const keys = path.join(dataDir, 'keys');
  fs.mkdirSync(keys, { recursive: true, mode: 0o700 });
  const keysStat = fs.statSync(keys);
  if ((keysStat.mode & 0o077) !== 0) ownerOnly(keys, keysStat.mode);
}

/** Takes group and other bits off a path made before athar kept them off (a folder that is not ours is left). */
function ownerOnly(file: string, mode: number): void {
  try {
    fs.chmodSync(file, mode & 0o7700);
  } catch {
    // Not the owner: athar cannot change it, and says nothing; docs/access.md tells the operator to.
  }
}

/** Set once the audit rows of searches written before digests carry no searched name. */
const searchNamesRedacted = 'audit.search_names_redacted';

/** What each area needs made on first start, in order; every step is idempotent. */
const initSteps: ((ctx: AppContext) => Promise<void>)[] = [
  initLedger,
  initContactsKey,
  // TOTP seeds stored in clear before they were sealed (issue 21) are sealed now.
  async (ctx) => {
    await new TotpSeeds(ctx.config, () => ctx.store.db).sealClearSeeds();
  },
  // Names searched before searches were audited by digest (issue 21) leave the audit log.
  async (ctx) => {
    if ((await getMeta(ctx.store.db, searchNamesRedacted)) !== undefined) return;
    await new SearchDigests(ctx.config).redactWrittenNames(ctx.store.db);
    await setMeta(ctx.store.db, searchNamesRedacted, new Date(ctx.clock()).toISOString());
  },
  async (ctx) => {
    await givePersonsToAllRecords(ctx.store, new Date(ctx.clock()).toISOString());
  },
];

/**
 * Creates what athar needs on first start, and leaves an existing installation as it is: data folder, database
 * (migrated), blob folders, keys, and the first admin with a one-time password.
 */
export async function initialise(config: Config): Promise<{ ctx: AppContext; result: InitResult }> {
  ensureDataDir(config.dataDir);
  const ctx = await openContext(config);
  try {
    for (const step of initSteps) await step(ctx);
    const users = new UserRepository(ctx.store.db);
    let admin: InitResult['admin'];
    if ((await users.count()) === 0) {
      const password = generatePassword();
      await users.create({
        username: 'admin',
        displayName: 'Administrator',
        passwordHash: await hashPassword(password),
        role: 'admin',
        mustChangePassword: true,
      });
      admin = { username: 'admin', password };
    }
    return {
      ctx,
      result: {
        dataDir: config.dataDir,
        database: ctx.store.location,
        created: admin !== undefined,
        ...(admin ? { admin } : {}),
      },
    };
  } catch (error) {
    await ctx.close();
    throw error;
  }
}
