/**
 * BagIt 1.0 (RFC 8493) as text: the declaration, manifests, bag-info and the Payload-Oxum, written and read
 * strictly. No I/O here: bag-writer.ts and bag-check.ts drive a sink or a reader through these.
 */

export const bagitVersion = '1.0';
/** bagit.txt, exactly (RFC 8493 §2.1.1): written last, so a bag whose build was cut short is never complete. */
export const bagitDeclaration = `BagIt-Version: ${bagitVersion}\nTag-File-Character-Encoding: UTF-8\n`;
export const payloadManifest = 'manifest-sha256.txt';
export const tagManifest = 'tagmanifest-sha256.txt';
export const bagInfoFile = 'bag-info.txt';
export const declarationFile = 'bagit.txt';
export const payloadDir = 'data';

/** A problem with a bag's text files, naming the file and line. */
export class BagFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BagFormatError';
  }
}

/**
 * A path as manifests write it (§2.1.3): relative, `/`-separated, with `%`, CR and LF percent-encoded so that a
 * name cannot break a line.
 */
export function encodeBagPath(path: string): string {
  return path.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function decodeBagPath(text: string): string {
  return text.replace(/%0A/gi, '\n').replace(/%0D/gi, '\r').replace(/%25/g, '%');
}

/**
 * Whether a bag-relative path is one a bag may hold: relative, no `.` or `..` element, no empty element, no
 * backslash (RFC 8493 §2.1.3 and §6.2: a manifest must not point outside the bag).
 */
export function isSafeBagPath(path: string): boolean {
  if (path.length === 0 || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

export interface ManifestLine {
  sha256: string;
  path: string;
}

/** Byte order of the UTF-8 paths (what `sort` gives with LC_ALL=C): one bag always writes the same manifest. */
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** `<sha256>  <path>` lines, sorted by path: the form `sha256sum -c` reads too (two spaces: text mode). */
export function formatManifest(lines: readonly ManifestLine[]): string {
  return [...lines]
    .sort((a, b) => comparePaths(a.path, b.path))
    .map((l) => `${l.sha256}  ${encodeBagPath(l.path)}\n`)
    .join('');
}

/** Reads a manifest (§2.1.3): a checksum, whitespace, a path per line; a repeated path is an error. */
export function parseManifest(text: string, file: string): ManifestLine[] {
  const out: ManifestLine[] = [];
  const seen = new Set<string>();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const match = /^([0-9a-fA-F]{64})[ \t]+\*?(.+)$/.exec(line);
    if (!match)
      throw new BagFormatError(`${file} line ${i + 1}: not "<sha256> <path>": ${JSON.stringify(line)}`);
    const path = decodeBagPath(match[2] as string);
    if (!isSafeBagPath(path))
      throw new BagFormatError(`${file} line ${i + 1}: unsafe path ${JSON.stringify(path)}`);
    if (seen.has(path)) throw new BagFormatError(`${file} line ${i + 1}: ${path} is listed twice`);
    seen.add(path);
    out.push({ sha256: (match[1] as string).toLowerCase(), path });
  });
  return out;
}

/** One bag-info element; labels may repeat (§2.2.2), so the file is a list, not a map. */
export interface BagInfoElement {
  label: string;
  value: string;
}

/** `Label: value` lines; a value with line breaks continues on lines that start with a space (§2.2.2). */
export function formatBagInfo(elements: readonly BagInfoElement[]): string {
  return elements
    .map(({ label, value }) => {
      if (!/^[^:\s][^:\r\n]*$/.test(label))
        throw new BagFormatError(`bag-info label ${JSON.stringify(label)}`);
      const lines = value.replace(/\r\n?/g, '\n').split('\n');
      return `${label}: ${lines.join('\n  ')}\n`;
    })
    .join('');
}

export function parseBagInfo(text: string, file = bagInfoFile): BagInfoElement[] {
  const out: BagInfoElement[] = [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, i) => {
    if (/^[ \t]/.test(line)) {
      const last = out.at(-1);
      if (!last) throw new BagFormatError(`${file} line ${i + 1}: a continuation line comes first`);
      last.value += `\n${line.trim()}`;
      return;
    }
    const colon = line.indexOf(':');
    if (colon <= 0)
      throw new BagFormatError(`${file} line ${i + 1}: not "Label: value": ${JSON.stringify(line)}`);
    out.push({ label: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
  });
  return out;
}

/** The first value of a label, compared case-insensitively as §2.2.2 asks. */
export function bagInfoValue(elements: readonly BagInfoElement[], label: string): string | undefined {
  return elements.find((e) => e.label.toLowerCase() === label.toLowerCase())?.value;
}

/** Payload-Oxum: `<octets>.<streams>` of the payload (§2.2.2). */
export function formatOxum(bytes: number, files: number): string {
  return `${bytes}.${files}`;
}

export function parseOxum(text: string): { bytes: number; files: number } | undefined {
  const match = /^(\d+)\.(\d+)$/.exec(text.trim());
  return match ? { bytes: Number(match[1]), files: Number(match[2]) } : undefined;
}

/** Bag-Size, for people: "2.1 GB" (decimal units, one decimal). */
export function humanSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Reads bagit.txt: version 1.0 (0.97 accepted for reading), UTF-8 tag files. */
export function parseDeclaration(text: string): { version: string } {
  const info = parseBagInfo(text.replace(/^\ufeff/, ''), declarationFile);
  const version = bagInfoValue(info, 'BagIt-Version');
  const encoding = bagInfoValue(info, 'Tag-File-Character-Encoding');
  if (!version || !/^\d+\.\d+$/.test(version))
    throw new BagFormatError(`${declarationFile}: no BagIt-Version`);
  if (encoding?.toUpperCase() !== 'UTF-8') {
    throw new BagFormatError(
      `${declarationFile}: Tag-File-Character-Encoding is ${encoding ?? 'missing'}, not UTF-8`,
    );
  }
  return { version };
}
