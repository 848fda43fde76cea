import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { assertionKinds } from '../../domain/case-status.js';
import type { PersonRecordColumn } from '../../domain/person-record.js';
import { guessHeaders, type HeaderGuesses } from '../../exchange/header-guess.js';
import { PfifError, type PfifRecord, readPfif } from '../../exchange/pfif.js';
import { decodeText, EncodingError, type TextEncoding } from '../../exchange/text-decode.js';
import { getMeta, type Store, setMeta } from '../../store/store.js';
import { CsvError, CsvRowSplitter } from '../batch/person-csv.js';
import type { ImportRowItem } from '../imports/record-import.js';
import type { RegistryService } from '../registry/registry.js';

/**
 * The import's front door for the files people have (docs/exchange.md): a CSV in UTF-8 (BOM or not), UTF-16 LE/BE
 * or Windows-1256; an XLSX workbook (first sheet, or --sheet); a PFIF 1.4 document. The whole file is read and
 * decoded first, so a file athar cannot read is refused — naming the file and the byte offset — before any row is
 * written. Headers are guessed (Arabic and English) into a map the user confirms.
 */

export type ImportFileFormat = 'csv' | 'xlsx' | 'pfif';

export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

export interface ImportSource {
  file: string;
  format: ImportFileFormat;
  encoding: TextEncoding | null;
  lineEndings: string | null;
  sheet: string | null;
  header: string[];
  /** CSV: the decoded text, for the CSV reader. */
  text?: string;
  /** XLSX and PFIF: the header, then the rows. */
  rows?: ImportRowItem[];
  /** Data rows, for progress. */
  total: number;
  /** PFIF: the documents' persons with their notes (the notes become claims after the import). */
  pfif?: PfifRecord[];
  guesses: HeaderGuesses;
  /** The first few data rows, as cells in header order: what a preview shows beside each column. */
  samples: string[][];
}

const sampleRows = 3;

function samplesOf(rows: readonly ImportRowItem[]): string[][] {
  const out: string[][] = [];
  for (const item of rows) {
    if ('cells' in item) out.push(item.cells);
    if (out.length === sampleRows) break;
  }
  return out;
}

const zipMagic = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

function formatOf(file: string, bytes: Buffer): ImportFileFormat {
  if (bytes.subarray(0, 4).equals(zipMagic) || /\.xlsx$/i.test(file)) return 'xlsx';
  if (/\.xml$/i.test(file)) return 'pfif';
  const head = bytes
    .subarray(0, 512)
    .toString('latin1')
    .replace(/^\xef\xbb\xbf/, '')
    .trimStart();
  if (head.startsWith('<?xml') || head.startsWith('<pfif')) return 'pfif';
  return 'csv';
}

/** A cell as text: numbers as written, dates as YYYY-MM-DD, rich text and formulas by their text or result. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string };
    if (v.richText) return v.richText.map((r) => r.text).join('');
    if (v.text !== undefined) return cellText(v.text as ExcelJS.CellValue);
    if (v.result !== undefined) return cellText(v.result as ExcelJS.CellValue);
    if (v.error) return '';
    return '';
  }
  return String(value);
}

async function readXlsx(
  file: string,
  bytes: Buffer,
  sheet: string | undefined,
): Promise<{ rows: ImportRowItem[]; sheet: string }> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    throw new ImportFileError(`${file}: not a readable XLSX workbook: ${(error as Error).message}`);
  }
  const sheets = workbook.worksheets;
  if (sheets.length === 0) throw new ImportFileError(`${file}: the workbook has no sheets`);
  let ws: ExcelJS.Worksheet | undefined = sheets[0];
  if (sheet !== undefined) {
    ws = /^[1-9][0-9]*$/.test(sheet) ? sheets[Number(sheet) - 1] : sheets.find((s) => s.name === sheet);
    if (!ws)
      throw new ImportFileError(
        `${file}: no sheet ${JSON.stringify(sheet)} (sheets: ${sheets.map((s) => s.name).join(', ')})`,
      );
  }
  const sheetWs = ws as ExcelJS.Worksheet;
  const out: ImportRowItem[] = [];
  let width = 0;
  let row = 0;
  sheetWs.eachRow({ includeEmpty: false }, (r, rowNumber) => {
    const values = (r.values as ExcelJS.CellValue[]).slice(1).map(cellText);
    if (out.length === 0) {
      width = values.length;
      out.push({ header: values });
      return;
    }
    while (values.length > width && values.at(-1) === '') values.pop();
    if (values.every((v) => v.trim() === '')) return;
    row++;
    out.push({ row, line: rowNumber, cells: values });
  });
  if (out.length === 0) throw new ImportFileError(`${file}: sheet ${sheetWs.name} is empty`);
  return { rows: out, sheet: sheetWs.name };
}

/** PFIF persons as person-record rows; sex other/unknown is left out, contact details never arrive. */
function pfifRows(records: PfifRecord[]): ImportRowItem[] {
  const header = [
    'record_id',
    'source',
    'full_name',
    'first_name',
    'family_name',
    'sex',
    'birth_date',
    'place_of_origin',
    'governorate',
    'notes',
  ];
  const out: ImportRowItem[] = [{ header }];
  records.forEach(({ person: p }, i) => {
    const sex = p.sex === 'male' ? 'm' : p.sex === 'female' ? 'f' : '';
    out.push({
      row: i + 1,
      line: i + 1,
      cells: [
        p.person_record_id ?? '',
        p.source_name ?? '',
        p.full_name ?? '',
        p.given_name ?? '',
        p.family_name ?? '',
        sex,
        p.date_of_birth ?? '',
        p.home_city ?? '',
        p.home_state ?? '',
        p.description ?? '',
      ],
    });
  });
  return out;
}

function csvHeader(text: string, file: string): { header: string[]; total: number; samples: string[][] } {
  const splitter = new CsvRowSplitter(file);
  let header: string[] | undefined;
  let total = 0;
  const samples: string[][] = [];
  const onRow = (cells: string[]) => {
    if (!header) header = cells;
    else if (!(cells.length === 1 && cells[0] === '')) {
      total++;
      if (samples.length < sampleRows) samples.push(cells);
    }
  };
  splitter.push(text, onRow);
  splitter.end(onRow);
  return { header: header ?? [], total, samples };
}

export async function readImportFile(
  file: string,
  options: { encoding?: TextEncoding; sheet?: string } = {},
): Promise<ImportSource> {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new ImportFileError(
      `${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  return readImportBytes(bytes, file, options);
}

/**
 * The same for bytes that came another way (an upload over HTTP): `file` names them in messages and decides the
 * format where the bytes do not (.xlsx, .xml).
 */
export async function readImportBytes(
  bytes: Buffer,
  file: string,
  options: { encoding?: TextEncoding; sheet?: string } = {},
): Promise<ImportSource> {
  const name = path.basename(file);
  const format = formatOf(file, bytes);
  if (format === 'xlsx') {
    const { rows, sheet } = await readXlsx(file, bytes, options.sheet);
    const header = (rows[0] as { header: string[] }).header;
    return {
      file: name,
      format,
      encoding: null,
      lineEndings: null,
      sheet,
      header,
      rows,
      total: rows.length - 1,
      guesses: guessHeaders(header),
      samples: samplesOf(rows),
    };
  }
  let decoded: ReturnType<typeof decodeText>;
  try {
    decoded = decodeText(bytes, file, options.encoding);
  } catch (error) {
    if (error instanceof EncodingError) throw new ImportFileError(error.message);
    throw error;
  }
  if (format === 'pfif') {
    let pfif: PfifRecord[];
    try {
      pfif = await readPfif([decoded.text.replace(/^<\?xml[^>]*\?>/, '')], file);
    } catch (error) {
      if (error instanceof PfifError) throw new ImportFileError(error.message);
      throw error;
    }
    const rows = pfifRows(pfif);
    const header = (rows[0] as { header: string[] }).header;
    return {
      file: name,
      format,
      encoding: decoded.encoding,
      lineEndings: decoded.lineEndings,
      sheet: null,
      header,
      rows,
      total: pfif.length,
      pfif,
      guesses: guessHeaders(header),
      samples: samplesOf(rows),
    };
  }
  let parsed: { header: string[]; total: number; samples: string[][] };
  try {
    parsed = csvHeader(decoded.text, file);
  } catch (error) {
    if (error instanceof CsvError) throw new ImportFileError(error.message);
    throw error;
  }
  return {
    file: name,
    format,
    encoding: decoded.encoding,
    lineEndings: decoded.lineEndings,
    sheet: null,
    header: parsed.header,
    text: decoded.text,
    total: parsed.total,
    guesses: guessHeaders(parsed.header),
    samples: parsed.samples,
  };
}

const mappingKey = (name: string) => `import.mapping:${name}`;

export function validMappingName(name: string): boolean {
  return /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u.test(name);
}

/** Saves a confirmed map under a name, for the next file from the same team. */
export async function saveImportMapping(
  store: Store,
  name: string,
  map: { columns: Record<string, PersonRecordColumn> },
): Promise<void> {
  if (!validMappingName(name))
    throw new ImportFileError(
      `mapping name ${JSON.stringify(name)}: letters, digits, space . _ - (up to 64)`,
    );
  await setMeta(store.db, mappingKey(name), JSON.stringify(map));
}

/** Every saved map, by name. */
export async function listImportMappings(
  store: Store,
): Promise<{ name: string; map: { columns: Record<string, PersonRecordColumn> } }[]> {
  const rows = await store.db
    .selectFrom('meta')
    .select(['key', 'value'])
    .where('key', 'like', 'import.mapping:%')
    .orderBy('key')
    .execute();
  return rows.map((r) => ({
    name: r.key.slice('import.mapping:'.length),
    map: JSON.parse(r.value) as { columns: Record<string, PersonRecordColumn> },
  }));
}

export async function loadImportMapping(store: Store, name: string): Promise<unknown | undefined> {
  const text = await getMeta(store.db, mappingKey(name));
  return text === undefined ? undefined : JSON.parse(text);
}

/**
 * After a PFIF import: each note whose status is a claim kind becomes a claim on the record it belongs to (once:
 * a re-import adds none twice). Returns how many claims were added.
 */
export async function applyPfifNotes(
  store: Store,
  registry: RegistryService,
  records: readonly PfifRecord[],
  options: { sourceName?: string | null; fileName: string; actor: string | null },
): Promise<number> {
  let added = 0;
  const sourceIds = new Map<string, string | undefined>();
  for (const { person, notes } of records) {
    const claims = notes.filter((n) => n.status && (assertionKinds as readonly string[]).includes(n.status));
    if (claims.length === 0 || !person.person_record_id) continue;
    const sourceName = options.sourceName?.trim() || person.source_name?.trim() || options.fileName;
    if (!sourceIds.has(sourceName)) {
      sourceIds.set(
        sourceName,
        (await store.db.selectFrom('sources').select('id').where('name', '=', sourceName).executeTakeFirst())
          ?.id,
      );
    }
    const sourceId = sourceIds.get(sourceName);
    if (!sourceId) continue;
    const record = await store.db
      .selectFrom('records')
      .select('id')
      .where('source_id', '=', sourceId)
      .where('external_id', '=', person.person_record_id)
      .executeTakeFirst();
    if (!record) continue;
    const have = await store.db
      .selectFrom('assertions')
      .select(['kind', 'asserted_at', 'statement'])
      .where('record_id', '=', record.id)
      .execute();
    for (const note of claims) {
      const at =
        note.source_date && !Number.isNaN(Date.parse(note.source_date))
          ? new Date(note.source_date).toISOString()
          : null;
      const statement = note.text ?? null;
      if (
        have.some(
          (h) => h.kind === note.status && (at === null || h.asserted_at === at) && h.statement === statement,
        )
      )
        continue;
      await registry.addAssertion(
        { recordId: record.id, kind: note.status as string, statement, assertedAt: at, sourceId },
        options.actor,
      );
      added++;
    }
  }
  return added;
}
