/**
 * Issue 21, Security 6: the data folder, the database with its WAL and shared memory, backups and keys are their
 * owner's only, and TOTP seeds are sealed at rest (both dialects). Synthetic accounts only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine } from '../src/access/caller.js';
import { hashPassword } from '../src/access/passwords.js';
import { newTotpSecret, totpCode } from '../src/access/totp.js';
import { loadConfig } from '../src/config/config.js';
import { newId } from '../src/ids.js';
import { TotpSeeds } from '../src/services/accounts/totp-seeds.js';
import { backup } from '../src/services/exchange/backup.js';
import { servicesOf } from '../src/services/index.js';
import { totpKeyFile } from '../src/services/keys/installation-keys.js';
import { initialise } from '../src/services/setup.js';
import { UserRepository } from '../src/store/repositories/users.js';
import { type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

const mode = (file: string) => fs.statSync(file).mode & 0o777;
const password = 'synthetic-password-for-tests';

describe('owner-only files', () => {
  let umask: number;
  beforeAll(() => {
    // What most machines have: without athar's care, files would be 0644 and folders 0755.
    umask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(umask);
  });

  it('makes the data folder 0700 and the database, its WAL and shared memory, and every key 0600', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'athar-modes-')), 'data');
    const { ctx } = await initialise(loadConfig({ ATHAR_DATA: dir, ATHAR_LOG_LEVEL: 'silent' }));
    try {
      const services = servicesOf(ctx);
      // Use what makes keys on first use: a sign-in (back-off key) and a name search (audit key).
      await services.accounts.signIn(
        { username: 'nobody', password: 'x' },
        { ...commandLine, ip: '10.0.0.1' },
      );
      await services.search.searchFor({ q: 'Synthetic Name', filter: {}, limit: 5 }, commandLine);
      expect(mode(dir)).toBe(0o700);
      expect(mode(path.join(dir, 'keys'))).toBe(0o700);
      const db = path.join(dir, 'athar.db');
      for (const file of [db, `${db}-wal`, `${db}-shm`]) expect(mode(file), file).toBe(0o600);
      const keys = fs.readdirSync(path.join(dir, 'keys')).filter((n) => n.endsWith('.key'));
      expect(keys).toEqual(expect.arrayContaining(['contacts.key', 'sign-in.key', 'audit.key']));
      for (const name of keys) expect(mode(path.join(dir, 'keys', name)), name).toBe(0o600);

      const target = path.join(path.dirname(dir), 'backup');
      const report = await backup(ctx, target);
      const snapshot = path.join(target, 'snapshots', report.snapshot);
      expect(mode(target)).toBe(0o700);
      expect(mode(snapshot)).toBe(0o700);
      for (const name of fs.readdirSync(snapshot)) {
        const file = path.join(snapshot, name);
        if (fs.statSync(file).isFile()) expect(mode(file), name).toBe(0o600);
      }
    } finally {
      await ctx.close();
    }
  });

  it('narrows a data folder and database made before, with group and world bits', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'athar-modes-')), 'data');
    const config = loadConfig({ ATHAR_DATA: dir, ATHAR_LOG_LEVEL: 'silent' });
    await (await initialise(config)).ctx.close();
    const db = path.join(dir, 'athar.db');
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(path.join(dir, 'keys'), 0o755);
    fs.chmodSync(db, 0o644);
    const { ctx } = await initialise(config);
    try {
      expect(mode(dir)).toBe(0o700);
      expect(mode(path.join(dir, 'keys'))).toBe(0o700);
      expect(mode(db)).toBe(0o600);
      expect(mode(`${db}-wal`)).toBe(0o600);
    } finally {
      await ctx.close();
    }
  });
});

describeEachDialect('TOTP seeds sealed at rest', (store) => {
  let api: ApiHarness;
  let hash: string;

  beforeAll(async () => {
    api = await createApi(store());
    hash = await hashPassword(password);
  });
  afterAll(async () => api.close());

  const signIn = (username: string, totp?: string) =>
    api.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username, password, ...(totp ? { totp } : {}) },
      remoteAddress: `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    });

  const seedsOf = (id: string) =>
    store()
      .db.selectFrom('users')
      .select(['totp_secret', 'totp_pending_secret'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('keeps an enrolled seed sealed, never as the base32 the app was given, and checks codes with it', async () => {
    const user = await api.as('investigator');
    const start = await user.post('/api/me/totp', {});
    expect(start.statusCode).toBe(200);
    const { secret } = start.json() as { secret: string };
    const pending = await seedsOf(user.user?.id as string);
    expect(pending.totp_pending_secret).toMatch(/^sealed:v1:[0-9a-f]{16}:/);
    expect(pending.totp_pending_secret).not.toContain(secret);
    const confirmed = await user.post('/api/me/totp/confirm', { code: totpCode(secret, Date.now()) });
    expect(confirmed.statusCode).toBe(204);
    const active = await seedsOf(user.user?.id as string);
    expect(active.totp_secret).toMatch(/^sealed:v1:/);
    expect(active.totp_secret).not.toContain(secret);
    expect(mode(totpKeyFile(api.ctx.config))).toBe(0o600);

    await store()
      .db.updateTable('users')
      .set({ password_hash: hash, totp_last_step: null })
      .where('id', '=', user.user?.id as string)
      .execute();
    expect((await signIn(user.user?.username as string)).json().code).toBe('totp_required');
    const res = await signIn(user.user?.username as string, totpCode(secret, Date.now()));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('reads a seed stored in clear before sealing, and seals it at once (and all of them at start)', async () => {
    const secret = newTotpSecret();
    const users = new UserRepository(store().db);
    const legacy = await users.create({
      username: `legacy-${newId().slice(-8)}`,
      passwordHash: hash,
      role: 'reviewer',
    });
    const pendingOnly = await users.create({
      username: `pending-${newId().slice(-8)}`,
      passwordHash: hash,
      role: 'reviewer',
    });
    await store().db.updateTable('users').set({ totp_secret: secret }).where('id', '=', legacy.id).execute();
    await store()
      .db.updateTable('users')
      .set({ totp_pending_secret: newTotpSecret() })
      .where('id', '=', pendingOnly.id)
      .execute();

    const res = await signIn(legacy.username, totpCode(secret, Date.now()));
    expect(res.statusCode, res.body).toBe(200);
    expect((await seedsOf(legacy.id)).totp_secret).toMatch(/^sealed:v1:/);

    const seeds = new TotpSeeds(api.ctx.config, () => store().db);
    expect(await seeds.sealClearSeeds()).toBeGreaterThanOrEqual(1);
    expect((await seedsOf(pendingOnly.id)).totp_pending_secret).toMatch(/^sealed:v1:/);
    expect(await seeds.sealClearSeeds()).toBe(0);
  });

  it('does not open a seed copied onto another account', async () => {
    const seeds = new TotpSeeds(api.ctx.config, () => store().db);
    const sealed = seeds.seal('user-a', newTotpSecret());
    await expect(seeds.open('user-b', sealed)).rejects.toThrow(/cannot be checked/);
  });
});
