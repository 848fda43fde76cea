import { type BackoffRule, backoffWaitMs, signInBackoff } from '../../access/account-rules.js';
import type { Config } from '../../config/config.js';
import { BackoffRepository } from '../../store/repositories/rate-limits.js';
import type { Db } from '../../store/store.js';
import { cachedKey, keyedDigest, signInKeyFile } from '../keys/installation-keys.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** The usernames that share one back-off: as typed, trimmed, in lower case. */
export function backoffUsername(typed: string): string {
  return typed.trim().toLowerCase();
}

export type Admission =
  | { ok: true; addressKey: string; usernameKey: string }
  | { ok: false; failure: 'address_backoff' | 'username_backoff'; retryAfter: number };

/**
 * The sign-in back-off (issue 21, Security 4), per client address and per typed username, known or not: each attempt
 * is counted as a failure when it is let in (so attempts made at once all count), and taken back when it turns out
 * not to be one. Keys are HMACs under `keys/sign-in.key`: the table holds no address and no typed username.
 */
export class SignInBackoff {
  private readonly key: () => Buffer;

  constructor(
    config: Pick<Config, 'dataDir'>,
    private readonly db: () => Db,
  ) {
    this.key = cachedKey(() => signInKeyFile(config));
  }

  addressKey(address: string): string {
    return `address:${keyedDigest(this.key(), 'sign-in-address', address).slice(0, 40)}`;
  }

  usernameKey(username: string): string {
    return `username:${keyedDigest(this.key(), 'sign-in-username', backoffUsername(username)).slice(0, 40)}`;
  }

  private get repo(): BackoffRepository {
    return new BackoffRepository(this.db());
  }

  /** Lets an attempt in and counts it, or answers how many seconds it must wait. */
  private async take(key: string, rule: BackoffRule, now: number): Promise<number | null> {
    const repo = this.repo;
    for (let tries = 0; tries < 8; tries++) {
      const seen = await repo.read(key);
      const live = seen !== undefined && seen.forgetAfter > iso(now);
      if (live && seen.notBefore > iso(now))
        return Math.max(1, Math.ceil((Date.parse(seen.notBefore) - now) / 1000));
      const failures = (live ? seen.failures : 0) + 1;
      const next = {
        failures,
        notBefore: iso(now + backoffWaitMs(rule, failures)),
        forgetAfter: iso(now + rule.forgetMs),
      };
      if (seen ? await repo.swap(key, seen, next) : await repo.create(key, next)) return null;
    }
    // Others changed the row each time: as busy a key as that waits a second.
    return 1;
  }

  /** The address first, then the username; an attempt that must wait is not counted against the other. */
  async admit(address: string, username: string, now: number): Promise<Admission> {
    const addressKey = this.addressKey(address);
    const usernameKey = this.usernameKey(username);
    const addressWait = await this.take(addressKey, signInBackoff.perAddress, now);
    if (addressWait !== null) return { ok: false, failure: 'address_backoff', retryAfter: addressWait };
    const usernameWait = await this.take(usernameKey, signInBackoff.perUsername, now);
    if (usernameWait !== null) {
      await this.repo.release(addressKey);
      return { ok: false, failure: 'username_backoff', retryAfter: usernameWait };
    }
    return { ok: true, addressKey, usernameKey };
  }

  /** The attempt was not a failure (a correct password that still needs its TOTP code): both counts go back. */
  async notAFailure(admitted: { addressKey: string; usernameKey: string }): Promise<void> {
    await this.repo.release(admitted.addressKey);
    await this.repo.release(admitted.usernameKey);
  }

  /** The owner signed in: the username's back-off ends, the address's count goes back by this attempt. */
  async succeeded(admitted: { addressKey: string; usernameKey: string }): Promise<void> {
    await this.repo.release(admitted.addressKey);
    await this.repo.clear(admitted.usernameKey);
  }

  /** `athar users unlock`: ends the back-off of a username (and of an address, or of every address). */
  async unlock(username: string, addresses?: { address?: string; all?: boolean }): Promise<number> {
    let n = await this.repo.clear(this.usernameKey(username));
    if (addresses?.all) n += await this.repo.clearAll('address:');
    else if (addresses?.address) n += await this.repo.clear(this.addressKey(addresses.address));
    return n;
  }
}
