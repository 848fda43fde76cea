import { describe, expect, it } from 'vitest';
import {
  canonicalReference,
  canonicalSecret,
  caseAlphabet,
  newCaseReference,
  newCaseSecret,
} from './case-codes.js';

describe('case references and secrets', () => {
  it('draw from an alphabet without look-alikes, in groups of four', () => {
    expect(caseAlphabet).not.toMatch(/[01ILO]/);
    expect(new Set(caseAlphabet).size).toBe(caseAlphabet.length);
    for (let i = 0; i < 200; i++) {
      expect(newCaseReference()).toMatch(/^ATH-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
      expect(newCaseSecret()).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){4}$/);
    }
  });

  it('give a secret of at least 80 bits', () => {
    expect(20 * Math.log2(caseAlphabet.length)).toBeGreaterThanOrEqual(80);
  });

  it('do not repeat', () => {
    const seen = new Set(Array.from({ length: 5000 }, newCaseReference));
    expect(seen.size).toBe(5000);
  });

  it('read back what a family types: any case, spaces or no dashes, full-width letters', () => {
    expect(canonicalReference('ath 7k3m q9xd')).toBe('ATH-7K3M-Q9XD');
    expect(canonicalReference('7K3MQ9XD')).toBe('ATH-7K3M-Q9XD');
    expect(canonicalReference('ＡＴＨ－７Ｋ３Ｍ－Ｑ９ＸＤ')).toBe('ATH-7K3M-Q9XD');
    expect(canonicalSecret('abcd efgh-jkmn pqrs tuvw')).toBe('ABCD-EFGH-JKMN-PQRS-TUVW');
    expect(canonicalReference('short')).toBe('SHORT');
  });
});
