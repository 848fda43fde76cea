import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiClient, type ApiHarness, createApi } from '../../../test/api.js';
import { mkdirs, syntheticPhoto } from '../../../test/evidence-files.js';
import { describeEachDialect } from '../../../test/stores.js';
import { SharpImageDecoder } from '../../evidence/sharp-image-decoder.js';
import { ed25519Signer, generateEd25519Key } from '../../ledger/note.js';
import { ingest } from '../../services/ingest/ingest.js';
import { LedgerSequencer } from '../../services/ledger/sequencer.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import { CustodyRepository } from '../../store/repositories/custody.js';

/** Synthetic photos only: made here with sharp, labelled synthetic in their EXIF. */
describeEachDialect('evidence routes', (store) => {
  let api: ApiHarness;
  let documenter: ApiClient;
  let investigator: ApiClient;
  let liaison: ApiClient;
  let reviewer: ApiClient;
  const ids: Record<string, string> = {};
  const bytes: Record<string, Buffer> = {};
  let runId: string;

  beforeAll(async () => {
    api = await createApi(store());
    documenter = await api.as('documenter');
    investigator = await api.as('investigator');
    liaison = await api.as('liaison');
    reviewer = await api.as('reviewer');
    const folder = mkdirs(api.dir, 'incoming', 'ملف');
    bytes.body = await syntheticPhoto(4101, 800, 600);
    bytes.small = await sharp(bytes.body).resize(400).jpeg({ quality: 85 }).toBuffer();
    bytes.other = await syntheticPhoto(4102, 800, 600, 'png');
    fs.writeFileSync(path.join(folder, 'جثة-215.jpg'), bytes.body);
    fs.writeFileSync(path.join(folder, 'body-small.jpg'), bytes.small);
    fs.writeFileSync(path.join(folder, 'other.png'), bytes.other);
    const summary = await ingest(api.ctx, {
      paths: [folder],
      actor: documenter.user!.id,
      source: 'synthetic test collection',
      decoder: new SharpImageDecoder(),
    });
    runId = summary.runId;
    const rows = await api.ctx.store.db.selectFrom('evidence_items').select(['id', 'sha256']).execute();
    for (const [name, b] of Object.entries(bytes)) {
      const sha = createHash('sha256').update(b).digest('hex');
      ids[name] = rows.find((r) => r.sha256 === sha)!.id;
    }
  });
  afterAll(async () => api.close());

  const custodyOf = (id: string) => new CustodyRepository(api.ctx.store.db).listForEvidence(id);
  const auditOf = (id: string) => new AuditRepository(api.ctx.store.db).query({ subjectId: id });

  it('lists items newest first with filters and a cursor', async () => {
    const all = await documenter.get('/api/evidence');
    expect(all.statusCode).toBe(200);
    expect(all.json().items).toHaveLength(3);
    const first = await documenter.get('/api/evidence?limit=2');
    expect(first.json().items).toHaveLength(2);
    const rest = await documenter.get(`/api/evidence?limit=2&cursor=${first.json().nextCursor}`);
    expect(rest.json().items).toHaveLength(1);
    expect(rest.json().nextCursor).toBeUndefined();
    const seen = [...first.json().items, ...rest.json().items].map((i: { id: string }) => i.id);
    expect(new Set(seen)).toEqual(new Set(Object.values(ids)));
    expect((await documenter.get(`/api/evidence?ingestRun=${runId}`)).json().items).toHaveLength(3);
    expect((await documenter.get('/api/evidence?ingestRun=elsewhere')).json().items).toHaveLength(0);
    expect((await documenter.get('/api/evidence?decodeStatus=decoded')).json().items).toHaveLength(3);
    expect((await documenter.get('/api/evidence?decodeStatus=undecodable')).json().items).toHaveLength(0);
    expect((await documenter.get('/api/evidence?hasAnnotations=true')).json().items).toHaveLength(0);
    const bad = await documenter.get('/api/evidence?decodeStatus=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toContain('decodeStatus');
  });

  it('serves the blurred thumbnail of a graphic item, never the unblurred one, without a custody event', async () => {
    const before = (await custodyOf(ids.body!)).length;
    const thumb = await documenter.get(`/api/evidence/${ids.body}/thumbnail`);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    const item = await api.ctx.store.db
      .selectFrom('evidence_items')
      .selectAll()
      .where('id', '=', ids.body!)
      .executeTakeFirstOrThrow();
    expect(createHash('sha256').update(thumb.rawPayload).digest('hex')).toBe(item.blurred_sha256);
    expect(item.blurred_sha256).not.toBe(item.thumbnail_sha256);
    expect((await custodyOf(ids.body!)).length).toBe(before);
    expect(
      (await documenter.get('/api/evidence/00000000-0000-7000-8000-000000000000/thumbnail')).statusCode,
    ).toBe(404);
  });

  it('reveals only with a reason, as a custody event and an audit row, through a grant for this user and item', async () => {
    const noReason = await liaison.post(`/api/evidence/${ids.body}/reveal`, {});
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors[0].path).toBe('body.reason');
    expect((await liaison.post(`/api/evidence/${ids.body}/reveal`, { reason: '  x ' })).statusCode).toBe(400);
    expect(
      (await documenter.post(`/api/evidence/${ids.body}/reveal`, { reason: 'comparison' })).statusCode,
    ).toBe(403);

    const before = (await custodyOf(ids.body!)).length;
    const res = await liaison.post(`/api/evidence/${ids.body}/reveal`, { reason: 'family photo comparison' });
    expect(res.statusCode).toBe(200);
    const { url, expiresAt } = res.json();
    expect(url).toMatch(new RegExp(`^/api/evidence/${ids.body}/unblurred\\?grant=`));
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    const custody = await custodyOf(ids.body!);
    expect(custody).toHaveLength(before + 1);
    const event = custody[custody.length - 1]!;
    expect(event).toMatchObject({
      kind: 'viewed_unblurred',
      actor: liaison.user!.id,
      reason: 'family photo comparison',
    });
    const queued = await api.ctx.store.db.selectFrom('ledger_queue').select('entry').execute();
    expect(
      queued.some((q) => q.entry.includes(event.id) && q.entry.includes('custody.viewed_unblurred')),
    ).toBe(true);
    expect((await auditOf(ids.body!)).map((a) => a.action)).toContain('evidence.revealed');

    const view = await liaison.get(url);
    expect(view.statusCode).toBe(200);
    expect(view.headers['cache-control']).toContain('no-store');
    const thumb = await liaison.get(`/api/evidence/${ids.body}/thumbnail`);
    expect(Buffer.compare(view.rawPayload, thumb.rawPayload)).not.toBe(0);
    const item = await api.ctx.store.db
      .selectFrom('evidence_items')
      .select('thumbnail_sha256')
      .where('id', '=', ids.body!)
      .executeTakeFirstOrThrow();
    expect(createHash('sha256').update(view.rawPayload).digest('hex')).toBe(item.thumbnail_sha256);

    // Another user (even one allowed to reveal), another item, a forged or an expired grant: refused.
    const grant = new URL(url, 'http://x').searchParams.get('grant')!;
    const other = await investigator.get(url);
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe('grant_invalid');
    const otherItem = await liaison.get(
      `/api/evidence/${ids.other}/unblurred?grant=${encodeURIComponent(grant)}`,
    );
    expect(otherItem.json().code).toBe('grant_invalid');
    expect((await liaison.get(`/api/evidence/${ids.body}/unblurred?grant=nonsense`)).statusCode).toBe(400);
    expect((await liaison.get(`/api/evidence/${ids.body}/unblurred`)).statusCode).toBe(400);
    const ctx = api.ctx as { clock: () => number };
    const realClock = ctx.clock;
    ctx.clock = () => Date.now() + 10 * 60 * 1000;
    try {
      const late = await liaison.get(url);
      expect(late.statusCode).toBe(403);
      expect(late.json().detail).toMatch(/expired/);
    } finally {
      ctx.clock = realClock;
    }
  });

  it('lets an investigator download the original byte for byte, recorded; a documenter cannot', async () => {
    expect((await documenter.get(`/api/evidence/${ids.body}/original`)).statusCode).toBe(403);
    expect((await reviewer.get(`/api/evidence/${ids.body}/original`)).statusCode).toBe(403);
    const noReason = await investigator.get(`/api/evidence/${ids.body}/original`);
    expect(noReason.statusCode).toBe(400);
    // A reason in the URL is not taken (proxy logs keep URLs): it travels in a header (issue 21).
    const inUrl = await investigator.get(`/api/evidence/${ids.body}/original?reason=court%20bundle%20check`);
    expect(inUrl.statusCode).toBe(400);
    const before = (await custodyOf(ids.body!)).length;
    const res = await investigator.inject({
      method: 'GET',
      url: `/api/evidence/${ids.body}/original`,
      headers: { 'x-athar-reason': encodeURIComponent('court bundle check') },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+"; filename\*=UTF-8''/);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('جثة-215.jpg'));
    expect(Buffer.compare(res.rawPayload, bytes.body!)).toBe(0);
    const custody = await custodyOf(ids.body!);
    expect(custody).toHaveLength(before + 1);
    expect(custody[custody.length - 1]).toMatchObject({
      kind: 'viewed_original',
      actor: investigator.user!.id,
      reason: 'court bundle check',
    });
    const audit = await auditOf(ids.body!);
    expect(audit.find((a) => a.action === 'evidence.original_read')).toMatchObject({
      actorId: investigator.user!.id,
      actorRole: 'investigator',
    });
    const png = await investigator.inject({
      method: 'GET',
      url: `/api/evidence/${ids.other}/original`,
      headers: { 'x-athar-reason': encodeURIComponent('مراجعة المحكمة') },
    });
    expect(png.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(png.rawPayload, bytes.other!)).toBe(0);
  });

  it('annotates an item as a custody event and shows it', async () => {
    const res = await documenter.post(`/api/evidence/${ids.body}/annotations`, {
      kind: 'detainee_number',
      value: '٣٤٥٦',
      readFrom: 'card',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'detainee_number', value: '٣٤٥٦', readFrom: 'card' });
    const bad = await documenter.post(`/api/evidence/${ids.body}/annotations`, {
      kind: 'colour',
      value: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (await liaison.post(`/api/evidence/${ids.body}/annotations`, { kind: 'note', value: 'x' })).statusCode,
    ).toBe(403);
    const custody = await custodyOf(ids.body!);
    expect(custody[custody.length - 1]).toMatchObject({ kind: 'annotated', actor: documenter.user!.id });
    expect(
      (await documenter.get('/api/evidence?hasAnnotations=true'))
        .json()
        .items.map((i: { id: string }) => i.id),
    ).toEqual([ids.body]);
  });

  it('keys body labels on collection, branch, detainee and examination number, never the detainee number alone', async () => {
    const alone = await documenter.post(`/api/evidence/${ids.body}/body-labels`, {
      collection: 'synthetic-collection',
      labels: [{ part: 'detainee_number', value: '3456', readFrom: 'card' }],
    });
    expect(alone.statusCode).toBe(400);
    expect(alone.json().detail).toMatch(/detainee number alone/);

    const first = await documenter.post(`/api/evidence/${ids.body}/body-labels`, {
      collection: 'synthetic-collection',
      labels: [
        { part: 'branch', value: '٢١٥', readFrom: 'card' },
        { part: 'detainee_number', value: '٣٤٥٦', readFrom: 'card' },
        { part: 'examination_number', value: '2781/ب', readFrom: 'body' },
      ],
    });
    expect(first.statusCode).toBe(201);
    const body = first.json().body;
    expect(body).toMatchObject({ branch: '٢١٥', detaineeNumber: '٣٤٥٦', examinationNumber: '2781/ب' });
    // The same body on a second photo, read elsewhere and written otherwise: one body, both labels kept as read.
    const second = await documenter.post(`/api/evidence/${ids.small}/body-labels`, {
      collection: 'synthetic-collection',
      branch: '215',
      detaineeNumber: '3456',
      examinationNumber: '2781 / ب',
      labels: [{ part: 'detainee_number', value: '3456', readFrom: 'overlay' }],
    });
    expect(second.json().body.id).toBe(body.id);
    // The same detainee number from another branch is another body.
    const otherBranch = await documenter.post(`/api/evidence/${ids.other}/body-labels`, {
      collection: 'synthetic-collection',
      labels: [
        { part: 'branch', value: '227', readFrom: 'card' },
        { part: 'detainee_number', value: '3456', readFrom: 'card' },
        { part: 'examination_number', value: '2781/ب', readFrom: 'file_name' },
      ],
    });
    expect(otherBranch.json().body.id).not.toBe(body.id);
    // And so is the same triple in another collection.
    const otherCollection = await documenter.post(`/api/evidence/${ids.other}/body-labels`, {
      collection: 'another-synthetic-collection',
      branch: '215',
      detaineeNumber: '3456',
      examinationNumber: '2781/ب',
      labels: [{ part: 'other', value: 'ج', readFrom: 'folder' }],
    });
    expect(otherCollection.json().body.id).not.toBe(body.id);
    expect(otherCollection.json().labels[0]).toMatchObject({ part: 'other', value: 'ج', readFrom: 'folder' });

    const view = (await documenter.get(`/api/evidence/${ids.body}`)).json();
    expect(view.bodyLabels).toHaveLength(1);
    expect(view.bodyLabels[0].body.id).toBe(body.id);
    expect(view.bodyLabels[0].labels.map((l: { readFrom: string }) => l.readFrom)).toEqual([
      'card',
      'card',
      'body',
    ]);
    const labelled = await custodyOf(ids.small!);
    expect(labelled[labelled.length - 1]).toMatchObject({ kind: 'annotated' });
    const badPlace = await documenter.post(`/api/evidence/${ids.body}/body-labels`, {
      collection: 'synthetic-collection',
      labels: [{ part: 'branch', value: '215', readFrom: 'sky' }],
    });
    expect(badPlace.statusCode).toBe(400);
  });

  it('shows an item with custody, its place in the log and its near-duplicates', async () => {
    const pending = (await documenter.get(`/api/evidence/${ids.body}`)).json();
    expect(pending.log).toEqual({ index: null, included: false, checkpointSize: null });
    await new LedgerSequencer(
      api.ctx.store,
      ed25519Signer(generateEd25519Key('archive.example.org/log')),
    ).publish();
    const res = await documenter.get(`/api/evidence/${ids.body}`);
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      id: ids.body,
      mediaType: 'image/jpeg',
      width: 800,
      height: 600,
      originalName: 'جثة-215.jpg',
      graphic: true,
    });
    expect(view.sha256).toBe(createHash('sha256').update(bytes.body!).digest('hex'));
    expect(view.custody.map((c: { kind: string }) => c.kind)).toEqual(
      expect.arrayContaining(['ingested', 'viewed_unblurred', 'viewed_original', 'annotated']),
    );
    expect(
      view.custody.every(
        (c: { ledgerIndex: number | null; included: boolean }) => c.ledgerIndex !== null && c.included,
      ),
    ).toBe(true);
    expect(view.log.index).toBe(
      view.custody.find((c: { kind: string }) => c.kind === 'ingested').ledgerIndex,
    );
    expect(view.log.included).toBe(true);
    expect(view.log.checkpointSize).toBeGreaterThan(view.log.index);
    expect(view.nearDuplicates.map((n: { id: string }) => n.id)).toEqual([ids.small]);
    expect(view.nearDuplicates[0].distance).toBeLessThanOrEqual(31);
    expect(view.annotations[0]).toMatchObject({ kind: 'detainee_number', value: '٣٤٥٦' });
    expect((await documenter.get('/api/evidence/00000000-0000-7000-8000-000000000000')).statusCode).toBe(404);
  });

  it('shows ingest runs with their progress', async () => {
    const list = await documenter.get('/api/ingest-runs');
    expect(list.statusCode).toBe(200);
    expect(list.json().items[0]).toMatchObject({ id: runId, status: 'finished', done: 3, total: 3 });
    const one = await documenter.get(`/api/ingest-runs/${runId}`);
    expect(one.json()).toMatchObject({ id: runId, status: 'finished', done: 3, total: 3 });
    expect((await documenter.get('/api/ingest-runs/nope')).statusCode).toBe(404);
  });
});
