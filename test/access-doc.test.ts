import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signInLimits } from '../src/access/account-rules.js';
import { policySentences } from '../src/access/policies.js';

const doc = fs.readFileSync(path.resolve(import.meta.dirname, '..', 'docs', 'access.md'), 'utf8');

describe('docs/access.md', () => {
  it('states the policy exactly as the code grants it, one line per role', () => {
    const lines = new Set(doc.split('\n').map((l) => l.replace(/^- /, '').trim()));
    for (const sentence of policySentences()) expect(lines, sentence).toContain(sentence);
  });

  it('quotes the sign-in limits the code enforces', () => {
    // Table cells, whatever padding the formatter gives them.
    const cells = doc.split('\n').map((l) => l.split('|').map((c) => c.trim()));
    const row = (label: string) => cells.find((c) => c[1] === label)?.[2] ?? '';
    const window = (ms: number) => `per fixed ${ms / 60_000}-minute window`;
    const { perAddress, perUsername, lockAfter, lockMs } = signInLimits;
    expect(row('sign-in attempts per client address')).toBe(
      `${perAddress.max} ${window(perAddress.windowMs)}`,
    );
    expect(row('sign-in attempts per username (known or not)')).toBe(
      `${perUsername.max} ${window(perUsername.windowMs)}`,
    );
    expect(row('consecutive failures that lock an account')).toMatch(new RegExp(`^${lockAfter} `));
    expect(row('lockout')).toMatch(new RegExp(`^${lockMs / 60_000} minutes`));
  });
});
