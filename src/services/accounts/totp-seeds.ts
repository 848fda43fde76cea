import type { Config } from '../../config/config.js';
import { DomainError } from '../../domain/errors.js';
import { UserRepository } from '../../store/repositories/users.js';
import type { Db } from '../../store/store.js';
import {
  cachedKey,
  InstallationKeyError,
  isSealed,
  openText,
  sealText,
  totpKeyFile,
} from '../keys/installation-keys.js';

/**
 * TOTP seeds sealed at rest (issue 21, Security 6), as contacts are: AES-256-GCM under `keys/totp.key` (made on first
 * use, 0600), the user's id bound in, so a seed copied onto another account does not open. Seeds stored in clear
 * before this are read as they are and sealed at once (and all of them at `athar init`/`serve`).
 */
export class TotpSeeds {
  private readonly key: () => Buffer;

  constructor(
    private readonly config: Pick<Config, 'dataDir'>,
    private readonly db: () => Db,
  ) {
    this.key = cachedKey(() => totpKeyFile(config));
  }

  private keyed<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof InstallationKeyError || (error as Error).message?.includes('authenticate')) {
        throw new DomainError(
          'unavailable',
          'TOTP codes cannot be checked right now; the administrator has been told',
          { cause: error },
        );
      }
      throw error;
    }
  }

  seal(userId: string, secret: string): string {
    return this.keyed(() => sealText(this.key(), `totp:${userId}`, secret));
  }

  /** The seed of a stored value; a seed still in clear is sealed in place as it is read. */
  async open(userId: string, stored: string): Promise<string> {
    if (isSealed(stored)) {
      return this.keyed(() => openText(this.key(), `totp:${userId}`, stored, totpKeyFile(this.config)));
    }
    await new UserRepository(this.db()).replaceTotpSeed(
      userId,
      'totp_secret',
      stored,
      this.seal(userId, stored),
    );
    return stored;
  }

  /** Opens a pending seed (sealed or, from before sealing, in clear). */
  openPending(userId: string, stored: string): string {
    if (!isSealed(stored)) return stored;
    return this.keyed(() => openText(this.key(), `totp:${userId}`, stored, totpKeyFile(this.config)));
  }

  /** Seals every seed still stored in clear, active or pending; answers how many were. Idempotent. */
  async sealClearSeeds(): Promise<number> {
    const users = new UserRepository(this.db());
    const rows = await users.seedsNotStartingWith('sealed:');
    let sealed = 0;
    for (const row of rows) {
      for (const column of ['totp_secret', 'totp_pending_secret'] as const) {
        const value = row[column];
        if (value === null || isSealed(value)) continue;
        if (await users.replaceTotpSeed(row.id, column, value, this.seal(row.id, value))) sealed++;
      }
    }
    return sealed;
  }
}
