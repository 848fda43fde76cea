import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { problemCatalogue } from '../src/server/problems.js';

it('docs/api.md lists every problem code with its status, and no other', () => {
  const doc = fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'api.md'), 'utf8');
  const listed = [...doc.matchAll(/^\| `([a-z_]+)` +\| (\d+) +\|/gm)].map((m) => [m[1], Number(m[2])]);
  const catalogue = Object.entries(problemCatalogue).map(([code, entry]) => [code, entry.status]);
  expect(listed.sort()).toEqual(catalogue.sort());
});
