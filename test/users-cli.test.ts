import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signInBackoff } from '../src/access/account-rules.js';
import { commandLine } from '../src/access/caller.js';
import { verifyPassword } from '../src/access/passwords.js';
import { loadConfig } from '../src/config/config.js';
import { servicesOf } from '../src/services/index.js';
import { initialise } from '../src/services/setup.js';
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

  it('unlock ends the sign-in back-off of the last admin; reset-password gives them a new one-time password', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'athar-users-')), 'data');
    const config = loadConfig({ ATHAR_DATA: dir, ATHAR_LOG_LEVEL: 'silent' });
    const { ctx } = await initialise(config);
    const from = { ...commandLine, ip: '10.30.0.1' };
    const attempt = (password: string, caller = from) =>
      servicesOf(ctx).accounts.signIn({ username: 'admin', password }, caller);
    try {
      // Someone guesses at the only admin until it is held back.
      for (let i = 0; i <= signInBackoff.perUsername.free; i++) await attempt(`guess-${i}`);
      const held = await attempt('guess');
      expect(held).toMatchObject({ ok: false, refusal: 'rate_limited', failure: 'username_backoff' });
    } finally {
      await ctx.close();
    }

    const unlocked = await runAthar(['users', 'unlock', 'admin', '--data', dir, '--json']);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(JSON.parse(unlocked.stdout)).toMatchObject({ username: 'admin', known: true, cleared: 1 });
    const reset = await runAthar(['users', 'reset-password', 'admin', '--data', dir, '--json']);
    expect(reset.code, reset.stderr).toBe(0);
    const { password } = JSON.parse(reset.stdout) as { password: string };
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect((await runAthar(['users', 'reset-password', 'nobody', '--data', dir])).code).toBe(2);

    const again = await initialise(config);
    try {
      const ok = await servicesOf(again.ctx).accounts.signIn({ username: 'admin', password }, from);
      expect(ok.ok).toBe(true);
      const acts = await again.ctx.store.db
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('action', 'in', ['sign_in_unlocked', 'password_reset'])
        .execute();
      expect(acts.map((a) => a.action).sort()).toEqual(['password_reset', 'sign_in_unlocked']);
      for (const a of acts) expect(JSON.parse(a.details ?? '{}').via).toBe('cli');
    } finally {
      await again.ctx.close();
    }
  }, 120_000);

  it('audit searched finds the searches of a name by its digest, and is itself audited', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'athar-users-')), 'data');
    const { ctx } = await initialise(loadConfig({ ATHAR_DATA: dir, ATHAR_LOG_LEVEL: 'silent' }));
    try {
      const search = servicesOf(ctx).search;
      await search.searchFor({ q: 'Synthetic Searched', filter: {}, limit: 5 }, commandLine);
      await search.searchFor({ q: 'Synthetic Other', filter: {}, limit: 5 }, commandLine);
    } finally {
      await ctx.close();
    }
    const found = await runAthar(['audit', 'searched', 'synthetic  SEARCHED', '--data', dir, '--json']);
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).items).toHaveLength(1);
    const none = await runAthar(['audit', 'searched', 'Synthetic Nobody', '--data', dir]);
    expect(none.stdout).toMatch(/no search of that name/);
    const store = await openStore({ kind: 'sqlite', file: path.join(dir, 'athar.db') });
    try {
      const reads = await store.db
        .selectFrom('audit_log')
        .select('details')
        .where('action', '=', 'audit_read')
        .execute();
      expect(reads).toHaveLength(2);
      for (const r of reads) expect(r.details?.toLowerCase()).not.toContain('synthetic');
    } finally {
      await store.close();
    }
  }, 120_000);

  it('set-role changes a role in one step, even to one that reads contacts (the operator on the server)', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'athar-users-')), 'data');
    const added = await runAthar([
      'users',
      'add',
      'synthetic.rev',
      '--role',
      'reviewer',
      '--data',
      dir,
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const set = await runAthar(['users', 'set-role', 'synthetic.rev', 'liaison', '--data', dir, '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout).user).toMatchObject({ username: 'synthetic.rev', role: 'liaison' });
    expect((await runAthar(['users', 'set-role', 'synthetic.rev', 'boss', '--data', dir])).code).toBe(2);
    expect((await runAthar(['users', 'set-role', 'nobody', 'liaison', '--data', dir])).code).toBe(2);
    const store = await openStore({ kind: 'sqlite', file: path.join(dir, 'athar.db') });
    try {
      const rows = await store.db
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('action', 'in', ['user_updated', 'role_change_requested'])
        .execute();
      expect(rows.map((r) => r.action)).toEqual(['user_updated']);
      expect(JSON.parse(rows[0]?.details ?? '{}')).toMatchObject({
        via: 'cli',
        role: { from: 'reviewer', to: 'liaison' },
      });
    } finally {
      await store.close();
    }
  }, 120_000);
});
