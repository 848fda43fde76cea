import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { evidenceContext } from '../../../test/evidence-context.js';
import { mkdirs } from '../../../test/evidence-files.js';
import { cardSample } from '../../../test/ocr/synthetic.js';
import { describeEachDialect } from '../../../test/stores.js';
import { identifierKey } from '../../evidence/identifiers.js';
import { SharpImageDecoder } from '../../evidence/sharp-image-decoder.js';
import { BodyRepository } from '../../store/repositories/bodies.js';
import { servicesOf } from '../index.js';
import { ingest } from '../ingest/ingest.js';
import { cardReaderVersion } from './ocr.js';

describeEachDialect('OCR of cards (SYNTHETIC photos)', (store) => {
  let ctx: Awaited<ReturnType<typeof evidenceContext>>;
  let runId: string;
  const truths = new Map<string, { branch: string; detaineeNumber: string; examinationNumber: string }>();
  beforeAll(async () => {
    ctx = await evidenceContext(store());
    const folder = mkdirs(ctx.dir, 'in');
    for (const seed of [1000, 1004]) {
      const s = await cardSample(seed, { hard: false });
      fs.writeFileSync(path.join(folder, `${s.name}.jpg`), s.image);
      truths.set(`${s.name}.jpg`, s.truth!);
    }
    fs.writeFileSync(
      path.join(folder, 'no-card.jpg'),
      (await cardSample(7, { hard: true, noCard: true })).image,
    );
    fs.writeFileSync(path.join(folder, 'report.pdf'), Buffer.from('%PDF-1.4\n%%EOF\n'));
    const summary = await ingest(ctx, {
      paths: [folder],
      actor: 'documenter-1',
      decoder: new SharpImageDecoder(),
    });
    runId = summary.runId;
  });
  afterAll(() => ctx.dispose());
  const ocr = () => servicesOf(ctx).ocr;
  const itemNamed = async (name: string) =>
    (
      await ctx.store.db
        .selectFrom('evidence_items')
        .select('id')
        .where('original_name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;

  it('reads an ingest run once: proposals for the cards, the photo without a card counted, never read twice', async () => {
    const items = await ocr().itemsOfRun(runId);
    expect(items).toHaveLength(3); // the PDF is no image
    const first = await ocr().read(items);
    expect(first).toMatchObject({ items: 3, proposed: 2, proposals: 6, failed: 0, alreadyRead: 0 });
    // No card, or a pale patch with no numbers on it: no proposal either way, counted.
    expect(first.noCard + first.noNumbers + first.unclearNumbers).toBe(1);
    for (const [name, truth] of truths) {
      const proposals = await ocr().proposals(await itemNamed(name));
      expect(proposals.map((p) => [p.part, p.valueKey])).toEqual([
        ['branch', identifierKey(truth.branch)],
        ['detainee_number', identifierKey(truth.detaineeNumber)],
        ['examination_number', identifierKey(truth.examinationNumber)],
      ]);
      for (const p of proposals) {
        expect(p).toMatchObject({
          status: 'proposed',
          readFrom: 'card',
          engine: cardReaderVersion,
          decidedBy: null,
        });
        expect(p.box.width).toBeGreaterThan(10);
      }
    }
    expect(await ocr().itemsOfRun(runId)).toEqual([]);
    const again = await ocr().read(items);
    expect(again).toMatchObject({ items: 3, alreadyRead: 3, proposed: 0 });
    const pdf = await ocr().read([await itemNamed('report.pdf')]);
    expect(pdf).toMatchObject({ notImage: 1 });
  });

  it('a confirmed or corrected proposal becomes a body label (the body-label key, queued for card matching); a rejected one does not', async () => {
    const [name] = [...truths.keys()];
    const item = await itemNamed(name!);
    const [branch, detainee, exam] = await ocr().proposals(item);
    const decided = await ocr().decide(item, {
      collection: 'SYNTHETIC',
      actor: 'reviewer-1',
      decisions: [
        { proposal: branch!.id, action: 'confirm' },
        { proposal: detainee!.id, action: 'correct', value: '4242' },
        { proposal: exam!.id, action: 'reject' },
      ],
    });
    expect(decided.proposals.map((p) => p.status)).toEqual(['confirmed', 'corrected', 'rejected']);
    expect(decided.proposals[1]!.correctedValue).toBe('4242');
    expect(decided.proposals[0]!.bodyLabelId).toBeTruthy();
    expect(decided.proposals[2]!.bodyLabelId).toBeNull();
    const labels = await new BodyRepository(ctx.store.db).labelsForEvidence(item);
    expect(labels.map((l) => [l.part, l.value, l.readFrom, l.createdBy])).toEqual([
      ['branch', branch!.value, 'card', 'reviewer-1'],
      ['detainee_number', '4242', 'card', 'reviewer-1'],
    ]);
    const queued = await ctx.store.db
      .selectFrom('tracing_queue')
      .selectAll()
      .where('subject_id', '=', item)
      .execute();
    expect(queued.length).toBeGreaterThan(0);
    await expect(
      ocr().decide(item, {
        collection: 'SYNTHETIC',
        actor: 'reviewer-2',
        decisions: [{ proposal: branch!.id, action: 'confirm' }],
      }),
    ).rejects.toThrow(/already confirmed by reviewer-1/);
  });
});
