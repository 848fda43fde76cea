import { describe, expect, it } from 'vitest';
import { formatCheckpoint, parseCheckpoint } from './checkpoint.js';
import {
  ed25519Signer,
  ed25519Verifier,
  formatSignerKey,
  formatVerifierKey,
  generateEd25519Key,
  keyIdOf,
  openNote,
  parseSignerKey,
  parseVerifierKey,
  signNote,
} from './note.js';

// The vectors of Go's golang.org/x/mod/sumdb/note (note_test.go).
const skey = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const vkey = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const text =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const signed = `${text}\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

describe('signed notes', () => {
  it('reads the Go verifier and signer keys and derives the same key ID', () => {
    const v = parseVerifierKey(vkey);
    const s = parseSignerKey(skey);
    expect(v?.keyId).toBe(0xc74f20a3);
    expect(s?.publicKey.toString('hex')).toBe(v?.publicKey.toString('hex'));
    expect(keyIdOf('PeterNeumann', v?.publicKey as Buffer)).toBe(0xc74f20a3);
    expect(formatVerifierKey(v as NonNullable<typeof v>)).toBe(vkey);
    expect(formatSignerKey(s as NonNullable<typeof s>)).toBe(skey);
  });

  it('signs exactly as Go does (Ed25519 is deterministic)', () => {
    const s = parseSignerKey(skey);
    expect(signNote(text, [ed25519Signer(s as NonNullable<typeof s>)])).toBe(signed);
  });

  it('opens a note signed by a known key', () => {
    const v = ed25519Verifier(parseVerifierKey(vkey) as NonNullable<ReturnType<typeof parseVerifierKey>>);
    const opened = openNote(signed, [v]);
    expect(opened).toMatchObject({
      ok: true,
      text,
      signatures: [{ name: 'PeterNeumann', keyId: 0xc74f20a3 }],
    });
  });

  it('rejects a note whose text was changed', () => {
    const v = ed25519Verifier(parseVerifierKey(vkey) as NonNullable<ReturnType<typeof parseVerifierKey>>);
    expect(openNote(signed.replace('cryptography', 'cryptograpHy'), [v])).toEqual({
      ok: false,
      reason: 'bad_signature',
      detail: 'invalid signature for key PeterNeumann+c74f20a3',
    });
  });

  it('ignores signatures by unknown keys and fails when no known key signed', () => {
    const other = generateEd25519Key('PeterNeumann');
    const opened = openNote(signed, [ed25519Verifier(other)]);
    expect(opened).toMatchObject({ ok: false, reason: 'unverified' });
    const both = signNote(text, [
      ed25519Signer(other),
      ed25519Signer(parseSignerKey(skey) as Required<typeof other>),
    ]);
    const v = ed25519Verifier(parseVerifierKey(vkey) as NonNullable<ReturnType<typeof parseVerifierKey>>);
    const result = openNote(both, [v]);
    expect(result.ok && result.unverified.length).toBe(1);
  });

  it.each([
    ['no signature block', text],
    ['a signature line without the dash', `${text}\nPeterNeumann AAAA\n`],
    ['a control character', `If you\tthink\n\n— PeterNeumann x08go/ZJku=\n`],
    ['a missing final newline', signed.slice(0, -1)],
    ['a signature too short', `${text}\n— PeterNeumann AAAA\n`],
  ])('refuses a note with %s', (_, message) => {
    expect(openNote(message, [])).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('refuses keys whose ID does not match, or that are not Ed25519', () => {
    expect(
      parseVerifierKey('PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'),
    ).toBeUndefined();
    expect(
      parseVerifierKey('PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'),
    ).toBeUndefined();
    expect(
      parseVerifierKey('Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'),
    ).toBeUndefined();
    expect(parseSignerKey(vkey)).toBeUndefined();
  });

  it('makes keys that sign and verify round trip', () => {
    const key = generateEd25519Key('archive.example.org/log');
    const parsed = parseSignerKey(formatSignerKey(key));
    expect(parsed?.publicKey.equals(key.publicKey)).toBe(true);
    const note = signNote('hello\n', [ed25519Signer(key)]);
    expect(openNote(note, [ed25519Verifier(parseVerifierKey(formatVerifierKey(key)) as typeof key)]).ok).toBe(
      true,
    );
  });
});

describe('checkpoints', () => {
  const example = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';

  it('reads and writes the c2sp.org/tlog-checkpoint example', () => {
    const parsed = parseCheckpoint(example);
    expect(parsed).toMatchObject({
      ok: true,
      checkpoint: { origin: 'example.com/behind-the-sofa', size: 20852163 },
    });
    if (parsed.ok) expect(formatCheckpoint(parsed.checkpoint)).toBe(example);
  });

  it.each([
    ['a leading zero in the size', example.replace('20852163', '020852163')],
    ['a negative size', example.replace('20852163', '-1')],
    ['a short root', example.replace('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=', 'CsUY')],
    ['an empty origin', example.replace('example.com/behind-the-sofa', '')],
    ['no final newline', example.slice(0, -1)],
    ['an empty extension line', `${example}\n`],
    ['two lines only', 'origin\n1\n'],
  ])('refuses a checkpoint with %s', (_, bad) => {
    expect(parseCheckpoint(bad).ok).toBe(false);
  });
});
