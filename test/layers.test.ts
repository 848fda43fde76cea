import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The arrows of the house (docs/architecture.md), as data. A layer may import itself and the layers listed for it;
 * `typesFrom` layers only with `import type` (their types describe rows and views; their code stays below).
 * Tests (`*.test.ts`) may reach any layer to set up what they check, so they are not walked.
 *
 * - domain: the shared vocabulary and rules; imports nothing of athar.
 * - util: ids, the version, the worker bootstrap.
 * - cores: pure algorithms (names, linkage, ledger, evidence, gazetteer, access, estimate, ocr, exchange), each
 *   with its listed neighbours.
 * - store and blobs: I/O behind repositories and the blob store.
 * - services: the use cases; everything below.
 * - server and cli: services, domain, config, access and the cores; the store's types only. The CLI starts the
 *   server (`athar serve`), the one arrow between the two.
 */
const below = ['domain', 'util'];
const cores: Record<string, string[]> = {
  names: [],
  gazetteer: ['names'],
  linkage: ['names', 'gazetteer'],
  ledger: [],
  evidence: [],
  access: [],
  estimate: [],
  ocr: ['evidence', 'names', 'linkage'],
  exchange: ['ledger'],
};
const coreNames = Object.keys(cores);

const allowed: Record<string, { imports: string[]; typesFrom?: string[] }> = {
  domain: { imports: [] },
  util: { imports: [] },
  config: { imports: [...below] },
  ...Object.fromEntries(
    Object.entries(cores).map(([core, neighbours]) => [core, { imports: [...below, ...neighbours] }]),
  ),
  store: { imports: [...below, 'config', ...coreNames] },
  blobs: { imports: [...below, 'config', ...coreNames] },
  services: { imports: [...below, 'config', ...coreNames, 'store', 'blobs'] },
  server: { imports: [...below, 'config', ...coreNames, 'services'], typesFrom: ['store', 'blobs'] },
  cli: { imports: [...below, 'config', ...coreNames, 'services', 'server'], typesFrom: ['store', 'blobs'] },
};

const src = path.resolve(import.meta.dirname, '..', 'src');

/** The layer a file of src/ belongs to. */
function layerOf(file: string): string {
  const rel = path.relative(src, file).split(path.sep);
  if (rel.length === 1) return 'util';
  return rel[0] as string;
}

interface Arrow {
  file: string;
  line: number;
  target: string;
  typeOnly: boolean;
}

/** Every relative import of a file: static, re-exports, `await import(…)` and `import('…')` in types. */
function importsOf(file: string, text: string): Arrow[] {
  const arrows: Arrow[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const stat = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]/gm;
  for (const m of text.matchAll(stat)) {
    const names = m[3] ?? '';
    const allTypes =
      m[2] !== undefined ||
      (/^\{[\s\S]*\}$/.test(names.trim()) &&
        names
          .replace(/[{}]/g, '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .every((s) => s.startsWith('type ')));
    arrows.push({ file, line: lineAt(m.index), target: m[4] as string, typeOnly: allTypes });
  }
  const bare = /^\s*import\s+['"](\.[^'"]+)['"]/gm;
  for (const m of text.matchAll(bare)) {
    arrows.push({ file, line: lineAt(m.index), target: m[1] as string, typeOnly: false });
  }
  const dynamic = /(await\s+)?import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(dynamic)) {
    arrows.push({ file, line: lineAt(m.index), target: m[2] as string, typeOnly: m[1] === undefined });
  }
  return arrows;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(p);
  }
  return out;
}

function violations(): string[] {
  const found: string[] = [];
  for (const file of walk(src)) {
    const from = layerOf(file);
    const rule = allowed[from];
    const text = fs.readFileSync(file, 'utf8');
    for (const arrow of importsOf(file, text)) {
      const resolved = path.resolve(path.dirname(file), arrow.target);
      if (!resolved.startsWith(src + path.sep)) continue;
      const to = layerOf(resolved);
      const where = `${path.relative(path.dirname(src), file)}:${arrow.line} → ${arrow.target}`;
      if (!rule) {
        found.push(`${where} (the layer ${from} is not in the table)`);
        continue;
      }
      if (to === from || rule.imports.includes(to)) continue;
      if (arrow.typeOnly && rule.typesFrom?.includes(to)) continue;
      found.push(`${where} (${from} may not import ${arrow.typeOnly ? 'types of ' : ''}${to})`);
    }
  }
  return found;
}

describe('the layers', () => {
  it('reads static, type-only, re-exported and dynamic imports with their lines', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "import { type C, type D } from './c.js';",
      "export { e } from './e.js';",
      "const f = await import('../f.js');",
      "type G = import('./g.js').G;",
    ].join('\n');
    expect(importsOf('x.ts', text).map((a) => [a.line, a.target, a.typeOnly])).toEqual([
      [1, './a.js', false],
      [2, '../b.js', true],
      [3, './c.js', true],
      [4, './e.js', false],
      [5, '../f.js', false],
      [6, './g.js', true],
    ]);
  });

  it('point down only: every import in src/ follows the table at the top of this file', () => {
    expect(violations()).toEqual([]);
  });
});
