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
    const minutes = (ms: number) => `${ms / 60_000}-minute window`;
    expect(doc).toContain(
      `| ${signInLimits.perAddress.max} per fixed ${minutes(signInLimits.perAddress.windowMs)} |`,
    );
    expect(doc).toContain(
      `| ${signInLimits.perUsername.max} per fixed ${minutes(signInLimits.perUsername.windowMs)} |`,
    );
    expect(doc).toContain(`| ${signInLimits.lockAfter} (wrong password`);
    expect(doc).toContain(`| ${signInLimits.lockMs / 60_000} minutes;`);
  });
});
