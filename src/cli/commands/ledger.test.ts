import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importRecords, testSigner } from '../../../test/ledger-fixtures.js';
import { leafHash } from '../../ledger/hash.js';
import { formatVerifierKey, parseVerifierKey } from '../../ledger/note.js';
import { verifyConsistency, verifyInclusion } from '../../ledger/tree.js';
import { openStore } from '../../store/store.js';
import { main } from '../main.js';

/** Runs the CLI in-process and returns its exit code and what it printed on stdout. */
async function run(...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    return { code: await main(args), out };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

const b64 = (s: string) => Buffer.from(s, 'base64');

describe('athar ledger and athar verify', () => {
  let dir: string;
  const data = () => ['--data', dir];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-cli-ledger-'));
    expect((await run('init', ...data(), '--json')).code).toBe(0);
    const store = await openStore({ kind: 'sqlite', file: path.join(dir, 'athar.db') });
    await importRecords(store, 40);
    await store.close();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints the verifier key made at init, named by the configured origin', async () => {
    const { code, out } = await run('ledger', 'key', ...data(), '--json');
    expect(code).toBe(0);
    const key = JSON.parse(out) as { origin: string; verifierKey: string };
    expect(key.origin).toBe('athar.localhost/log');
    expect(parseVerifierKey(key.verifierKey)?.name).toBe('athar.localhost/log');
    expect((await run('ledger', 'key', ...data())).out.trim()).toBe(key.verifierKey);
    expect(fs.statSync(path.join(dir, 'keys', 'log.key')).mode & 0o777).toBe(0o600);
  });

  it('sequences staged entries and prints a signed checkpoint', async () => {
    const { code, out } = await run('ledger', 'checkpoint', ...data(), '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ origin: 'athar.localhost/log', size: 40 });
    expect((await run('ledger', 'checkpoint', ...data())).out).toMatch(
      /^athar\.localhost\/log\n40\n.+=\n\n— athar\.localhost\/log /,
    );
  });

  it('prints inclusion and consistency proofs that verify', async () => {
    const proof = JSON.parse((await run('ledger', 'prove', '--index', '7', ...data())).out);
    expect(proof).toMatchObject({ index: 7, size: 40 });
    expect(
      verifyInclusion(7, 40, leafHash(Buffer.from(proof.entry)), proof.proof.map(b64), b64(proof.root)),
    ).toBe(true);
    const older = JSON.parse((await run('ledger', 'prove', '--index', '7', '--size', '9', ...data())).out);
    expect(older).toMatchObject({ size: 9, checkpoint: null });
    const c = JSON.parse((await run('ledger', 'consistency', '--from', '9', ...data())).out);
    expect(verifyConsistency(9, 40, b64(c.fromRoot), b64(c.toRoot), c.proof.map(b64))).toBe(true);
  });

  it.each([
    [['ledger', 'prove', '--index', '40'], 2],
    [['ledger', 'prove', '--index', 'seven'], 2],
    [['ledger', 'prove', '--index', '1', '--size', '41'], 2],
    [['ledger', 'consistency', '--from', '41'], 2],
    [['ledger', 'prove'], 2],
  ])('exits with a usage error for %j', async (args, code) => {
    expect((await run(...args, ...data())).code).toBe(code);
  });

  it('verifies an intact archive with exit 0, and a tampered one with exit 1 naming the row', async () => {
    const intact = await run('verify', ...data(), '--json');
    expect(intact.code).toBe(0);
    expect(JSON.parse(intact.out)).toMatchObject({ ok: true, log: { entries: 40 }, problems: [] });

    const store = await openStore({ kind: 'sqlite', file: path.join(dir, 'athar.db') });
    const record = await store.db
      .selectFrom('records')
      .select('id')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await store.db
      .updateTable('records')
      .set({ notes: 'edited by hand' })
      .where('id', '=', record.id)
      .execute();
    await store.close();
    const tampered = await run('verify', ...data(), '--json');
    expect(tampered.code).toBe(1);
    expect(JSON.parse(tampered.out).problems).toEqual([
      expect.objectContaining({ code: 'row_changed', table: 'records', id: record.id }),
    ]);
    const human = await run('verify', ...data());
    expect(human.out).toContain(`[row_changed] records/${record.id} was altered`);
  });

  it('fails verification against a key that did not sign the log', async () => {
    const other = formatVerifierKey(testSigner('athar.localhost/log').key);
    const { code, out } = await run('verify', ...data(), '--json', '--key', other);
    expect(code).toBe(1);
    expect(JSON.parse(out).problems.map((p: { code: string }) => p.code)).toContain('checkpoint_signature');
    expect((await run('verify', ...data(), '--key', 'not-a-key')).code).toBe(2);
  });
});
