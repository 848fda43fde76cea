import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/access/passwords.js';
import { openStore } from '../src/store/store.js';
import { runAthar } from './cli.js';

// Synthetic usernames only.
describe('athar users', () => {
  it('adds a user with a one-time password that signs them in, and lists users without secrets', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'athar-users-')), 'data');
    const added = await runAthar([
      'users',
      'add',
      'synthetic.reviewer',
      '--role',
      'reviewer',
      '--data',
      dir,
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const result = JSON.parse(added.stdout);
    expect(result.user).toMatchObject({
      username: 'synthetic.reviewer',
      role: 'reviewer',
      mustChangePassword: true,
      totpRequired: false,
    });
    expect(result.password).toMatch(/^[A-Za-z0-9]{20}$/);
    // A new data folder is initialised first; its admin password goes to stderr, once.
    expect(added.stderr).toMatch(/first administrator created/);

    const investigator = await runAthar([
      'users',
      'add',
      'synthetic.inv',
      '--role',
      'investigator',
      '--data',
      dir,
    ]);
    expect(investigator.code).toBe(0);
    expect(investigator.stdout).toMatch(/one-time password, shown once: [A-Za-z0-9]{20}/);
    expect(investigator.stdout).toMatch(/set up TOTP/);

    const store = await openStore({ kind: 'sqlite', file: path.join(dir, 'athar.db') });
    try {
      const row = await store.db
        .selectFrom('users')
        .select(['password_hash', 'must_change_password'])
        .where('username', '=', 'synthetic.reviewer')
        .executeTakeFirstOrThrow();
      expect(await verifyPassword(row.password_hash, result.password)).toBe(true);
      const audit = await store.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'user_created')
        .execute();
      expect(audit).toHaveLength(2);
    } finally {
      await store.close();
    }

    const listed = await runAthar(['users', 'list', '--data', dir, '--json']);
    expect(listed.code).toBe(0);
    const items = JSON.parse(listed.stdout).items as {
      username: string;
      role: string;
      totpRequired: boolean;
    }[];
    expect(items.map((u) => u.username).sort()).toEqual(['admin', 'synthetic.inv', 'synthetic.reviewer']);
    expect(items.find((u) => u.username === 'synthetic.inv')?.totpRequired).toBe(true);
    expect(listed.stdout).not.toMatch(/hash|secret|"password"/i);
    const text = await runAthar(['users', 'list', '--data', dir]);
    expect(text.stdout).toMatch(/synthetic\.inv\s+investigator\s+totp pending, must change password/);
  }, 120_000);

  it('refuses a taken username (1), an unknown role or a bad username (2)', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'athar-users-')), 'data');
    expect((await runAthar(['users', 'add', 'synthetic.a', '--role', 'liaison', '--data', dir])).code).toBe(
      0,
    );
    const taken = await runAthar(['users', 'add', 'synthetic.a', '--role', 'liaison', '--data', dir]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/username synthetic\.a is taken/);
    const role = await runAthar(['users', 'add', 'synthetic.b', '--role', 'family', '--data', dir]);
    expect(role.code).toBe(2);
    expect(role.stderr).toMatch(/--role must be one of/);
    expect((await runAthar(['users', 'add', 'Bad Name', '--role', 'liaison', '--data', dir])).code).toBe(2);
    expect((await runAthar(['users', 'add', 'synthetic.c', '--data', dir])).code).toBe(2);
  }, 120_000);
});
