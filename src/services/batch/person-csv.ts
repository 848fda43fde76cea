import fs from 'node:fs';
import path from 'node:path';
import {
  type PersonRecordColumn,
  type PersonRecordFields,
  personRecordColumns,
} from '../../domain/person-record.js';
import { firstInvalidUtf8, lineAt } from '../../exchange/text-decode.js';

/** A problem with an input file, naming the file and line. */
export class CsvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvError';
  }
}

export interface CsvRecord {
  /** The record's id: its record_id, or its data row number when the file has no record_id column. */
  id: string;
  /** 1-based line of the row's start in the file. */
  line: number;
  /** 1-based data row (within the segment read, see `CsvSegment`). */
  row: number;
  /** The id is the row number, not a record_id (a segment's ids are renumbered by whoever joins the segments). */
  derivedId: boolean;
  fields: PersonRecordFields;
}

/** A byte range of a CSV file that starts and ends on row boundaries, read with the file's header. */
export interface CsvSegment {
  start: number;
  end: number;
  /** The file's header line. */
  headerText: string;
  /** Line number of the segment's first line. */
  firstLine: number;
}

export interface CsvFileSummary {
  file: string;
  rows: number;
  /** Header columns that are not person-record columns (kept out of linkage, reported). */
  ignoredColumns: string[];
}

/**
 * Splits CSV text into rows (RFC 4180: quoted fields may hold commas, quotes doubled, and newlines). Fed chunk by
 * chunk; rows without a quote take a fast path (indexOf and split), which is nearly every row of a person list.
 */
export class CsvRowSplitter {
  private pending = '';
  /** Line number of the first line in `pending`. */
  line = 1;

  constructor(private readonly file: string) {}

  /** Rows completed by this chunk, each with the line it started on. */
  push(chunk: string, onRow: (cells: string[], line: number) => void): void {
    const text = this.pending + chunk;
    let pos = 0;
    let quote = text.indexOf('"');
    for (;;) {
      const nl = text.indexOf('\n', pos);
      if (nl < 0) break;
      if (quote >= 0 && quote < pos) quote = text.indexOf('"', pos);
      if (quote < 0 || quote > nl) {
        const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        onRow(text.slice(pos, end).split(','), this.line);
        this.line++;
        pos = nl + 1;
        continue;
      }
      const parsed = this.quoted(text, pos);
      if (!parsed) break;
      onRow(parsed.cells, this.line);
      this.line += parsed.lines;
      pos = parsed.next;
    }
    this.pending = text.slice(pos);
  }

  /** The last row, when the file does not end with a newline; a quote left open is an error. */
  end(onRow: (cells: string[], line: number) => void): void {
    if (this.pending === '') return;
    this.push('\n', onRow);
    if (this.pending !== '') {
      throw new CsvError(
        `${this.file} line ${this.line}: a quoted field is not closed before the end of the file`,
      );
    }
  }

  /** One row that contains quotes, starting at `start`; undefined when the row continues past the text. */
  private quoted(text: string, start: number): { cells: string[]; next: number; lines: number } | undefined {
    const cells: string[] = [];
    let cell = '';
    let i = start;
    let lines = 1;
    const n = text.length;
    while (i < n) {
      const ch = text.charCodeAt(i);
      if (ch === 34 && cell === '' && (i === start || text.charCodeAt(i - 1) === 44)) {
        // Quoted field.
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) return undefined;
          const piece = text.slice(i, q);
          for (let k = 0; k < piece.length; k++) if (piece.charCodeAt(k) === 10) lines++;
          cell += piece;
          if (text.charCodeAt(q + 1) === 34) {
            cell += '"';
            i = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        continue;
      }
      if (ch === 44) {
        cells.push(cell);
        cell = '';
        i++;
        continue;
      }
      if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) === 10)) {
        cells.push(cell);
        return { cells, next: ch === 13 ? i + 2 : i + 1, lines };
      }
      if (ch === 13 && i + 1 === n) return undefined;
      cell += text[i];
      i++;
    }
    return undefined;
  }
}

const known = new Set<string>(personRecordColumns);

function blankFields(): PersonRecordFields {
  return {
    record_id: undefined,
    source: undefined,
    full_name: undefined,
    first_name: undefined,
    father_name: undefined,
    grandfather_name: undefined,
    family_name: undefined,
    mother_name: undefined,
    sex: undefined,
    birth_date: undefined,
    birth_year: undefined,
    governorate: undefined,
    place_of_origin: undefined,
    arrest_date: undefined,
    arresting_branch: undefined,
    detainee_number: undefined,
    death_date: undefined,
    forensic_report_number: undefined,
    notes: undefined,
  };
}

/**
 * Streams a person-record CSV (design.md): UTF-8 with or without BOM, a header naming any subset of the columns (case
 * and surrounding spaces ignored). Rows shorter than the header are padded; longer ones stop the read with the line
 * named. Without a record_id column, the data row number is the id (prefixed with the file's name when
 * `prefixRowIds`). Without a source column, the file's name is the source.
 */
export async function readPersonCsv(
  file: string,
  onRecord: (record: CsvRecord) => void,
  options: { prefixRowIds?: boolean; segment?: CsvSegment } = {},
): Promise<CsvFileSummary> {
  const name = path.basename(file);
  const splitter = new CsvRowSplitter(file);
  // Strict, as the import reader (issue 21): a byte that is not UTF-8, a NUL or a stray control character stops the
  // read naming file, line and byte, instead of turning into U+FFFD or reaching the database.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let header: (PersonRecordColumn | undefined)[] | undefined;
  let idColumn = -1;
  let sourceColumn = -1;
  const ignoredColumns: string[] = [];
  let rows = 0;
  const onRow = (cells: string[], line: number) => {
    if (!header) {
      if (cells.length > 0) cells[0] = (cells[0] as string).replace(/^\ufeff/, '');
      header = cells.map((c) => {
        const column = c.trim().toLowerCase();
        if (known.has(column)) return column as PersonRecordColumn;
        if (column !== '') ignoredColumns.push(c.trim());
        return undefined;
      });
      const seen = new Set<string>();
      for (const column of header) {
        if (column && seen.has(column))
          throw new CsvError(`${file} line ${line}: column ${column} appears twice`);
        if (column) seen.add(column);
      }
      idColumn = header.indexOf('record_id');
      sourceColumn = header.indexOf('source');
      return;
    }
    if (cells.length === 1 && cells[0] === '') return;
    if (cells.length > header.length) {
      throw new CsvError(
        `${file} line ${line}: ${cells.length} fields, but the header names ${header.length}`,
      );
    }
    rows++;
    // Every row gets every column (undefined when absent), in one order: one object shape for all rows.
    const fields = blankFields();
    for (let c = 0; c < cells.length; c++) {
      const column = header[c];
      const value = cells[c] as string;
      if (column && value !== '') fields[column] = value;
    }
    let id = idColumn >= 0 ? (cells[idColumn] ?? '').trim() : '';
    const derivedId = id === '';
    if (derivedId) id = options.prefixRowIds ? `${name}:${rows}` : String(rows);
    if (sourceColumn < 0 || !fields.source?.trim()) fields.source = name;
    onRecord({ id, line, row: rows, derivedId, fields });
  };
  const segment = options.segment;
  if (segment) {
    splitter.push(`${segment.headerText}\n`, onRow);
    splitter.line = segment.firstLine;
  }
  const stream = fs.createReadStream(
    file,
    segment
      ? { highWaterMark: 1 << 20, start: segment.start, end: segment.end - 1 }
      : { highWaterMark: 1 << 20 },
  );
  const start = segment?.start ?? 0;
  let offset = start;
  const decode = (chunk: Buffer | undefined): string => {
    let text: string;
    try {
      text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw badBytes(file, start, 'not valid UTF-8');
    }
    const control = badControl.exec(text);
    if (control) {
      const code = text.charCodeAt(control.index);
      const at = offset + Buffer.byteLength(text.slice(0, control.index), 'utf8');
      throw badBytes(
        file,
        start,
        code === 0 ? 'a NUL byte' : `control byte 0x${code.toString(16).padStart(2, '0')}`,
        at,
      );
    }
    if (chunk) offset += chunk.length;
    return text;
  };
  try {
    for await (const chunk of stream) splitter.push(decode(chunk as Buffer), onRow);
    splitter.push(decode(undefined), onRow);
    splitter.end(onRow);
  } catch (error) {
    if (error instanceof BadBytes) throw await error.describe();
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new CsvError(`${file}: no such file`);
    if (e.code === 'EISDIR') throw new CsvError(`${file}: is a folder, not a CSV file`);
    throw error;
  }
  return { file, rows, ignoredColumns };
}

/** Control characters no text file holds: NUL and the C0 controls other than tab, LF, FF and CR, and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const badControl = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/;

/** Bytes the strict reader refused; `describe` finds the byte and its line (read again, on this error path only). */
class BadBytes extends Error {
  constructor(
    readonly file: string,
    readonly from: number,
    readonly why: string,
    readonly at?: number,
  ) {
    super(why);
  }

  async describe(): Promise<CsvError> {
    const bytes = fs.readFileSync(this.file);
    let at = this.at;
    let why = this.why;
    if (at === undefined) {
      at = this.from + Math.max(0, firstInvalidUtf8(bytes.subarray(this.from)));
      why = `byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} is not valid UTF-8`;
    }
    return new CsvError(
      `${this.file}: byte offset ${at}: ${why} (line ${lineAt(bytes, at)}); athar link and match read UTF-8 text only (athar import also reads UTF-16 and Windows-1256)`,
    );
  }
}

const badBytes = (file: string, from: number, why: string, at?: number) => new BadBytes(file, from, why, at);

/**
 * Splits a CSV file into `parts` byte ranges on row boundaries, for reading in parallel. A newline is a row boundary
 * when an even number of quote characters precede it (quotes inside quoted fields are doubled, so parity tells
 * whether a position is inside one). Small files, or files that cannot be split, give one segment.
 */
export async function csvSegments(
  file: string,
  parts: number,
  minBytes = 1 << 22,
): Promise<CsvSegment[] | undefined> {
  const size = fs.statSync(file).size;
  if (parts < 2 || size < minBytes) return undefined;
  const handle = await fs.promises.open(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 22);
    let quotes = 0;
    let lines = 0;
    let headerEnd = -1;
    let headerText = '';
    const boundaries: { at: number; line: number }[] = [];
    let target = Math.floor(size / parts);
    let offset = 0;
    while (offset < size && boundaries.length < parts - 1) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
      if (bytesRead === 0) break;
      for (let i = 0; i < bytesRead; i++) {
        const byte = chunk[i] as number;
        if (byte === 34) quotes++;
        else if (byte === 10) {
          lines++;
          if (quotes % 2 !== 0) continue;
          const at = offset + i + 1;
          if (headerEnd < 0) {
            headerEnd = at;
            const head = Buffer.alloc(at);
            await handle.read(head, 0, at, 0);
            headerText = head.toString('utf8').replace(/\r?\n$/, '');
          } else if (at >= target && at < size) {
            boundaries.push({ at, line: lines + 1 });
            target = Math.floor((size * (boundaries.length + 1)) / parts);
            if (boundaries.length === parts - 1) break;
          }
        }
      }
      offset += bytesRead;
    }
    if (headerEnd < 0 || boundaries.length === 0) return undefined;
    const segments: CsvSegment[] = [];
    let start = headerEnd;
    let firstLine = 2;
    for (const b of boundaries) {
      segments.push({ start, end: b.at, headerText, firstLine });
      start = b.at;
      firstLine = b.line;
    }
    segments.push({ start, end: size, headerText, firstLine });
    return segments;
  } finally {
    await handle.close();
  }
}

/** One CSV field, quoted when it must be. */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Writes CSV lines through a buffer, in large writes; `close` waits until everything is on disk. */
export class CsvWriter {
  private readonly stream: fs.WriteStream;
  private buffer: string[] = [];
  private size = 0;
  private failure: Error | undefined;

  constructor(file: string, header: readonly string[]) {
    this.stream = fs.createWriteStream(file);
    this.stream.on('error', (error) => {
      this.failure = error;
    });
    this.row(header);
  }

  row(cells: readonly (string | number)[]): void {
    const line = `${cells.map(csvField).join(',')}\n`;
    this.buffer.push(line);
    this.size += line.length;
    if (this.size > 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    this.stream.write(this.buffer.join(''));
    this.buffer = [];
    this.size = 0;
  }

  async close(): Promise<void> {
    this.flush();
    await new Promise<void>((resolve, reject) => {
      this.stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
    });
    if (this.failure) throw this.failure;
  }
}
