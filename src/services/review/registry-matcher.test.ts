import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/stores.js';
import { newId, nowIso } from '../../ids.js';
import { generate } from '../../linkage/synth/generator.js';
import { SourceRepository } from '../../store/repositories/sources.js';
import type { Store } from '../../store/store.js';
import { proposeFromRegistry, RegistryMatcher } from './registry-matcher.js';
import { ReviewService } from './review.js';

const data = generate({ people: 150, seed: 5 });

/** Stores synthetic records the way the registry keeps them (gazetteer ids, ISO dates). */
async function store(s: Store, records: typeof data.records): Promise<Map<string, string>> {
  const sources = new SourceRepository(s.db);
  const ids = new Map<string, string>();
  for (const { fields } of records) {
    const source = await sources.findOrCreate(fields.source, 'other');
    const id = newId();
    ids.set(fields.record_id, id);
    await s.db
      .insertInto('records')
      .values({
        id,
        source_id: source.id,
        external_id: fields.record_id,
        kind: 'other',
        original: JSON.stringify(fields),
        full_name: fields.full_name ?? null,
        first_name: fields.first_name ?? null,
        father_name: fields.father_name ?? null,
        grandfather_name: fields.grandfather_name ?? null,
        family_name: fields.family_name ?? null,
        mother_name: fields.mother_name ?? null,
        name_normalized: null,
        name_script: 'ar',
        sex: fields.sex ?? null,
        birth_date: fields.birth_date ?? null,
        birth_year: fields.birth_year ? Number(fields.birth_year) : null,
        governorate_id: null,
        place_of_origin: fields.place_of_origin ?? null,
        arrest_date: fields.arrest_date ?? null,
        arresting_branch_id: null,
        detainee_number: fields.detainee_number ?? null,
        death_date: fields.death_date ?? null,
        forensic_report_number: null,
        notes: fields.notes ?? null,
        created_at: nowIso(),
        created_by: null,
      })
      .execute();
  }
  return ids;
}

describeEachDialect('the registry matcher', (s) => {
  const early = data.records.slice(0, 200);
  const late = data.records.slice(200);
  let ids: Map<string, string>;
  let matcher: RegistryMatcher;

  beforeAll(async () => {
    ids = await store(s(), early);
    matcher = await RegistryMatcher.open(s());
  });

  it('is built from the database at start', () => {
    expect(matcher.size).toBe(early.length);
  });

  it('takes in records stored since, and finds a report among them', async () => {
    for (const [k, v] of await store(s(), late)) ids.set(k, v);
    expect(await matcher.refresh()).toBe(late.length);
    expect(await matcher.refresh()).toBe(0);
    const target = late[0]!;
    const top = matcher.top(target.fields, 5);
    expect(top[0]?.recordId).toBe(ids.get(target.fields.record_id));
    expect(matcher.explain(target.fields, top[0]!.recordId)?.steps.length).toBeGreaterThan(5);
  });

  it('proposes review pairs for a new record, and for the whole registry, without a rejected pair', async () => {
    const review = new ReviewService(s());
    const person = (i: number) => data.records[i]!.person;
    const i = data.records.findIndex(
      (r, k) => k > 0 && data.records.slice(0, k).some((o) => o.person === r.person),
    );
    const j = data.records.findIndex((r) => r.person === person(i));
    await review.decide({
      recordA: ids.get(data.records[i]!.fields.record_id),
      recordB: ids.get(data.records[j]!.fields.record_id),
      decision: 'non_match',
      reviewerId: 'r',
    });
    const one = await matcher.proposeFor(ids.get(data.records[i]!.fields.record_id)!, review, {
      minProbability: 0.01,
    });
    expect(one.proposed + one.skippedDecided).toBeGreaterThan(0);
    const all = await proposeFromRegistry(s(), review, { minProbability: 0.2 });
    expect(all.records).toBe(data.records.length);
    expect(all.proposed).toBeGreaterThan(10);
    const open = await review.open(1000);
    const rejected = [
      ids.get(data.records[i]!.fields.record_id)!,
      ids.get(data.records[j]!.fields.record_id)!,
    ].sort();
    expect(open.some((p) => p.recordA === rejected[0] && p.recordB === rejected[1])).toBe(false);
  });
});
