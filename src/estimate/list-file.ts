/**
 * The analyst's list files: one CSV per list, one line per person, `person_id[,stratum]`, a header line optional
 * (recognised by its first field, `person_id`). Reading a file's text and joining several into capture histories
 * are pure; the CLI reads the bytes. Every bad line is named by file and line, and nothing is estimated while any
 * remains.
 */
import type { CaptureHistory } from './tables.js';

export interface ListRow {
  id: string;
  stratum?: string;
  line: number;
}

export interface ListFile {
  name: string;
  rows: ListRow[];
  bad: { line: number; problem: string }[];
  /** Lines that repeat a person already on this list (counted once). */
  duplicates: number;
  header: boolean;
}

/** Parses one list file's text. `name` is how messages name it (its path as given). */
export function parseListFile(name: string, text: string): ListFile {
  const file: ListFile = { name, rows: [], bad: [], duplicates: 0, header: false };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split('\n');
  const seen = new Map<string, ListRow>();
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') continue;
    if (line.includes('\uFFFD')) {
      file.bad.push({ line: lineNo, problem: 'invalid UTF-8' });
      continue;
    }
    const fields = splitCsvLine(line);
    if (typeof fields === 'string') {
      file.bad.push({ line: lineNo, problem: fields });
      continue;
    }
    if (
      file.rows.length === 0 &&
      file.bad.length === 0 &&
      !file.header &&
      fields[0]!.trim().toLowerCase() === 'person_id'
    ) {
      file.header = true;
      if (fields.length > 2)
        file.bad.push({
          line: lineNo,
          problem: `expected person_id[,stratum], found ${fields.length} columns`,
        });
      continue;
    }
    if (fields.length > 2) {
      file.bad.push({ line: lineNo, problem: `expected person_id[,stratum], found ${fields.length} fields` });
      continue;
    }
    const id = fields[0]!.trim();
    if (id === '') {
      file.bad.push({ line: lineNo, problem: 'person_id is empty' });
      continue;
    }
    const stratum = fields.length === 2 ? fields[1]!.trim() : undefined;
    const row: ListRow = stratum ? { id, stratum, line: lineNo } : { id, line: lineNo };
    const before = seen.get(id);
    if (before) {
      if ((before.stratum ?? '') !== (row.stratum ?? '')) {
        file.bad.push({
          line: lineNo,
          problem: `person ${id} is in stratum ${quote(row.stratum)} here but ${quote(before.stratum)} on line ${before.line}`,
        });
      } else file.duplicates++;
      continue;
    }
    seen.set(id, row);
    file.rows.push(row);
  }
  return file;
}

function quote(stratum: string | undefined): string {
  return stratum ? `"${stratum}"` : '(none)';
}

/** Splits one CSV line (RFC 4180 quoting within the line); a string is the problem when it cannot. */
export function splitCsvLine(line: string): string[] | string {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return 'a quoted field is not closed on its line';
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      if (i < line.length && line[i] !== ',') return 'text after a closing quote';
      fields.push(value);
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? line.length : comma;
      const value = line.slice(i, end);
      if (value.includes('"')) return 'a quote inside an unquoted field';
      fields.push(value);
      i = end;
    }
    if (i >= line.length) return fields;
    i++; // the comma
    if (i === line.length) {
      fields.push('');
      return fields;
    }
  }
}

export interface JoinedLists {
  histories: CaptureHistory[];
  people: number;
  /** Set when the files cannot be joined (strata that disagree, or given for some people only). */
  problems: string[];
}

/**
 * Joins parsed list files into one capture history per person. A person's stratum may be given on any of their
 * lines; two different strata for one person, or strata given for some people and not others, are problems.
 */
export function joinLists(files: readonly ListFile[]): JoinedLists {
  const people = new Map<string, { mask: number; stratum?: string; where: string }>();
  const problems: string[] = [];
  files.forEach((file, j) => {
    for (const row of file.rows) {
      const where = `${file.name} line ${row.line}`;
      let person = people.get(row.id);
      if (!person) {
        person = { mask: 0, where };
        if (row.stratum) person.stratum = row.stratum;
        people.set(row.id, person);
      } else if (row.stratum) {
        if (person.stratum === undefined) {
          person.stratum = row.stratum;
          person.where = where;
        } else if (person.stratum !== row.stratum && problems.length < 20) {
          problems.push(
            `${where}: person ${row.id} is in stratum "${row.stratum}", but in "${person.stratum}" at ${person.where}`,
          );
        }
      }
      person.mask |= 1 << j;
    }
  });
  const stratified = [...people.values()].some((p) => p.stratum !== undefined);
  const histories: CaptureHistory[] = [];
  for (const [id, p] of people) {
    if (stratified && p.stratum === undefined) {
      if (problems.length < 20) {
        problems.push(
          `${p.where}: person ${id} has no stratum, but other people do: give every person one, or none`,
        );
      }
      continue;
    }
    histories.push(p.stratum === undefined ? { mask: p.mask } : { mask: p.mask, stratum: p.stratum });
  }
  return { histories, people: people.size, problems };
}
