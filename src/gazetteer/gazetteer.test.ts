import { describe, expect, it } from 'vitest';
import {
  aliasKey,
  branches,
  branchSpellings,
  governorates,
  resolveBranch,
  resolveGovernorate,
  resolveTown,
  towns,
} from './index.js';

describe('gazetteer', () => {
  it('resolves a unit by its name without the parenthesis, as lists write it', () => {
    expect(resolveBranch('فرع الأمن العسكري في حمص')?.id).toBe('branch-261');
    expect(resolveBranch('Aleppo Military Intelligence Branch')?.id).toBe('branch-290');
    expect(resolveBranch('إدارة المخابرات العامة')?.id).toBe('agency-general-intelligence');
    expect(resolveBranch('Military Police')?.id).toBe('mp-qaboun');
    const b261 = branches.find((b) => b.id === 'branch-261');
    expect(b261 && branchSpellings(b261)).toContain('Homs Military Intelligence Branch');
  });

  it('reads governorates in French, German and Turkish spellings', () => {
    expect(resolveGovernorate('Rif Dimachq')?.id).toBe('rif-dimashq');
    expect(resolveGovernorate('Halep')?.id).toBe('aleppo');
    expect(resolveGovernorate('Soueïda')?.id).toBe('as-suwayda');
  });

  it('knows towns in either script and the governorate each lies in', () => {
    expect(resolveTown('Moadamiyeh')?.id).toBe('moadamiyeh');
    expect(resolveTown('معضمية الشام')?.id).toBe('moadamiyeh');
    expect(resolveTown('Bosra')?.governorate).toBe('daraa');
    expect(resolveTown('تلبيسة')?.governorate).toBe('homs');
    expect(resolveTown('Atlantis')).toBeUndefined();
  });

  it('gives every town a known governorate, and no spelling to two towns or to a governorate', () => {
    const owner = new Map<string, string>();
    for (const town of towns) {
      expect(governorates.some((g) => g.id === town.governorate)).toBe(true);
      for (const name of [town.nameEn, town.nameAr, ...town.aliases]) {
        const key = aliasKey(name);
        expect(owner.get(key) ?? town.id, `${name}: ${owner.get(key)} and ${town.id}`).toBe(town.id);
        owner.set(key, town.id);
        expect(resolveGovernorate(name), name).toBeUndefined();
      }
    }
  });
});
