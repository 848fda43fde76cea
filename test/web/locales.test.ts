import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ar } from '../../web/src/locales/ar.js';

const root = path.resolve(import.meta.dirname, '..', '..', 'web', 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** Every English key the interface uses: calls of t and msg with a literal string (single-quoted, as biome writes). */
function usedKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  const pattern = /\b(?:t|msg)\(\s*'((?:[^'\\]|\\.)*)'/g;
  for (const file of sourceFiles(root)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(pattern)) {
      const key = (m[1] as string).replace(/\\'/g, "'");
      if (!keys.has(key)) keys.set(key, path.relative(root, file));
    }
  }
  return keys;
}

describe('the Arabic translation', () => {
  const keys = usedKeys();

  it('finds the keys the interface uses', () => {
    expect(keys.size).toBeGreaterThan(150);
    expect(keys.has('Review queue')).toBe(true);
  });

  it('has an Arabic entry for every English key used in web/src', () => {
    const missing = [...keys].filter(([k]) => !(k in ar)).map(([k, file]) => `${file}: ${k}`);
    expect(missing).toEqual([]);
  });

  it('keeps every interpolation placeholder in the Arabic text', () => {
    const broken = Object.entries(ar).filter(([en, text]) => {
      const need = en.match(/{{\w+}}/g) ?? [];
      return need.some((p) => !text.includes(p));
    });
    expect(broken).toEqual([]);
  });

  it('has no Arabic entry that nothing uses', () => {
    expect(Object.keys(ar).filter((k) => !keys.has(k))).toEqual([]);
  });
});
