import { SaxesParser } from 'saxes';

/**
 * PFIF 1.4 (People Finder Interchange Format, http://zesty.ca/pfif/1.4): person records and their note records,
 * written and read. athar writes one PFIF person per record (PFIF's own model: several person records may be one
 * human) or per person, and a note per claim whose kind is a PFIF status. Contact fields (author_email,
 * author_phone, email_of_found_person, phone_of_found_person) are never written, and never read in.
 */

export const pfifNamespace = 'http://zesty.ca/pfif/1.4';

export const pfifPersonFields = [
  'person_record_id',
  'entry_date',
  'expiry_date',
  'author_name',
  'author_email',
  'author_phone',
  'source_name',
  'source_date',
  'source_url',
  'full_name',
  'given_name',
  'family_name',
  'alternate_names',
  'description',
  'sex',
  'date_of_birth',
  'age',
  'home_street',
  'home_neighborhood',
  'home_city',
  'home_state',
  'home_postal_code',
  'home_country',
  'photo_url',
  'profile_urls',
] as const;

export const pfifNoteFields = [
  'note_record_id',
  'person_record_id',
  'linked_person_record_id',
  'entry_date',
  'author_name',
  'author_email',
  'author_phone',
  'source_date',
  'author_made_contact',
  'status',
  'email_of_found_person',
  'phone_of_found_person',
  'last_known_location',
  'text',
  'photo_url',
] as const;

/** PFIF 1.4's note status values; each is also an athar claim kind. */
export const pfifStatuses = [
  'information_sought',
  'is_note_author',
  'believed_alive',
  'believed_missing',
  'believed_dead',
] as const;

const contactFields = new Set([
  'author_email',
  'author_phone',
  'email_of_found_person',
  'phone_of_found_person',
]);

export type PfifPerson = Partial<Record<(typeof pfifPersonFields)[number], string>>;
export type PfifNote = Partial<Record<(typeof pfifNoteFields)[number], string>>;

// XML 1.0 allows these characters only (§2.2); others are dropped rather than written as an unreadable file.
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// Most values need neither: one test spares the four replacements (a million-record export writes ten million).
// Code units, not code points (no u flag: faster): any surrogate sends the value the long way, which keeps pairs.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML 1.0 forbids are the point
const needsWork = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function xmlText(value: string): string {
  if (!needsWork.test(value)) return value;
  return value.replace(notXmlChar, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export const pfifHeader = `<?xml version="1.0" encoding="UTF-8"?>\n<pfif:pfif xmlns:pfif="${pfifNamespace}">\n`;
export const pfifFooter = '</pfif:pfif>\n';

function fields(
  order: readonly string[],
  record: Record<string, string | undefined>,
  indent: string,
): string {
  let out = '';
  for (const field of order) {
    const value = record[field];
    if (value === undefined || value === '' || contactFields.has(field)) continue;
    out += `${indent}<pfif:${field}>${xmlText(value)}</pfif:${field}>\n`;
  }
  return out;
}

/** One `<pfif:person>` with its notes nested, fields in the specification's order. */
export function pfifPersonXml(person: PfifPerson, notes: readonly PfifNote[] = []): string {
  let out = `  <pfif:person>\n${fields(pfifPersonFields, person, '    ')}`;
  for (const note of notes)
    out += `    <pfif:note>\n${fields(pfifNoteFields, note, '      ')}    </pfif:note>\n`;
  return `${out}  </pfif:person>\n`;
}

/** PFIF's time form: UTC to the second. */
export function pfifTime(iso: string): string {
  return `${iso.slice(0, 19)}Z`;
}

/** A PFIF document that cannot be read, naming the file and where. */
export class PfifError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PfifError';
  }
}

export interface PfifRecord {
  person: PfifPerson;
  notes: PfifNote[];
}

/**
 * Reads a PFIF 1.4 document (1.2 and 1.3 namespaces too: their fields are a subset, first_name/last_name read as
 * given_name/family_name), streaming: persons with their nested notes, and top-level notes joined to their person
 * by person_record_id at the end. Contact fields are dropped as they are read.
 */
export async function readPfif(
  chunks: AsyncIterable<string> | Iterable<string>,
  file: string,
): Promise<PfifRecord[]> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const persons: PfifRecord[] = [];
  const loose: PfifNote[] = [];
  let person: PfifRecord | undefined;
  let note: PfifNote | undefined;
  let field: string | undefined;
  let text = '';
  let sawRoot = false;
  const pfifNs = (uri: string) => /^http:\/\/zesty\.ca\/pfif\/1\.[1-4]$/.test(uri);
  parser.on('opentag', (tag) => {
    if (!pfifNs(tag.uri)) return;
    const name = tag.local;
    if (name === 'pfif') sawRoot = true;
    else if (name === 'person') person = { person: {}, notes: [] };
    else if (name === 'note') note = {};
    else {
      field = name;
      text = '';
    }
  });
  parser.on('text', (t) => {
    if (field) text += t;
  });
  parser.on('cdata', (t) => {
    if (field) text += t;
  });
  parser.on('closetag', (tag) => {
    if (!pfifNs(tag.uri)) return;
    const name = tag.local;
    if (name === 'note' && note) {
      if (person) person.notes.push(note);
      else loose.push(note);
      note = undefined;
    } else if (name === 'person' && person) {
      for (const n of person.notes) n.person_record_id ??= person.person.person_record_id;
      persons.push(person);
      person = undefined;
    } else if (field === name) {
      const value = text.trim();
      const key =
        name === 'first_name'
          ? 'given_name'
          : name === 'last_name'
            ? 'family_name'
            : name === 'other'
              ? 'description'
              : name;
      if (!contactFields.has(key) && value !== '') {
        if (note && (pfifNoteFields as readonly string[]).includes(key))
          (note as Record<string, string>)[key] = value;
        else if (!note && person && (pfifPersonFields as readonly string[]).includes(key))
          (person.person as Record<string, string>)[key] = value;
      }
      field = undefined;
    }
  });
  try {
    for await (const chunk of chunks) parser.write(chunk);
    parser.close();
  } catch (error) {
    throw new PfifError(`${file}: not well-formed XML: ${(error as Error).message}`);
  }
  if (!sawRoot) throw new PfifError(`${file}: no <pfif:pfif> element in the namespace ${pfifNamespace}`);
  const byId = new Map(persons.map((p) => [p.person.person_record_id, p]));
  for (const n of loose) byId.get(n.person_record_id)?.notes.push(n);
  return persons;
}
