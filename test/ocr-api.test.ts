import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SharpImageDecoder } from '../src/evidence/sharp-image-decoder.js';
import { servicesOf } from '../src/services/index.js';
import { ingest } from '../src/services/ingest/ingest.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { cardSample } from './ocr/synthetic.js';
import { describeEachDialect } from './stores.js';

describeEachDialect('OCR proposals over the API (SYNTHETIC photo)', (store) => {
  let api: ApiHarness;
  let documenter: ApiClient;
  let viewer: ApiClient;
  let item: string;
  beforeAll(async () => {
    api = await createApi(store());
    documenter = await api.as('documenter');
    viewer = await api.as('reviewer');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-ocr-api-'));
    fs.writeFileSync(path.join(folder, 'card.jpg'), (await cardSample(1004, { hard: false })).image);
    await ingest(api.ctx, { paths: [folder], actor: documenter.user!.id, decoder: new SharpImageDecoder() });
    fs.rmSync(folder, { recursive: true, force: true });
    const ocr = servicesOf(api.ctx).ocr;
    item = (await ocr.unread(10))[0]!;
    await ocr.read([item!]);
  });
  afterAll(async () => api.close());

  it('shows the proposals, the waiting ones least confident first, and takes a reviewer decision into body labels', async () => {
    const shown = await viewer.get(`/api/evidence/${item}/ocr`);
    expect(shown.statusCode).toBe(200);
    const proposals = shown.json().items as {
      id: string;
      part: string;
      status: string;
      confidence: number;
    }[];
    expect(proposals.map((p) => [p.part, p.status])).toEqual([
      ['branch', 'proposed'],
      ['detainee_number', 'proposed'],
      ['examination_number', 'proposed'],
    ]);
    const waiting = (await documenter.get('/api/ocr/proposals?limit=10')).json().items as {
      confidence: number;
    }[];
    expect(waiting.map((p) => p.confidence)).toEqual(
      [...waiting.map((p) => p.confidence)].sort((a, b) => a - b),
    );
    const decided = await documenter.post(`/api/evidence/${item}/ocr/decisions`, {
      collection: 'SYNTHETIC',
      decisions: proposals.map((p, i) => ({
        proposal: p.id,
        action: i === 1 ? 'correct' : 'confirm',
        ...(i === 1 ? { value: '٤٢٤٢' } : {}),
      })),
    });
    expect(decided.statusCode).toBe(200);
    const body = decided.json();
    expect(body.proposals.map((p: { status: string }) => p.status)).toEqual([
      'confirmed',
      'corrected',
      'confirmed',
    ]);
    expect(body.bodyLabels.labels.map((l: { value: string }) => l.value)[1]).toBe('٤٢٤٢');
    const again = await documenter.post(`/api/evidence/${item}/ocr/decisions`, {
      collection: 'SYNTHETIC',
      decisions: [{ proposal: proposals[0]!.id, action: 'reject' }],
    });
    expect(again.statusCode).toBe(409);
    expect((await documenter.get('/api/ocr/proposals')).json().items).toEqual([]);
  });
});
