import { describe, expect, it } from 'vitest';
import { type BlockingOptions, candidatePairs, defaultBlockingOptions, linkingRules } from './blocking.js';
import { RecordFeatures } from './features.js';
import { MatchIndex } from './match-index.js';
import { RecordBlocks } from './record-blocks.js';
import { generate } from './synth/generator.js';
import { compiledShippedModel } from './test-fixtures.js';

const data = generate({ people: 1500, seed: 5 });
/**
 * Its records, and after every seventh register line a nameless forensic line of that man (his detainee number and
 * branch only): blocking keys those under the detainee number and branch alone.
 */
const rows = data.records.flatMap((r, k) =>
  k % 7 === 0 && r.fields.detainee_number && r.fields.arresting_branch
    ? [
        r,
        {
          fields: {
            record_id: `${r.fields.record_id}-forensic`,
            source: 'synthetic-forensic-list',
            detainee_number: r.fields.detainee_number,
            arresting_branch: r.fields.arresting_branch,
          },
        },
      ]
    : [r],
);

function features(): RecordFeatures {
  const f = new RecordFeatures(rows.length);
  for (const r of rows) f.add(r.fields.record_id, r.fields);
  return f;
}

/** Each record's partners under a full blocking run. */
function blockingPartners(f: RecordFeatures, options: BlockingOptions): Set<number>[] {
  const { pairs } = candidatePairs(f, linkingRules, options);
  const out = Array.from({ length: f.size }, () => new Set<number>());
  for (let p = 0; p < pairs.length; p++) {
    const a = pairs.a[p] as number;
    const b = pairs.b[p] as number;
    out[a]?.add(b);
    out[b]?.add(a);
  }
  return out;
}

const sorted = (xs: Iterable<number>) => [...xs].sort((x, y) => x - y);

describe("one record's partners by the linking rules", () => {
  it('are exactly the pairs blocking gives it, oversized blocks (sub-blocks, windows, bare records) included', () => {
    const f = features();
    // A small maxBlock makes common names' blocks oversized, so every path of BlockEmitter.overlapping is taken.
    const small: BlockingOptions = { maxBlock: 6, window: 2 };
    const tiny: BlockingOptions = { maxBlock: 2, window: 1 };
    for (const options of [defaultBlockingOptions, small, tiny]) {
      const expected = blockingPartners(f, options);
      const blocks = new RecordBlocks(linkingRules, options);
      blocks.build(f);
      let paired = 0;
      let namelessPaired = 0;
      for (let i = 0; i < f.size; i++) {
        const got = sorted(blocks.partners(f, i));
        expect(got, `record ${i}`).toEqual(sorted(expected[i] as Set<number>));
        if (got.length > 0) paired++;
        if (got.length > 0 && !f.hasName(i)) namelessPaired++;
      }
      expect(paired).toBeGreaterThan(f.size / 2);
      expect(namelessPaired).toBeGreaterThan(20);
    }
  });

  it('are the same for records added one by one after the blocks were built, oversized blocks growing', () => {
    const all = features();
    const small: BlockingOptions = { maxBlock: 6, window: 2 };
    const expected = blockingPartners(all, small);
    const held = 400;
    const f = new RecordFeatures(all.size);
    for (const r of rows.slice(0, all.size - held)) f.add(r.fields.record_id, r.fields);
    const blocks = new RecordBlocks(linkingRules, small);
    blocks.build(f);
    // Each asked for as it arrives, so an oversized block's kept values are extended as the block grows.
    for (const r of rows.slice(all.size - held)) {
      const i = f.add(r.fields.record_id, r.fields);
      blocks.add(f, i);
      blocks.partners(f, i);
    }
    for (let i = 0; i < all.size; i++)
      expect(sorted(blocks.partners(f, i)), `record ${i}`).toEqual(sorted(expected[i] as Set<number>));
  });

  it('are the same from the match index for records added after it was built (the loop adds them so)', () => {
    const all = features();
    const expected = blockingPartners(all, defaultBlockingOptions);
    const held = 300;
    const index = new MatchIndex(compiledShippedModel());
    for (const r of rows.slice(0, rows.length - held)) index.append(r.fields.record_id, r.fields);
    index.pack();
    // Each asked for as it arrives (as the loop does), so the blocks' kept values are renewed as blocks grow.
    for (const r of rows.slice(rows.length - held)) {
      index.add(r.fields.record_id, r.fields);
      index.linkedPartners(r.fields.record_id);
    }
    for (let i = all.size - held; i < all.size; i++) {
      const id = all.ids[i] as string;
      expect(sorted(index.linkedPartners(id)), id).toEqual(sorted(expected[i] as Set<number>));
      const scored = index.linkedFor(id);
      expect(scored.map((c) => c.index).sort((x, y) => x - y)).toEqual(sorted(expected[i] as Set<number>));
      for (let k = 1; k < scored.length; k++)
        expect((scored[k - 1]?.weight as number) >= (scored[k]?.weight as number)).toBe(true);
    }
  });
});
