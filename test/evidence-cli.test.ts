import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli/main.js';
import { syntheticPhoto } from './evidence-files.js';

/** Runs the CLI in this process and captures what it prints. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('the evidence commands', () => {
  let dir: string;
  let photo: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-cli-'));
    fs.mkdirSync(path.join(dir, 'in'));
    photo = path.join(dir, 'in', 'photo.jpg');
    fs.writeFileSync(photo, await syntheticPhoto(1200, 800, 600));
    fs.writeFileSync(path.join(dir, 'in', 'empty.jpg'), '');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('hashes files without storing them and prints one JSON object', async () => {
    const { code, stdout } = await cli('evidence', 'hash', '--json', photo);
    expect(code).toBe(0);
    const { files } = JSON.parse(stdout) as { files: Record<string, unknown>[] };
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ file: photo, media_type: 'image/jpeg', width: 800, height: 600 });
    expect(files[0]!.pdq).toMatch(/^[0-9a-f]{64}$/);
    expect(files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ingests, prints its summary as JSON, and shows the item', async () => {
    const data = path.join(dir, 'data');
    const first = await cli(
      'ingest',
      '--data',
      data,
      '--no-progress',
      '--json',
      '--source',
      'synthetic',
      path.join(dir, 'in'),
    );
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ status: 'finished', seen: 2, stored: 1, refused: 1 });
    const hashed = JSON.parse((await cli('evidence', 'hash', '--json', photo)).stdout) as {
      files: { sha256: string }[];
    };
    const shown = await cli(
      'evidence',
      'show',
      '--data',
      data,
      '--json',
      hashed.files[0]!.sha256.slice(0, 12),
    );
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      item: { originalName: 'photo.jpg', mediaType: 'image/jpeg' },
    });
    const annotated = await cli(
      'evidence',
      'annotate',
      '--data',
      data,
      hashed.files[0]!.sha256,
      '--kind',
      'detainee_number',
      '--value',
      '١٢٣٤',
      '--read-from',
      'card',
    );
    expect(annotated.code).toBe(0);
    const found = JSON.parse((await cli('evidence', 'search', '--data', data, '--json', '1234')).stdout) as {
      matches: unknown[];
    };
    expect(found.matches).toHaveLength(1);
  });

  it.each([
    [['ingest', '--data', '/nonexistent/data', '/nonexistent/folder'], 2, /does not exist/],
    [['ingest', '--concurrency', '0', '.'], 2, /--concurrency/],
    [['evidence', 'annotate', 'abc', '--kind', 'detainee_number'], 2, /value/],
  ])('refuses bad input %j with exit 2 and a one-line reason', async (args, code, message) => {
    const result = await cli(...(args as string[]));
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(fs.existsSync('/nonexistent/data')).toBe(false);
  });
});
