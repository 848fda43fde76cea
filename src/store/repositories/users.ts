import { newId, nowIso } from '../../ids.js';
import type { UserTable } from '../schema.js';
import type { Db } from '../store.js';
import { credentialsChanged } from './credentials.js';

export interface User {
  id: string;
  username: string;
  displayName: string | null;
  role: string;
  totpRequired: boolean;
  disabled: boolean;
  mustChangePassword: boolean;
  /** Whether an authenticator app is set up (the sealed seed never leaves this repository's sign-in reads). */
  totpEnrolled: boolean;
  createdAt: string;
}

/** What a sign-in needs to check: the stored secrets and the account's state. */
export type SignInRow = Pick<
  UserTable,
  'id' | 'password_hash' | 'totp_secret' | 'totp_required' | 'disabled' | 'totp_pending_secret'
>;

export interface UserPatch {
  role?: string;
  disabled?: boolean;
  totpRequired?: boolean;
  displayName?: string | null;
}

/** The user as the rest of athar sees it: never the password hash or TOTP secret. */
function toUser(row: UserTable): User {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    role: row.role,
    totpRequired: row.totp_required === 1,
    disabled: row.disabled === 1,
    mustChangePassword: row.must_change_password === 1,
    totpEnrolled: row.totp_secret !== null,
    createdAt: row.created_at,
  };
}

export class UserRepository {
  constructor(private readonly db: Db) {}

  async create(input: {
    username: string;
    displayName?: string | null;
    passwordHash: string;
    role: string;
    mustChangePassword?: boolean;
    totpRequired?: boolean;
  }): Promise<User> {
    const row: UserTable = {
      id: newId(),
      username: input.username,
      display_name: input.displayName ?? null,
      password_hash: input.passwordHash,
      role: input.role,
      totp_secret: null,
      totp_required: input.totpRequired ? 1 : 0,
      disabled: 0,
      must_change_password: input.mustChangePassword ? 1 : 0,
      failed_logins: 0,
      locked_until: null,
      created_at: nowIso(),
      totp_pending_secret: null,
      totp_last_step: null,
    };
    await this.db.insertInto('users').values(row).execute();
    return toUser(row);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findById(id: string): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  /** How each of these users is named to colleagues (display name, else username), in one query. */
  async namesOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'display_name'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.display_name ?? r.username]));
  }

  async findByUsername(username: string): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  async list(): Promise<User[]> {
    const rows = await this.db.selectFrom('users').selectAll().orderBy('username').execute();
    return rows.map(toUser);
  }

  /** The stored secrets and state for sign-in checks only. */
  async signInRow(by: { username: string } | { id: string }): Promise<SignInRow | undefined> {
    let q = this.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'totp_secret', 'totp_required', 'disabled', 'totp_pending_secret']);
    q = 'id' in by ? q.where('id', '=', by.id) : q.where('username', '=', by.username);
    return q.executeTakeFirst();
  }

  /** The stored secrets for sign-in checks only, by username. */
  async credentials(username: string): Promise<SignInRow | undefined> {
    return this.signInRow({ username });
  }

  async setPassword(id: string, passwordHash: string, mustChange = false): Promise<void> {
    credentialsChanged();
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, must_change_password: mustChange ? 1 : 0 })
      .where('id', '=', id)
      .execute();
    credentialsChanged();
  }

  /**
   * Writes a change; with `fromRole`, only while the account still has that role (false when it no longer had it):
   * a role decided on as read must not land on a role changed meanwhile.
   */
  async update(id: string, patch: UserPatch, fromRole?: string): Promise<boolean> {
    const set: Partial<UserTable> = {};
    if (patch.role !== undefined) set.role = patch.role;
    if (patch.disabled !== undefined) set.disabled = patch.disabled ? 1 : 0;
    if (patch.totpRequired !== undefined) set.totp_required = patch.totpRequired ? 1 : 0;
    if (patch.displayName !== undefined) set.display_name = patch.displayName;
    if (Object.keys(set).length === 0) return true;
    credentialsChanged();
    let q = this.db.updateTable('users').set(set).where('id', '=', id);
    if (fromRole !== undefined) q = q.where('role', '=', fromRole);
    const result = await q.executeTakeFirst();
    credentialsChanged();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Admins who can still sign in, leaving one out (the one about to change). */
  async countActiveAdmins(except?: string): Promise<number> {
    let q = this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .where('disabled', '=', 0);
    if (except) q = q.where('id', '<>', except);
    const row = await q.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Replaces a stored TOTP seed (active or pending) if it is still `seen`: sealing one stored in clear. */
  async replaceTotpSeed(
    id: string,
    column: 'totp_secret' | 'totp_pending_secret',
    seen: string,
    next: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ [column]: next })
      .where('id', '=', id)
      .where(column, '=', seen)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The users with a TOTP seed, active or pending, not stored as `prefix…` (seeds from before sealing). */
  async seedsNotStartingWith(
    prefix: string,
  ): Promise<{ id: string; totp_secret: string | null; totp_pending_secret: string | null }[]> {
    return this.db
      .selectFrom('users')
      .select(['id', 'totp_secret', 'totp_pending_secret'])
      .where((eb) =>
        eb.or([
          eb.and([eb('totp_secret', 'is not', null), eb('totp_secret', 'not like', `${prefix}%`)]),
          eb.and([
            eb('totp_pending_secret', 'is not', null),
            eb('totp_pending_secret', 'not like', `${prefix}%`),
          ]),
        ]),
      )
      .execute();
  }

  async setPendingTotp(id: string, secret: string): Promise<void> {
    await this.db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', id).execute();
  }

  /** Makes the pending secret the active one, with the step of the code that confirmed it. */
  async activateTotp(id: string, secret: string, step: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ totp_secret: secret, totp_pending_secret: null, totp_last_step: step })
      .where('id', '=', id)
      .execute();
  }

  /** Removes TOTP so the user enrols again (a lost phone); their next sign-in is limited to enrolment. */
  async clearTotp(id: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Accepts a TOTP step only if it is newer than the last one accepted, in one conditional update, so two
   * requests with the same code cannot both pass.
   */
  async acceptTotpStep(id: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
