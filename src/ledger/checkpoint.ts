import { type Hash, hashSize } from './hash.js';

/**
 * Checkpoints per c2sp.org/tlog-checkpoint: the note text `<origin>\n<size>\n<base64 root>\n`, optionally followed
 * by extension lines (athar writes none).
 */
export interface Checkpoint {
  origin: string;
  size: number;
  root: Hash;
  extensions: string[];
}

export function formatCheckpoint(
  checkpoint: Omit<Checkpoint, 'extensions'> & { extensions?: string[] },
): string {
  const lines = [
    checkpoint.origin,
    String(checkpoint.size),
    Buffer.from(checkpoint.root).toString('base64'),
    ...(checkpoint.extensions ?? []),
  ];
  return `${lines.join('\n')}\n`;
}

export type ParsedCheckpoint = { ok: true; checkpoint: Checkpoint } | { ok: false; detail: string };

/** Parses checkpoint note text strictly (no leading zeros, canonical base64 of 32 bytes, no empty lines). */
export function parseCheckpoint(text: string): ParsedCheckpoint {
  if (!text.endsWith('\n')) return { ok: false, detail: 'checkpoint text must end in a newline' };
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) return { ok: false, detail: 'checkpoint needs origin, size and root lines' };
  const [origin, size, root, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin.length === 0) return { ok: false, detail: 'empty origin line' };
  if (!/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size))) {
    return { ok: false, detail: `tree size ${JSON.stringify(size)} is not a decimal without leading zeros` };
  }
  const hash = /^[A-Za-z0-9+/]+={0,2}$/.test(root) ? Buffer.from(root, 'base64') : undefined;
  if (!hash || hash.length !== hashSize || hash.toString('base64') !== root) {
    return { ok: false, detail: `root hash ${JSON.stringify(root)} is not base64 of 32 bytes` };
  }
  if (extensions.some((line) => line.length === 0)) return { ok: false, detail: 'empty extension line' };
  return { ok: true, checkpoint: { origin, size: Number(size), root: hash, extensions } };
}
