import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A family's or reporter's contact details, as given on the form. */
export interface ContactDetails {
  name?: string;
  phone?: string;
  email?: string;
  relation?: string;
}

export interface SealedContact {
  /** Ciphertext followed by the 16-byte GCM tag. */
  ciphertext: Buffer;
  nonce: Buffer;
  keyId: string;
}

export class ContactKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContactKeyError';
  }
}

const tagLength = 16;

/** Which key sealed a row: the first 8 bytes of SHA-256(key), hex; names the key without revealing it. */
export function contactKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/**
 * AES-256-GCM with a random 96-bit nonce per row. The report id is bound in as associated data, so a sealed
 * contact copied onto another report does not open.
 */
export function sealContact(key: Buffer, reportId: string, contact: ContactDetails): SealedContact {
  if (key.length !== 32) throw new ContactKeyError('the contacts key must be 32 bytes');
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: tagLength });
  cipher.setAAD(Buffer.from(reportId, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(contact), 'utf8'), cipher.final()]);
  return { ciphertext: Buffer.concat([body, cipher.getAuthTag()]), nonce, keyId: contactKeyId(key) };
}

export function openContact(key: Buffer, reportId: string, sealed: SealedContact): ContactDetails {
  if (sealed.keyId !== contactKeyId(key)) {
    throw new ContactKeyError(
      `this contact was sealed with key ${sealed.keyId}, not the configured key ${contactKeyId(key)}`,
    );
  }
  const data = Buffer.from(sealed.ciphertext);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.nonce), {
    authTagLength: tagLength,
  });
  decipher.setAAD(Buffer.from(reportId, 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - tagLength));
  const text = Buffer.concat([decipher.update(data.subarray(0, data.length - tagLength)), decipher.final()]);
  return JSON.parse(text.toString('utf8')) as ContactDetails;
}
