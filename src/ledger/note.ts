import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { sha256Hex } from './hash.js';

/**
 * Signed notes per c2sp.org/signed-note with Ed25519 (signature type 0x01), byte-compatible with Go's
 * golang.org/x/mod/sumdb/note: the same verifier key text (`name+<8 hex>+<base64(0x01‖key)>`), the same signer
 * key text (`PRIVATE+KEY+name+<8 hex>+<base64(0x01‖seed)>`), the same parsing rules.
 */

const ed25519Type = 0x01;
const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
const spkiPrefix = Buffer.from('302a300506032b6570032100', 'hex');
const sigPrefix = '— ';

export interface NoteSigner {
  readonly name: string;
  readonly keyId: number;
  sign(message: Uint8Array): Uint8Array;
}

export interface NoteVerifier {
  readonly name: string;
  readonly keyId: number;
  verify(message: Uint8Array, signature: Uint8Array): boolean;
}

export interface Ed25519Key {
  name: string;
  keyId: number;
  publicKey: Buffer;
  /** The 32-byte RFC 8032 private key (seed); absent for verifier keys. */
  seed?: Buffer;
}

/** Key names are non-empty, without Unicode spaces or '+'. */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name) && !hasControl(name, false);
}

/** ASCII control characters (below U+0020), newline allowed or not. */
function hasControl(text: string, newlineAllowed: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && !(newlineAllowed && c === 0x0a)) return true;
  }
  return false;
}

/** key ID = SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)[:4], big-endian. */
export function keyIdOf(name: string, publicKey: Uint8Array): number {
  const digest = sha256Hex(
    Buffer.concat([Buffer.from(`${name}\n`, 'utf8'), Buffer.from([ed25519Type]), publicKey]),
  );
  return Number.parseInt(digest.slice(0, 8), 16);
}

const hex8 = (id: number) => id.toString(16).padStart(8, '0');

export function generateEd25519Key(name: string): Required<Ed25519Key> {
  if (!isValidKeyName(name)) throw new Error(`invalid key name ${JSON.stringify(name)}`);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
  const pub = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { name, keyId: keyIdOf(name, pub), publicKey: Buffer.from(pub), seed: Buffer.from(seed) };
}

export function publicKeyFromSeed(seed: Uint8Array): Buffer {
  const key = createPrivateKey({ key: Buffer.concat([pkcs8Prefix, seed]), format: 'der', type: 'pkcs8' });
  return Buffer.from(createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32));
}

/** `name+<8 hex key ID>+<base64(0x01 ‖ public key)>`: what a verifier is configured with. */
export function formatVerifierKey(key: Ed25519Key): string {
  const data = Buffer.concat([Buffer.from([ed25519Type]), key.publicKey]).toString('base64');
  return `${key.name}+${hex8(key.keyId)}+${data}`;
}

/** `PRIVATE+KEY+name+<8 hex key ID>+<base64(0x01 ‖ seed)>`: the signer key file's one line. */
export function formatSignerKey(key: Required<Ed25519Key>): string {
  const data = Buffer.concat([Buffer.from([ed25519Type]), key.seed]).toString('base64');
  return `PRIVATE+KEY+${key.name}+${hex8(key.keyId)}+${data}`;
}

function splitKey(text: string, parts: number): string[] | undefined {
  const out = text.split('+');
  // The base64 may itself contain '+': everything after the fixed fields belongs to it.
  if (out.length < parts) return undefined;
  return [...out.slice(0, parts - 1), out.slice(parts - 1).join('+')];
}

function decodeKeyData(b64: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return undefined;
  const data = Buffer.from(b64, 'base64');
  if (data.toString('base64') !== b64 || data.length !== 33 || data[0] !== ed25519Type) return undefined;
  return data.subarray(1);
}

/** Parses verifier key text; undefined when malformed, not Ed25519, or when the key ID does not match. */
export function parseVerifierKey(text: string): Ed25519Key | undefined {
  const parts = splitKey(text.trim(), 3);
  if (!parts) return undefined;
  const [name, id, b64] = parts as [string, string, string];
  if (!isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(id)) return undefined;
  const publicKey = decodeKeyData(b64);
  if (!publicKey) return undefined;
  const keyId = Number.parseInt(id, 16);
  if (keyIdOf(name, publicKey) !== keyId) return undefined;
  return { name, keyId, publicKey };
}

/** Parses signer key text; undefined when malformed or when the key ID does not match the key. */
export function parseSignerKey(text: string): Required<Ed25519Key> | undefined {
  const parts = splitKey(text.trim(), 5);
  if (parts?.[0] !== 'PRIVATE' || parts[1] !== 'KEY') return undefined;
  const [, , name, id, b64] = parts as [string, string, string, string, string];
  if (!isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(id)) return undefined;
  const seed = decodeKeyData(b64);
  if (!seed) return undefined;
  const publicKey = publicKeyFromSeed(seed);
  const keyId = Number.parseInt(id, 16);
  if (keyIdOf(name, publicKey) !== keyId) return undefined;
  return { name, keyId, publicKey, seed: Buffer.from(seed) };
}

export function ed25519Signer(key: Required<Ed25519Key>): NoteSigner {
  const privateKey = createPrivateKey({
    key: Buffer.concat([pkcs8Prefix, key.seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { name: key.name, keyId: key.keyId, sign: (message) => sign(null, message, privateKey) };
}

export function ed25519Verifier(key: Ed25519Key): NoteVerifier {
  const publicKey = createPublicKey({
    key: Buffer.concat([spkiPrefix, key.publicKey]),
    format: 'der',
    type: 'spki',
  });
  return {
    name: key.name,
    keyId: key.keyId,
    verify: (message, signature) => signature.length === 64 && verify(null, message, publicKey, signature),
  };
}

/** The note text followed by a blank line and one signature line per signer. */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  if (!text.endsWith('\n')) throw new Error('note text must end in a newline');
  const message = Buffer.from(text, 'utf8');
  const lines = signers.map((s) => {
    const id = Buffer.alloc(4);
    id.writeUInt32BE(s.keyId);
    return `${sigPrefix}${s.name} ${Buffer.concat([id, s.sign(message)]).toString('base64')}\n`;
  });
  return `${text}\n${lines.join('')}`;
}

export interface NoteSignature {
  name: string;
  keyId: number;
  base64: string;
}

export type OpenedNote =
  | { ok: true; text: string; signatures: NoteSignature[]; unverified: NoteSignature[] }
  | { ok: false; reason: 'malformed' | 'unverified' | 'bad_signature'; detail: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Opens a signed note: the text is returned only when a known key's signature verifies. Signatures by unknown
 * keys are listed and ignored; a known key whose signature fails rejects the whole note (as Go's note.Open).
 */
export function openNote(message: string | Uint8Array, verifiers: readonly NoteVerifier[]): OpenedNote {
  const malformed = (detail: string): OpenedNote => ({ ok: false, reason: 'malformed', detail });
  let msg: string;
  try {
    msg = typeof message === 'string' ? message : utf8.decode(message);
  } catch {
    return malformed('not valid UTF-8');
  }
  if (hasControl(msg, true)) return malformed('contains control characters');
  const split = msg.lastIndexOf('\n\n');
  if (split < 0) return malformed('no blank line before the signatures');
  const text = msg.slice(0, split + 1);
  const sigBlock = msg.slice(split + 2);
  if (sigBlock.length === 0 || !sigBlock.endsWith('\n'))
    return malformed('signature block must end in a newline');
  const signatures: NoteSignature[] = [];
  const unverified: NoteSignature[] = [];
  const seen = new Set<string>();
  const textBytes = Buffer.from(text, 'utf8');
  const lines = sigBlock.slice(0, -1).split('\n');
  if (lines.length > 100) return malformed('too many signatures');
  for (const line of lines) {
    if (!line.startsWith(sigPrefix)) return malformed(`signature line does not start with "— ": ${line}`);
    const body = line.slice(sigPrefix.length);
    const space = body.indexOf(' ');
    const name = space < 0 ? body : body.slice(0, space);
    const b64 = space < 0 ? '' : body.slice(space + 1);
    const sig = /^[A-Za-z0-9+/]+={0,2}$/.test(b64) ? Buffer.from(b64, 'base64') : undefined;
    if (!sig || sig.toString('base64') !== b64 || !isValidKeyName(name) || sig.length < 5) {
      return malformed(`malformed signature line: ${line}`);
    }
    const keyId = sig.readUInt32BE(0);
    const entry = { name, keyId, base64: b64 };
    const known = verifiers.filter((v) => v.name === name && v.keyId === keyId);
    if (known.length === 0) {
      unverified.push(entry);
      continue;
    }
    const id = `${name}+${hex8(keyId)}`;
    if (seen.has(id)) continue;
    seen.add(id);
    if (!known.some((v) => v.verify(textBytes, sig.subarray(4)))) {
      return { ok: false, reason: 'bad_signature', detail: `invalid signature for key ${id}` };
    }
    signatures.push(entry);
  }
  if (signatures.length === 0) {
    const by = unverified.map((s) => `${s.name}+${hex8(s.keyId)}`).join(', ');
    return { ok: false, reason: 'unverified', detail: `no signature by a known key (signed by ${by})` };
  }
  return { ok: true, text, signatures, unverified };
}
