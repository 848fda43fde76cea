import type fs from 'node:fs';
import fsp from 'node:fs/promises';

/** A regular file found under a root, by its exact path bytes. */
export interface FoundFile {
  path: Buffer;
  size: number;
  modifiedMs: number;
}

/** Something under a root that is not ingested, and why. */
export interface WalkProblem {
  path: Buffer;
  outcome: 'refused' | 'skipped';
  reason: string;
}

export interface WalkResult {
  /** The roots as resolved (real paths), in the order given. */
  roots: Buffer[];
  files: FoundFile[];
  problems: WalkProblem[];
}

export class WalkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WalkError';
  }
}

const slash = 0x2f;

/**
 * Lists every regular file under the given files and folders, by path bytes (names need not be UTF-8), in a
 * stable order. Symbolic links are never followed: one pointing outside the roots is refused, one pointing
 * inside is skipped (its target is listed where it lives). Roots themselves are resolved, so a root given
 * through a link is walked at its real place. A root that does not exist is a WalkError.
 */
export async function walkRoots(paths: readonly string[]): Promise<WalkResult> {
  const roots: Buffer[] = [];
  for (const p of paths) {
    try {
      roots.push(await fsp.realpath(p, { encoding: 'buffer' }));
    } catch (error) {
      // Resolving a path, too many links means they lead round in a circle.
      if ((error as NodeJS.ErrnoException).code === 'ELOOP')
        throw new WalkError(`${p}: is a symbolic link loop (it leads back to itself)`);
      throw new WalkError(`${p}: ${describeFsError(error)}`);
    }
  }
  const result: WalkResult = { roots, files: [], problems: [] };
  const seen = new Set<string>();
  const inside = (target: Buffer) => roots.some((root) => isWithin(target, root));
  for (const root of roots) {
    const stat = await fsp.lstat(root);
    if (stat.isDirectory()) await walkFolder(root, result, seen, inside);
    else await consider(root, stat, result, seen, inside);
  }
  return result;
}

async function walkFolder(
  root: Buffer,
  result: WalkResult,
  seen: Set<string>,
  inside: (target: Buffer) => boolean,
): Promise<void> {
  const pending: Buffer[] = [root];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    let entries: fs.Dirent<Buffer>[];
    try {
      entries = await fsp.readdir(folder, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      result.problems.push({
        path: folder,
        outcome: 'refused',
        reason: `folder cannot be read: ${describeFsError(error)}`,
      });
      continue;
    }
    entries.sort((a, b) => Buffer.compare(a.name, b.name));
    const children: Buffer[] = [];
    const stats = await Promise.all(
      entries.map(async (entry) => {
        const path = join(folder, entry.name);
        try {
          return { path, stat: await fsp.lstat(path) };
        } catch (error) {
          return { path, error };
        }
      }),
    );
    for (const item of stats) {
      if ('error' in item) {
        result.problems.push({ path: item.path, outcome: 'refused', reason: describeFsError(item.error) });
      } else if (item.stat.isDirectory()) {
        children.push(item.path);
      } else {
        await consider(item.path, item.stat, result, seen, inside);
      }
    }
    // Depth first, in name order.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
}

async function consider(
  path: Buffer,
  stat: fs.Stats,
  result: WalkResult,
  seen: Set<string>,
  inside: (target: Buffer) => boolean,
): Promise<void> {
  const key = path.toString('latin1');
  if (seen.has(key)) return;
  seen.add(key);
  if (stat.isFile()) {
    result.files.push({ path, size: stat.size, modifiedMs: stat.mtimeMs });
  } else if (stat.isSymbolicLink()) {
    let target: Buffer;
    try {
      target = await fsp.realpath(path, { encoding: 'buffer' });
    } catch (error) {
      result.problems.push({
        path,
        outcome: 'refused',
        reason:
          (error as NodeJS.ErrnoException).code === 'ELOOP'
            ? 'symbolic link loop (it leads back to itself), not followed'
            : `broken symbolic link (${describeFsError(error)})`,
      });
      return;
    }
    if (inside(target)) {
      result.problems.push({
        path,
        outcome: 'skipped',
        reason: 'symbolic link, not followed (its target is inside the given folders)',
      });
    } else {
      result.problems.push({
        path,
        outcome: 'refused',
        reason: `symbolic link to ${target.toString()} outside the given folders, not followed`,
      });
    }
  } else {
    result.problems.push({ path, outcome: 'refused', reason: `not a regular file (${kindOf(stat)})` });
  }
}

function kindOf(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'named pipe';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  return 'unknown kind';
}

export function join(folder: Buffer, name: Buffer): Buffer {
  return folder[folder.length - 1] === slash
    ? Buffer.concat([folder, name])
    : Buffer.concat([folder, Buffer.from([slash]), name]);
}

/** Whether `path` is `root` or lies under it (byte-wise, so a sibling such as /a/bc is not under /a/b). */
export function isWithin(path: Buffer, root: Buffer): boolean {
  if (path.equals(root)) return true;
  const prefix = root[root.length - 1] === slash ? root : Buffer.concat([root, Buffer.from([slash])]);
  return path.length > prefix.length && path.subarray(0, prefix.length).equals(prefix);
}

/** The last component of a path. */
export function baseName(path: Buffer): Buffer {
  const i = path.lastIndexOf(slash);
  return i < 0 ? path : path.subarray(i + 1);
}

export function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return 'does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'is a symbolic link (not followed)';
    case 'EISDIR':
      return 'is a folder';
    case 'EIO':
      return 'input/output error (damaged medium?)';
    default:
      return e.code ? `${e.code}: ${e.message}` : String(e?.message ?? error);
  }
}
