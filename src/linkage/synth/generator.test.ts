import { describe, expect, it } from 'vitest';
import { generate, syntheticLabel } from './generator.js';

describe('the synthetic generator', () => {
  const out = generate({ people: 600, seed: 42 });

  it('is deterministic for a seed and differs across seeds', () => {
    expect(generate({ people: 600, seed: 42 }).records.slice(0, 50)).toEqual(out.records.slice(0, 50));
    expect(generate({ people: 600, seed: 43 }).records.slice(0, 50)).not.toEqual(out.records.slice(0, 50));
  });

  it('labels every record synthetic and gives every record a person', () => {
    expect(
      out.records.every((r) => r.fields.notes === syntheticLabel && r.fields.source.startsWith('synthetic-')),
    ).toBe(true);
    expect(new Set(out.records.map((r) => r.fields.record_id)).size).toBe(out.records.length);
    expect(new Set(out.records.map((r) => r.person)).size).toBe(600);
  });

  it('writes several sources in their scripts: Arabic reports and registries, Latin diaspora lists', () => {
    const kinds = new Set(
      out.records.map((r) => r.fields.source.replace(/registry-.*/, 'registry').replace(/-[a-z0-9]$/, '')),
    );
    expect([...kinds]).toEqual(
      expect.arrayContaining([
        'synthetic-family-reports',
        'synthetic-diaspora-list',
        'synthetic-registry',
        'synthetic-forensic-list',
        'synthetic-death-notices',
      ]),
    );
    const diaspora = out.records.filter((r) => r.fields.source.startsWith('synthetic-diaspora'));
    expect(diaspora.every((r) => /^[A-Za-z' -]+$/.test(r.fields.full_name ?? ''))).toBe(true);
    const registry = out.records.filter((r) => r.fields.source.startsWith('synthetic-registry'));
    expect(registry.every((r) => r.fields.detainee_number && r.fields.arresting_branch)).toBe(true);
  });

  it('reports the true pairs and a ceiling in [0,1]', () => {
    const perPerson = new Map<number, number>();
    for (const r of out.records) perPerson.set(r.person, (perPerson.get(r.person) ?? 0) + 1);
    let pairs = 0;
    for (const n of perPerson.values()) pairs += (n * (n - 1)) / 2;
    expect(out.stats.truePairs).toBe(pairs);
    expect(out.stats.ceiling).toBeGreaterThan(0.8);
    expect(out.stats.ceiling).toBeLessThanOrEqual(1);
    expect(out.stats.records).toBe(out.records.length);
  });

  it('gives an empty set for no people', () => {
    expect(generate({ people: 0 }).records).toEqual([]);
  });
});
