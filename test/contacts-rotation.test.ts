/** Rotating the key that seals families' contact details: nothing becomes unreadable, at any step. Synthetic data. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactKeyId } from '../src/services/intake/contact-cipher.js';
import {
  contactsKeyFile,
  ensureContactsKey,
  previousKeysDir,
  readContactsKey,
  resealContacts,
  rotateContactsKey,
} from '../src/services/intake/contacts-key.js';
import { openStore } from '../src/store/store.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { runAthar } from './cli.js';
import { describeEachDialect } from './stores.js';

const report = (phone: string) => ({
  person: { fullName: 'سامر خالد يوسف العلي', motherName: 'نادية', sex: 'male', birthDate: '1990' },
  consent: {
    internalUse: true,
    partnerNgos: false,
    nationalCommission: false,
    unIimp: false,
    icmpIcrc: false,
    criminalProceedings: false,
    contactWithResults: true,
    photoComparison: false,
  },
  contact: { name: 'ليلى العلي', phone, relation: 'أم' },
  language: 'ar',
});

describeEachDialect('contacts key rotation', (store) => {
  let api: ApiHarness;
  let liaison: ApiClient;
  let address = 0;

  beforeAll(async () => {
    api = await createApi(store());
    await ensureContactsKey(api.ctx.config, store());
    liaison = await api.as('liaison');
  });
  afterAll(async () => api.close());

  async function file(phone: string): Promise<string> {
    const res = await api.anonymous.inject({
      method: 'POST',
      url: '/api/public/reports',
      payload: report(phone),
      remoteAddress: `10.9.0.${++address}`,
    });
    expect(res.statusCode, res.body).toBe(201);
    const row = await store()
      .db.selectFrom('family_reports')
      .select('id')
      .where('reference', '=', res.json().reference)
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const contactOf = async (id: string) => (await liaison.get(`/api/reports/${id}`)).json().contact;
  const keyIds = async () =>
    (await store().db.selectFrom('contacts').select('key_id').execute()).map((r) => r.key_id);

  it('seals every contact again with a new key, keeps the old one for reading, and the server follows', async () => {
    const config = api.ctx.config;
    const ids = [await file('+963 944 000 001'), await file('+963 944 000 002')];
    const before = contactKeyId(readContactsKey(config));
    expect(await contactOf(ids[0] as string)).toMatchObject({ phone: '+963 944 000 001' });

    const rotated = await rotateContactsKey(config, store());
    expect(rotated.previousKeyId).toBe(before);
    expect(rotated.keyId).not.toBe(before);
    expect(rotated.keyId).toBe(contactKeyId(readContactsKey(config)));
    expect(rotated.resealed).toBe(2);
    expect(rotated.unused).toEqual([before]);
    expect(new Set(await keyIds())).toEqual(new Set([rotated.keyId]));
    const kept = path.join(previousKeysDir(config), `${before}.key`);
    expect(fs.statSync(kept).mode & 0o777).toBe(0o600);
    expect(fs.statSync(contactsKeyFile(config)).mode & 0o777).toBe(0o600);

    // The running server opens contacts sealed with the new key, and seals new ones with it.
    expect(await contactOf(ids[1] as string)).toMatchObject({ phone: '+963 944 000 002' });
    const later = await file('+963 944 000 003');
    expect(new Set(await keyIds())).toEqual(new Set([rotated.keyId]));
    expect(await contactOf(later)).toMatchObject({ phone: '+963 944 000 003' });
  });

  it('finishes a rotation cut short after the key swap: contacts stay readable, reseal completes it', async () => {
    const config = api.ctx.config;
    const id = await file('+963 944 000 004');
    const old = readContactsKey(config);
    // The rotation's first two steps only: the old key kept, a new key in its place; nothing recorded or resealed.
    fs.writeFileSync(path.join(previousKeysDir(config), `${contactKeyId(old)}.key`), old.toString('base64'), {
      mode: 0o600,
    });
    fs.writeFileSync(contactsKeyFile(config), randomBytes(32).toString('base64'), { mode: 0o600 });
    expect(await contactOf(id)).toMatchObject({ phone: '+963 944 000 004' });
    const done = await resealContacts(config, store());
    expect(done.keyId).toBe(contactKeyId(readContactsKey(config)));
    expect(done.resealed).toBeGreaterThanOrEqual(1);
    expect(new Set(await keyIds())).toEqual(new Set([done.keyId]));
    expect(await contactOf(id)).toMatchObject({ phone: '+963 944 000 004' });
    expect((await resealContacts(config, store())).resealed).toBe(0);
  });
});

describe('athar contacts', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-contacts-cli-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('rotates the key from the command line, audited by key id, and refuses a key given in the environment', async () => {
    const data = path.join(dir, 'data');
    expect((await runAthar(['init', '--data', data])).code).toBe(0);
    const before = fs.readFileSync(path.join(data, 'keys', 'contacts.key'), 'utf8');
    const run = await runAthar(['contacts', 'rotate-key', '--data', data, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ resealed: 0 });
    expect(out.keyId).not.toBe(out.previousKeyId);
    expect(fs.readFileSync(path.join(data, 'keys', 'contacts.key'), 'utf8')).not.toBe(before);
    expect(run.stdout).not.toContain(before.trim());
    const db = await openStore({ kind: 'sqlite', file: path.join(data, 'athar.db') });
    const audited = await db.db
      .selectFrom('audit_log')
      .select(['subject_id', 'details'])
      .where('action', '=', 'contacts_key_rotated')
      .execute();
    await db.close();
    expect(audited).toEqual([
      { subject_id: out.keyId, details: JSON.stringify({ resealed: 0, via: 'cli' }) },
    ]);

    // The same key, given in the environment (as servers sharing one PostgreSQL have it).
    const current = fs.readFileSync(path.join(data, 'keys', 'contacts.key'), 'utf8').trim();
    const refused = await runAthar(['contacts', 'rotate-key', '--data', data], {
      env: { ATHAR_CONTACTS_KEY: current },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/comes from ATHAR_CONTACTS_KEY/);
  });
});
