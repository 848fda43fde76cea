import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidenceContext } from '../../../test/evidence-context.js';
import { mkdirs, randomBytesOf, syntheticPhoto } from '../../../test/evidence-files.js';
import { describeEachDialect } from '../../../test/stores.js';
import type { SignedIn } from '../../access/caller.js';
import { DomainError } from '../../domain/errors.js';
import { SharpImageDecoder } from '../../evidence/sharp-image-decoder.js';
import { newId, nowIso } from '../../ids.js';
import { CustodyRepository } from '../../store/repositories/custody.js';
import { type EvidenceItem, EvidenceRepository } from '../../store/repositories/evidence.js';
import { SourceRepository } from '../../store/repositories/sources.js';
import { servicesOf } from '../index.js';
import { ingest } from '../ingest/ingest.js';
import { hashEvidenceFiles } from './evidence.js';

/** A signed-in caller of this role, as the HTTP layer would pass one. */
const as = (userId: string, role: string): SignedIn => ({
  actor: { userId, username: userId, role, via: 'session', credentialId: `session-${userId}` },
  ip: null,
  channel: 'http',
});

const decoder = new SharpImageDecoder();

describeEachDialect('evidence service', (store) => {
  let ctx: Awaited<ReturnType<typeof evidenceContext>>;
  let photo: EvidenceItem;
  let edit: EvidenceItem;
  let pdf: EvidenceItem;
  let photoBytes: Buffer;
  beforeAll(async () => {
    ctx = await evidenceContext(store());
    const folder = mkdirs(ctx.dir, 'in');
    photoBytes = await syntheticPhoto(900, 1000, 750);
    fs.writeFileSync(path.join(folder, 'body-1.jpg'), photoBytes);
    fs.writeFileSync(
      path.join(folder, 'body-1-small.jpg'),
      await sharp(photoBytes).resize(500).jpeg().toBuffer(),
    );
    fs.writeFileSync(path.join(folder, 'other.jpg'), await syntheticPhoto(901, 1000, 750));
    fs.writeFileSync(path.join(folder, 'report.pdf'), Buffer.from('%PDF-1.4\n%%EOF\n'));
    await ingest(ctx, { paths: [folder], actor: 'documenter-1', decoder });
    const repo = new EvidenceRepository(ctx.store.db);
    const byName = async (name: string) => {
      const { id } = await ctx.store.db
        .selectFrom('evidence_items')
        .select('id')
        .where('original_name', '=', name)
        .executeTakeFirstOrThrow();
      return (await repo.get(id))!;
    };
    photo = await byName('body-1.jpg');
    edit = await byName('body-1-small.jpg');
    pdf = await byName('report.pdf');
  });
  afterAll(() => ctx.dispose());
  const catalogue = () => servicesOf(ctx).catalogue;
  const access = () => servicesOf(ctx).evidence;

  const custodyOf = (id: string) => new CustodyRepository(ctx.store.db).listForEvidence(id);

  it('finds an item by id, SHA-256 or a SHA-256 prefix', async () => {
    expect((await catalogue().resolve(photo.id)).id).toBe(photo.id);
    expect((await catalogue().resolve(photo.sha256.toUpperCase())).id).toBe(photo.id);
    expect((await catalogue().resolve(photo.sha256.slice(0, 10))).id).toBe(photo.id);
    await expect(catalogue().resolve('deadbeefdeadbeef')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('serves the blurred view without a custody event', async () => {
    const before = (await custodyOf(photo.id)).length;
    const view = await catalogue().blurredView(photo.id);
    expect(view.mediaType).toBe('image/png');
    expect(view.sha256).toBe(photo.blurredSha256);
    expect((await sharp(await drain(view.stream)).metadata()).format).toBe('png');
    expect(await custodyOf(photo.id)).toHaveLength(before);
  });

  it('refuses the unblurred view and the original without a reason', async () => {
    await expect(access().reveal(photo.id, as('reviewer-1', 'reviewer'), ' ')).rejects.toMatchObject({
      kind: 'invalid',
      field: 'reason',
    });
    await expect(
      access().original(photo.id, as('investigator-2', 'investigator'), ''),
    ).rejects.toBeInstanceOf(DomainError);
  });

  it('records who saw the unblurred view and the original, and why, before handing them out', async () => {
    const revealed = await access().reveal(photo.id, as('reviewer-1', 'reviewer'), 'identification');
    const unblurred = await access().revealedView(photo.id);
    expect(unblurred.sha256).toBe(photo.thumbnailSha256);
    await drain(unblurred.stream);
    expect(revealed.grant).toMatch(/\./);
    const original = await access().original(photo.id, as('investigator-2', 'investigator'), 'case 17');
    expect((await drain(original.stream)).equals(photoBytes)).toBe(true);
    expect(original.mediaType).toBe('image/jpeg');
    const events = (await custodyOf(photo.id)).filter((e) => e.kind.startsWith('viewed_'));
    expect(events.map((e) => [e.kind, e.actor, e.reason])).toEqual([
      ['viewed_unblurred', 'reviewer-1', 'identification'],
      ['viewed_original', 'investigator-2', 'case 17'],
    ]);
  });

  it('says why an item has no views', async () => {
    await expect(catalogue().blurredView(pdf.id)).rejects.toMatchObject({ kind: 'conflict' });
  });

  it('lists an edit of a photo as its near-duplicate, in its group', async () => {
    const similar = await catalogue().similar(photo.id);
    expect(similar.neighbours.map((n) => n.item.id)).toEqual([edit.id]);
    expect(similar.neighbours[0]!.distance).toBeLessThanOrEqual(31);
    expect(similar.group!.members.map((m) => m.evidenceId).sort()).toEqual([photo.id, edit.id].sort());
    const wide = await catalogue().similar(photo.id, 256);
    expect(wide.neighbours.length).toBeGreaterThanOrEqual(2);
    await expect(catalogue().similar(pdf.id)).rejects.toMatchObject({ kind: 'conflict' });
    await expect(catalogue().similar(photo.id, 300)).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('annotates card identifiers, finds them however written, and links them to a record', async () => {
    const detainee = await catalogue().annotate({
      evidence: photo.id,
      kind: 'detainee_number',
      value: '٣٤٥٦',
      readFrom: 'card',
      actor: 'documenter-1',
    });
    await catalogue().annotate({
      evidence: photo.id,
      kind: 'branch_number',
      value: '215',
      readFrom: 'body',
      actor: 'documenter-1',
    });
    await catalogue().annotate({
      evidence: edit.id,
      kind: 'forensic_report_number',
      value: '2013/3456',
      readFrom: 'overlay',
      actor: 'documenter-1',
    });
    expect(detainee).toMatchObject({ valueKey: '3456', value: '٣٤٥٦', readFrom: 'card' });

    const found = await catalogue().searchIdentifiers('3456');
    expect(found.matches.map((m) => [m.item.id, m.annotation.kind])).toEqual([[photo.id, 'detainee_number']]);
    expect(
      (await catalogue().searchIdentifiers('٢٠١٣ / ٣٤٥٦', 'forensic_report_number')).matches,
    ).toHaveLength(1);
    expect((await catalogue().searchIdentifiers('215', 'detainee_number')).matches).toHaveLength(0);

    const source = await new SourceRepository(ctx.store.db).findOrCreate('synthetic registry', 'registry');
    const recordId = newId();
    await ctx.store.db
      .insertInto('records')
      .values({
        id: recordId,
        source_id: source.id,
        external_id: 'r1',
        kind: 'registry_line',
        original: '{}',
        full_name: null,
        first_name: null,
        father_name: null,
        grandfather_name: null,
        family_name: null,
        mother_name: null,
        name_normalized: null,
        name_script: 'none',
        sex: null,
        birth_date: null,
        birth_year: null,
        governorate_id: null,
        place_of_origin: null,
        arrest_date: null,
        arresting_branch_id: null,
        detainee_number: '3456',
        death_date: null,
        forensic_report_number: null,
        notes: 'synthetic',
        created_at: nowIso(),
        created_by: null,
      })
      .execute();
    const linked = await catalogue().attachAnnotation(detainee.id, recordId, 'reviewer-1');
    expect(linked.recordId).toBe(recordId);
    expect(
      (await catalogue().annotationsForRecord(recordId)).map((m) => [m.annotation.id, m.item.id]),
    ).toEqual([[detainee.id, photo.id]]);
    await expect(
      catalogue().attachAnnotation(detainee.id, 'no-such-record', 'reviewer-1'),
    ).rejects.toMatchObject({
      kind: 'not_found',
    });
    const details = await catalogue().show(photo.id);
    expect(details.annotations.map((a) => [a.kind, a.recordId])).toEqual([
      ['detainee_number', recordId],
      ['branch_number', null],
    ]);
    expect(details.custody.filter((e) => e.kind === 'annotated')).toHaveLength(3);
    expect(details.locations).toHaveLength(1);
    expect(details.group?.size).toBe(2);
  });

  it.each([
    [{ kind: 'shoe_size', value: '42' }, /unknown annotation kind/],
    [{ kind: 'detainee_number', value: '42', readFrom: 'wall' }, /unknown place/],
    [{ kind: 'detainee_number', value: ' / ' }, /no letters or digits/],
  ])('refuses the annotation %j', async (input, message) => {
    await expect(catalogue().annotate({ evidence: photo.id, actor: 'x', ...input })).rejects.toThrow(message);
  });
});

describe('hashing files without storing them', () => {
  it('gives SHA-256, type, PDQ and size, and the decoder’s words for a broken image', async () => {
    const dir = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'athar-hash-'));
    try {
      const photo = await syntheticPhoto(950, 900, 600);
      fs.writeFileSync(path.join(dir, 'a.jpg'), photo);
      fs.writeFileSync(path.join(dir, 'noise.jpg'), randomBytesOf(2000));
      const [a, noise, missing] = await hashEvidenceFiles(
        [path.join(dir, 'a.jpg'), path.join(dir, 'noise.jpg'), path.join(dir, 'missing.jpg')],
        decoder,
      );
      expect(a).toMatchObject({ mediaType: 'image/jpeg', width: 900, height: 600, sizeBytes: photo.length });
      expect(a!.pdq).toMatch(/^[0-9a-f]{64}$/);
      expect(a!.sha256).toBe((await import('node:crypto')).createHash('sha256').update(photo).digest('hex'));
      expect(noise).toMatchObject({ mediaType: 'application/octet-stream', pdq: null });
      expect(noise!.error).toBeTruthy();
      expect(missing).toMatchObject({ error: 'does not exist' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function drain(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
