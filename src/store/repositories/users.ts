import { newId, nowIso } from '../../ids.js';
import type { UserTable } from '../schema.js';
import type { Db } from '../store.js';

export interface User {
  id: string;
  username: string;
  displayName: string | null;
  role: string;
  totpRequired: boolean;
  disabled: boolean;
  mustChangePassword: boolean;
  createdAt: string;
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

  async findByUsername(username: string): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  /** The stored secrets for sign-in checks only. */
  async credentials(
    username: string,
  ): Promise<
    Pick<UserTable, 'id' | 'password_hash' | 'totp_secret' | 'failed_logins' | 'locked_until'> | undefined
  > {
    return this.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'totp_secret', 'failed_logins', 'locked_until'])
      .where('username', '=', username)
      .executeTakeFirst();
  }

  async setPassword(id: string, passwordHash: string, mustChange = false): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, must_change_password: mustChange ? 1 : 0 })
      .where('id', '=', id)
      .execute();
  }
}
