import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli/main.js';
import { probeTesseract } from '../src/services/ocr/tesseract.js';
import { cardSample, pageSample } from './ocr/synthetic.js';

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
    return { code: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('athar ocr (SYNTHETIC photos)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-ocr-cli-'));
    fs.mkdirSync(path.join(dir, 'in'));
    fs.writeFileSync(path.join(dir, 'in', 'card.jpg'), (await cardSample(1004, { hard: false })).image);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads an ingest run, then finds nothing left to read', async () => {
    const data = path.join(dir, 'data');
    const ingested = await cli('ingest', '--json', '--data', data, path.join(dir, 'in'));
    expect(ingested.code).toBe(0);
    const { runId } = JSON.parse(ingested.stdout) as { runId: string };
    const first = await cli('ocr', '--json', '--data', data, '--ingest-run', runId);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ items: 1, proposed: 1, proposals: 3 });
    const second = await cli('ocr', '--json', '--data', data, '--ingest-run', runId);
    expect(JSON.parse(second.stdout)).toMatchObject({ items: 0, proposed: 0 });
  });

  it.runIf(probeTesseract().ok)(
    'reads items named as scanned pages (--pages --json), once',
    async () => {
      const data = path.join(dir, 'pages-data');
      fs.mkdirSync(path.join(dir, 'pages'));
      fs.writeFileSync(
        path.join(dir, 'pages', 'list.png'),
        (await pageSample(202, { handwritten: false })).image,
      );
      expect((await cli('ingest', '--json', '--data', data, path.join(dir, 'pages'))).code).toBe(0);
      const sha = (await import('node:crypto'))
        .createHash('sha256')
        .update(fs.readFileSync(path.join(dir, 'pages', 'list.png')))
        .digest('hex');
      const first = await cli('ocr', '--json', '--data', data, '--pages', sha.slice(0, 16));
      expect(first.code).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ items: 1, proposed: 1, failed: 0 });
      expect(JSON.parse(first.stdout).rows).toBeGreaterThan(10);
      const second = await cli('ocr', '--json', '--data', data, '--pages', sha);
      expect(JSON.parse(second.stdout)).toMatchObject({ items: 1, alreadyRead: 1 });
      const refused = await cli('ocr', '--data', data, '--pages', '--ingest-run', 'x');
      expect(refused.code).toBe(2);
    },
    120_000,
  );

  it('refuses to run with nothing to read', async () => {
    const { code, stderr } = await cli('ocr', '--data', path.join(dir, 'data'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/give --ingest-run ID or the items to read/);
  });
});
