import { afterAll, beforeAll, expect, it } from 'vitest';
import { evidenceContext } from '../../../test/evidence-context.js';
import { describeEachDialect } from '../../../test/stores.js';
import { commandLine } from '../../access/caller.js';
import { personRecordColumns } from '../../domain/person-record.js';
import { generate } from '../../linkage/synth/generator.js';
import { importRecords } from '../imports/record-import.js';
import { servicesOf } from '../index.js';

// Synthetic data only (athar synth's generator).
describeEachDialect('estimating from the registry', (store) => {
  let ctx: Awaited<ReturnType<typeof evidenceContext>>;
  const lists = ['synthetic-family-reports-a', 'synthetic-family-reports-b', 'synthetic-diaspora-list-1'];
  beforeAll(async () => {
    ctx = await evidenceContext(store());
    const { records } = generate({ people: 1500, seed: 3 });
    const lines = [personRecordColumns.join(',')];
    for (const { fields } of records)
      lines.push(personRecordColumns.map((c) => JSON.stringify(fields[c] ?? '')).join(','));
    await importRecords(ctx.store, [`${lines.join('\n')}\n`], {
      kind: 'registry_line',
      fileName: 'synthetic.csv',
      actor: null,
    });
    await servicesOf(ctx).tracing.link();
  }, 120_000);
  afterAll(() => ctx.dispose());

  it('takes the sources as lists and the persons as the linkage, stratum by stratum', async () => {
    const report = await servicesOf(ctx).estimate.fromRegistry(
      { by: 'sex', lists, estimate: { method: 'loglinear' } },
      commandLine,
    );
    expect(report.sources.map((s) => s.name)).toEqual(lists);
    expect(report.sources.every((s) => s.persons > 0)).toBe(true);
    // Every person on one of the lists is counted once, in one stratum.
    const observed = report.strata.reduce((sum, s) => sum + s.observed, 0);
    const onLists = await ctx.store.db
      .selectFrom('record_links as l')
      .innerJoin('records as r', 'r.id', 'l.record_id')
      .innerJoin('sources as s', 's.id', 'r.source_id')
      .select('l.person_id')
      .distinct()
      .where('l.unlinked_at', 'is', null)
      .where('s.name', 'in', lists)
      .execute();
    expect(observed).toBe(onLists.length);
    const estimated = report.strata.find((s) => s.loglinear && 'estimate' in s.loglinear);
    expect(
      estimated?.loglinear && 'estimate' in estimated.loglinear && estimated.loglinear.estimate,
    ).toBeGreaterThanOrEqual(estimated?.observed ?? 0);
  });

  it('gives no number for fewer than three lists, and names an unknown source', async () => {
    const two = await servicesOf(ctx).estimate.fromRegistry({ lists: lists.slice(0, 2) }, commandLine);
    expect(two.refusal?.code).toBe('too-few-lists');
    expect(two.strata.every((s) => !s.loglinear || !('estimate' in s.loglinear))).toBe(true);
    await expect(
      servicesOf(ctx).estimate.fromRegistry({ lists: [...lists, 'no such list'] }, commandLine),
    ).rejects.toMatchObject({ kind: 'invalid', field: 'lists' });
  });
});
