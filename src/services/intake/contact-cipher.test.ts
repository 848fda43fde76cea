import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ContactKeyError, contactKeyId, openContact, sealContact } from './contact-cipher.js';

// Synthetic contact details.
const contact = { name: 'سلمى', phone: '+963 944 000 123', relation: 'أخت' };

describe('contact sealing', () => {
  it('opens what it sealed, and the ciphertext carries no plaintext', () => {
    const key = randomBytes(32);
    const sealed = sealContact(key, 'report-1', contact);
    expect(sealed.nonce).toHaveLength(12);
    expect(sealed.keyId).toBe(contactKeyId(key));
    expect(sealed.ciphertext.includes(Buffer.from('944 000'))).toBe(false);
    expect(openContact(key, 'report-1', sealed)).toEqual(contact);
  });

  it('uses a new nonce each time', () => {
    const key = randomBytes(32);
    expect(sealContact(key, 'r', contact).nonce.equals(sealContact(key, 'r', contact).nonce)).toBe(false);
  });

  it('refuses another key, another report, or a changed byte', () => {
    const key = randomBytes(32);
    const sealed = sealContact(key, 'report-1', contact);
    expect(() => openContact(randomBytes(32), 'report-1', sealed)).toThrow(ContactKeyError);
    expect(() => openContact(key, 'report-2', sealed)).toThrow();
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => openContact(key, 'report-1', { ...sealed, ciphertext: flipped })).toThrow();
  });
});
