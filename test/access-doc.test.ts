import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signInBackoff } from '../src/access/account-rules.js';
import { policySentences } from '../src/access/policies.js';

const doc = fs.readFileSync(path.resolve(import.meta.dirname, '..', 'docs', 'access.md'), 'utf8');

describe('docs/access.md', () => {
  it('states the policy exactly as the code grants it, one line per role', () => {
    const lines = new Set(doc.split('\n').map((l) => l.replace(/^- /, '').trim()));
    for (const sentence of policySentences()) expect(lines, sentence).toContain(sentence);
  });

  it('quotes the sign-in back-off the code enforces', () => {
    // Table cells, whatever padding the formatter gives them.
    const cells = doc.split('\n').map((l) => l.split('|').map((c) => c.trim()));
    const row = (label: string) => cells.find((c) => c[1] === label)?.[2] ?? '';
    const wait = (rule: { free: number; firstWaitMs: number; maxWaitMs: number }) =>
      `${rule.free}, then waits of ${rule.firstWaitMs / 1000} s doubling up to ${rule.maxWaitMs / 60_000} minutes`;
    const { perAddress, perUsername } = signInBackoff;
    expect(row('free failures per client address')).toBe(wait(perAddress));
    expect(row('free failures per username (known or not)')).toBe(wait(perUsername));
    expect(perAddress.forgetMs).toBe(perUsername.forgetMs);
    expect(row('a count is forgotten')).toBe(
      `${perUsername.forgetMs / 3_600_000} hours after its last failure`,
    );
    expect(doc).not.toContain('423 locked');
  });
});
