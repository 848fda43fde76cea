import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/stores.js';
import { loadConfig } from '../../config/config.js';
import { ContactKeyError, contactKeyId } from './contact-cipher.js';
import { contactsKeyFile, ensureContactsKey, readContactsKey } from './contacts-key.js';

describeEachDialect('the contacts key', (store) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-contacts-key-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is made once by init, 32 bytes, readable by its owner only, and recorded by id', async () => {
    const config = loadConfig({ ATHAR_DATA: dir });
    expect(() => readContactsKey(config)).toThrow(ContactKeyError);
    const key = await ensureContactsKey(config, store());
    expect(key).toHaveLength(32);
    expect(fs.statSync(contactsKeyFile(config)).mode & 0o777).toBe(0o600);
    expect(readContactsKey(config).equals(key)).toBe(true);
    expect((await ensureContactsKey(config, store())).equals(key)).toBe(true);
  });

  it('refuses to start with another key than the one contacts were sealed with', async () => {
    const other = randomBytes(32);
    const config = loadConfig({ ATHAR_DATA: dir, ATHAR_CONTACTS_KEY: other.toString('base64') });
    expect(readContactsKey(config).equals(other)).toBe(true);
    await expect(ensureContactsKey(config, store())).rejects.toThrow(/not the key this database/);
    expect(contactKeyId(other)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is checked in the environment without echoing it', () => {
    expect(() => loadConfig({ ATHAR_CONTACTS_KEY: 'c2hvcnQ=' })).toThrow(
      /ATHAR_CONTACTS_KEY: must be 32 random bytes/,
    );
    try {
      loadConfig({ ATHAR_CONTACTS_KEY: 'c2hvcnQ=' });
    } catch (error) {
      expect(String(error)).not.toContain('c2hvcnQ=');
    }
  });
});
