import { describe, expect, it } from 'vitest';
import {
  aliasKey,
  type Branch,
  branches,
  branchesNest,
  branchSpellings,
  governorates,
  resolveBranch,
  resolveGovernorate,
  resolveTown,
  towns,
  unitsAbove,
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
    expect(resolveGovernorate('Campagne de Damas')?.id).toBe('rif-dimashq');
    expect(resolveGovernorate('Halep')?.id).toBe('aleppo');
    expect(resolveGovernorate('Soueïda')?.id).toBe('as-suwayda');
  });

  it('reads a governorate past one slip of typing, but not a town the gazetteer knows nor a three-letter word', () => {
    expect(resolveGovernorate('درع')?.id).toBe('daraa');
    expect(resolveGovernorate('دمق')?.id).toBe('damascus');
    expect(resolveGovernorate('ريف دمش')?.id).toBe('rif-dimashq');
    expect(resolveGovernorate('Aleppp')?.id).toBe('aleppo');
    // حمص and حلب are a slip apart from too many words to be read past one.
    expect(resolveGovernorate('حمض')).toBeUndefined();
    expect(resolveGovernorate('مسحرة')).toBeUndefined();
    expect(resolveTown('مسحرة')?.governorate).toBe('quneitra');
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

  it('gives every spelling of a unit to that unit or the agency above it, and every parent and governorate exists', () => {
    const above = (b: (typeof branches)[number]): string[] => {
      const parent = branches.find((p) => p.id === b.parent);
      return parent ? [parent.id, ...above(parent)] : [];
    };
    for (const b of branches) {
      if (b.parent)
        expect(
          branches.some((p) => p.id === b.parent),
          b.id,
        ).toBe(true);
      expect(
        governorates.some((g) => g.id === b.governorate),
        b.id,
      ).toBe(true);
      // "المخابرات الجوية" is one of the Mezzeh branch's spellings, and its agency's: the agency is what it names.
      for (const name of branchSpellings(b))
        expect([b.id, ...above(b)], name).toContain(resolveBranch(name)?.id);
    }
  });

  it('knows the regional branches and prisons lists name, in Arabic, English and French', () => {
    expect(resolveBranch('فرع الأمن العسكري في درعا')?.id).toBe('branch-245');
    expect(resolveBranch('الفرع 271')?.id).toBe('branch-271');
    expect(resolveBranch('فرع المخابرات الجوية في حرستا')?.id).toBe('afi-harasta');
    expect(resolveBranch('الفيحاء')?.id).toBe('ps-fayha');
    expect(resolveBranch('سجن دمشق المركزي (عدرا)')?.id).toBe('adra');
    expect(resolveBranch('Renseignement militaire')?.id).toBe('agency-military-intelligence');
    expect(resolveBranch('الجوية')?.id).toBe('agency-air-force-intelligence');
    expect(resolveBranch('Sûreté de l’État')?.id).toBe('agency-general-intelligence');
  });

  it('nests a branch under its agency, never under another agency nor beside a sister branch', () => {
    const unit = (text: string) => resolveBranch(text) as Branch;
    const mezzeh = unit('فرع التحقيق في المخابرات الجوية - مطار المزة');
    expect(unitsAbove(mezzeh).map((b) => b.id)).toEqual(['agency-air-force-intelligence']);
    expect(branchesNest(unit('الجوية'), mezzeh)).toBe(true);
    expect(branchesNest(mezzeh, unit('الجوية'))).toBe(true);
    expect(branchesNest(unit('الجوية'), unit('215'))).toBe(false);
    // Numbers are given per branch: two branches of Military Intelligence do not nest.
    expect(branchesNest(unit('215'), unit('227'))).toBe(false);
    expect(branchesNest(unit('227'), unit('فرع المنطقة 227'))).toBe(true);
  });

  it('reads an agency written with one of its branch numbers as that branch', () => {
    expect(resolveBranch('فرع أمن الدولة 251')?.id).toBe('branch-251');
    expect(resolveBranch('Military Intelligence Branch 215')?.id).toBe('branch-215');
    // The number of another agency's branch is not this agency's.
    expect(resolveBranch('فرع أمن الدولة 235')).toBeUndefined();
  });

  it('reads a unit past one slip of typing or scanning, but never past a different number', () => {
    expect(resolveBranch('فرع المخابرت الجوية في حلب')?.id).toBe('afi-aleppo');
    expect(resolveBranch('فرع الأمن العكسري في حمص')?.id).toBe('branch-261');
    expect(resolveBranch('الرع 245')?.id).toBe('branch-245');
    expect(resolveBranch('فرع المنطق 227')?.id).toBe('branch-227');
    expect(resolveBranch('Saydnaya Militray Prison')?.id).toBe('saydnaya');
    expect(resolveBranch('الفرع 244')).toBeUndefined();
    expect(resolveBranch('فرع الأمن العسكري في حلبب حمص')).toBeUndefined();
  });

  it("reads a place with words naming its kind, in parts, or as a city's countryside", () => {
    expect(resolveGovernorate('محافظة درعا')?.id).toBe('daraa');
    expect(resolveGovernorate('Hama Province')?.id).toBe('hama');
    expect(resolveGovernorate('ريف حلب')?.id).toBe('aleppo');
    expect(resolveGovernorate('داريا، ريف دمشق')?.id).toBe('rif-dimashq');
    expect(resolveTown('بلدة داريا')?.id).toBe('daraya');
    expect(resolveTown('Daraya (Rif Dimashq)')?.id).toBe('daraya');
    expect(resolveTown('حي بابا عمرو')?.id).toBe('bab-amr');
    // A governorate's name is no town's, and a word alone is no place.
    expect(resolveTown('محافظة درعا')).toBeUndefined();
    expect(resolveTown('مدينة')).toBeUndefined();
  });

  it('reads a unit written in parts as the most specific one, and none when the parts name units apart', () => {
    expect(resolveBranch('Military Intelligence - Palestine Branch')?.id).toBe('branch-235');
    expect(resolveBranch('Palestine branch, Damascus')?.id).toBe('branch-235');
    expect(resolveBranch('فرع فلسطين رقم 235')?.id).toBe('branch-235');
    expect(resolveBranch('فرع المداهمة، صيدنايا')).toBeUndefined();
  });
});
