import { sha256Hex } from './hash.js';

/**
 * What athar's log says: one entry per custody event or registry change, as RFC 8785 canonical JSON. An entry
 * names its subject by SHA-256 (an evidence item by the hash of its bytes, a registry row by the digest of its
 * covered columns), its actor (a user id, or `system`), and the digest of every database row it vouches for, so
 * that `athar verify` can check each covered row against its latest entry. Entries carry ids, hashes, kinds and
 * times only — never names, reasons or other content: the log is served to anyone who verifies it.
 */

export const entryVersion = 1;

export const custodyKinds = [
  'acquired',
  'ingested',
  'viewed_original',
  'viewed_unblurred',
  'annotated',
  'exported',
  'transferred',
  'hold',
  'release',
] as const;
export type CustodyKind = (typeof custodyKinds)[number];

export const registryKinds = [
  'record.created',
  'record.imported',
  'link.created',
  'link.closed',
  'decision.recorded',
  'identification.status',
] as const;

export const entryKinds = [...custodyKinds.map((k) => `custody.${k}` as const), ...registryKinds] as const;
export type EntryKind = (typeof entryKinds)[number];

export const subjectTypes = [
  'evidence_item',
  'custody_event',
  'record',
  'record_link',
  'decision',
  'identification',
] as const;
export type SubjectType = (typeof subjectTypes)[number];

/**
 * The columns of each covered table that an entry vouches for. Left out on purpose: values derived from the
 * bytes or the text that athar may recompute (image metadata, PDQ, views, normalised names), display copies,
 * and custody_events.ledger_index, which the sequencer fills in after the fact.
 */
export const coveredColumns = {
  custody_events: ['id', 'evidence_id', 'kind', 'actor', 'at', 'reason', 'details'],
  evidence_items: [
    'id',
    'sha256',
    'size_bytes',
    'media_type',
    'original_name_b64',
    'source_id',
    'created_at',
    'created_by',
  ],
  records: [
    'id',
    'source_id',
    'external_id',
    'kind',
    'original',
    'full_name',
    'first_name',
    'father_name',
    'grandfather_name',
    'family_name',
    'mother_name',
    'sex',
    'birth_date',
    'birth_year',
    'governorate_id',
    'place_of_origin',
    'arrest_date',
    'arresting_branch_id',
    'detainee_number',
    'death_date',
    'forensic_report_number',
    'notes',
    'created_at',
    'created_by',
  ],
  record_links: [
    'id',
    'record_id',
    'person_id',
    'linked_at',
    'linked_by',
    'basis',
    'decision_id',
    'note',
    'unlinked_at',
    'unlinked_by',
    'unlink_reason',
  ],
  decisions: [
    'id',
    'record_a',
    'record_b',
    'decision',
    'reviewer_id',
    'decided_at',
    'model_version',
    'note',
    'superseded_by',
  ],
  identifications: [
    'id',
    'evidence_id',
    'person_id',
    'status',
    'basis',
    'proposed_by',
    'proposed_at',
    'first_confirmed_by',
    'first_confirmed_at',
    'second_confirmed_by',
    'second_confirmed_at',
    'informed_by',
    'informed_at',
  ],
} as const satisfies Record<string, readonly string[]>;

export type CoveredTable = keyof typeof coveredColumns;

/**
 * A covered row as the log reads it: every covered column, and the few whose values the entry itself uses. The
 * log's own row types, so the core does not know the schema it vouches for; the store's rows fit them (a type
 * test in src/store/ holds the two together).
 */
type CoveredRowOf<T extends CoveredTable> = { readonly [C in (typeof coveredColumns)[T][number]]: unknown };
export type CustodyEventRow = CoveredRowOf<'custody_events'> & {
  readonly id: string;
  readonly evidence_id: string | null;
  readonly kind: string;
  readonly actor: string;
  readonly at: string;
};
export type EvidenceItemRow = CoveredRowOf<'evidence_items'> & {
  readonly id: string;
  readonly sha256: string;
};
export type RecordRow = CoveredRowOf<'records'> & {
  readonly id: string;
  readonly created_by: string | null;
  readonly created_at: string;
};
export type RecordLinkRow = CoveredRowOf<'record_links'> & {
  readonly id: string;
  readonly record_id: string;
  readonly linked_by: string | null;
  readonly linked_at: string;
  readonly unlinked_by: string | null;
  readonly unlinked_at: string | null;
};
export type DecisionRow = CoveredRowOf<'decisions'> & {
  readonly id: string;
  readonly decision: string;
  readonly reviewer_id: string;
  readonly decided_at: string;
};
export type IdentificationRow = CoveredRowOf<'identifications'> & {
  readonly id: string;
  readonly status: string;
};
export const coveredTables = Object.keys(coveredColumns) as CoveredTable[];
const sortedColumns = Object.fromEntries(
  coveredTables.map((t) => [t, [...coveredColumns[t]].sort()]),
) as unknown as Record<CoveredTable, readonly string[]>;
const str = JSON.stringify;

export interface RowRef {
  table: CoveredTable;
  id: string;
  sha256: string;
}

export interface Subject {
  type: SubjectType;
  id: string;
  sha256: string;
}

export interface LogEntry {
  v: typeof entryVersion;
  kind: EntryKind;
  /** When it happened, ISO-8601 UTC. */
  at: string;
  /** Who did it: a user id, or `system`. */
  actor: string;
  subject: Subject;
  /** The covered rows as they stand after this change. */
  rows: RowRef[];
  /** identification.status: the new status; decision.recorded: match | non_match | unsure. */
  status?: string;
}

/** A row handed to the log lacks a covered column or holds a value that has no stable JSON form. */
export class RowShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RowShapeError';
  }
}

/**
 * SHA-256 (hex) of the canonical JSON `{"row":{<covered columns>},"table":"<table>"}`. Values are as stored:
 * text, integers (booleans 0/1) or null, so both dialects give the same digest for the same row.
 */
export function rowDigest(table: CoveredTable, row: object): string {
  const values = row as Record<string, unknown>;
  const members: string[] = [];
  for (const column of sortedColumns[table]) {
    const value = values[column];
    if (value === undefined) throw new RowShapeError(`${table} row lacks column ${column}`);
    if (
      value !== null &&
      typeof value !== 'string' &&
      !(typeof value === 'number' && Number.isFinite(value))
    ) {
      throw new RowShapeError(`${table}.${column} holds a ${typeof value}; expected text, a number or null`);
    }
    members.push(`${str(column)}:${str(value)}`);
  }
  // RFC 8785 for this shape: members in code-unit order, values as ECMAScript JSON writes them (held to the
  // canonicalize package in entries.test.ts).
  return sha256Hex(`{"row":{${members.join(',')}},"table":${str(table)}}`);
}

export function coveredRow(table: CoveredTable, row: object): RowRef {
  const id = (row as { id?: unknown }).id;
  if (typeof id !== 'string' || id.length === 0) throw new RowShapeError(`${table} row has no id`);
  return { table, id, sha256: rowDigest(table, row) };
}

export interface Attribution {
  actor?: string | null;
  at?: string | null;
}

const system = 'system';

/**
 * The entry for a custody event. The subject is the evidence item, named by the SHA-256 of its bytes (or the
 * event itself when it concerns no single item); an ingest also vouches for the evidence_items row.
 */
export function custodyEntry(
  event: CustodyEventRow,
  item?: (Pick<EvidenceItemRow, 'id' | 'sha256'> & Partial<EvidenceItemRow>) | null,
): LogEntry {
  if (!(custodyKinds as readonly string[]).includes(event.kind)) {
    throw new RowShapeError(
      `custody event kind ${JSON.stringify(event.kind)} is not one of ${custodyKinds.join(', ')}`,
    );
  }
  if (item && event.evidence_id !== item.id) {
    throw new RowShapeError(`custody event ${event.id} concerns ${event.evidence_id}, not ${item.id}`);
  }
  if (event.evidence_id && !item) {
    throw new RowShapeError(
      `custody event ${event.id} concerns evidence ${event.evidence_id}: pass the item`,
    );
  }
  const eventRow = coveredRow('custody_events', event);
  const rows = [eventRow];
  if (event.kind === 'ingested') {
    if (!item) throw new RowShapeError(`ingest event ${event.id} names no evidence item`);
    rows.push(coveredRow('evidence_items', item));
  }
  return {
    v: entryVersion,
    kind: `custody.${event.kind as CustodyKind}`,
    at: event.at,
    actor: event.actor,
    subject: item
      ? { type: 'evidence_item', id: item.id, sha256: item.sha256 }
      : { type: 'custody_event', id: event.id, sha256: eventRow.sha256 },
    rows,
  };
}

function registryEntry(
  kind: EntryKind,
  type: SubjectType,
  table: CoveredTable,
  row: object,
  actor: string | null | undefined,
  at: string | null | undefined,
  extra: RowRef[] = [],
  status?: string,
): LogEntry {
  const own = coveredRow(table, row);
  if (!at) throw new RowShapeError(`${kind} entry for ${own.id} needs a time`);
  return {
    v: entryVersion,
    kind,
    at,
    actor: actor || system,
    subject: { type, id: own.id, sha256: own.sha256 },
    rows: [own, ...extra],
    ...(status === undefined ? {} : { status }),
  };
}

/** A record made by hand (`record.created`) or by an import (`record.imported`). */
export function recordEntry(
  kind: 'record.created' | 'record.imported',
  record: RecordRow,
  by: Attribution = {},
): LogEntry {
  return registryEntry(
    kind,
    'record',
    'records',
    record,
    by.actor ?? record.created_by,
    by.at ?? record.created_at,
  );
}

/** A record linked to a person (`link.created`), or the link closed (`link.closed`, when unlinked_at is set). */
export function linkEntry(link: RecordLinkRow, by: Attribution = {}): LogEntry {
  const closed = link.unlinked_at !== null;
  return registryEntry(
    closed ? 'link.closed' : 'link.created',
    'record_link',
    'record_links',
    link,
    by.actor ?? (closed ? link.unlinked_by : link.linked_by),
    by.at ?? (closed ? link.unlinked_at : link.linked_at),
  );
}

/**
 * Links written together: a record that moved to another person (its old link closed and a new one opened in the
 * same change) is one `link.created` entry for the new link with the closed one riding along in its rows, as a
 * decision carries those it supersedes; a link closed or opened alone is its own entry. One entry per move, not
 * two: a national run moves hundreds of thousands of records, and each entry is a leaf the log must hash and keep.
 */
export function linkEntries(closed: readonly RecordLinkRow[], opened: readonly RecordLinkRow[]): LogEntry[] {
  return [...eachLinkEntry(closed, opened)];
}

/** `linkEntries` one entry at a time (each row's digest computed as its entry is taken). */
export function* eachLinkEntry(
  closed: readonly RecordLinkRow[],
  opened: readonly RecordLinkRow[],
): Generator<LogEntry> {
  const { alone, moves } = linkMoves(closed, opened);
  yield* eachMoveEntry(alone, moves);
}

/**
 * How `linkEntries` pairs links: each opened link with the link of the same record closed in the same change (same
 * time, same hand), if any; closed links left `alone`. Its entries are then `eachMoveEntry(alone, moves)`, which can
 * be taken in parts (the lone closed links first, then the moves in order).
 */
export function linkMoves(
  closed: readonly RecordLinkRow[],
  opened: readonly RecordLinkRow[],
): { alone: RecordLinkRow[]; moves: { opened: RecordLinkRow; closed?: RecordLinkRow }[] } {
  const closedOf = new Map<string, RecordLinkRow>();
  for (const c of closed) closedOf.set(c.record_id, c);
  const moves = opened.map((o) => {
    const c = closedOf.get(o.record_id);
    if (c === undefined || c.unlinked_at !== o.linked_at || c.unlinked_by !== o.linked_by)
      return { opened: o };
    closedOf.delete(o.record_id);
    return { opened: o, closed: c };
  });
  return { alone: [...closedOf.values()], moves };
}

/** The entries of links paired by `linkMoves`: each lone closed link its own `link.closed`, first; then the moves. */
export function* eachMoveEntry(
  alone: readonly RecordLinkRow[],
  moves: readonly { opened: RecordLinkRow; closed?: RecordLinkRow }[],
): Generator<LogEntry> {
  for (const c of alone) yield linkEntry(c);
  for (const { opened: o, closed: c } of moves) {
    yield c === undefined
      ? linkEntry(o)
      : registryEntry('link.created', 'record_link', 'record_links', o, o.linked_by, o.linked_at, [
          coveredRow('record_links', c),
        ]);
  }
}

/** A reviewer's decision on a pair; the decisions it supersedes change too (superseded_by), so they ride along. */
export function decisionEntry(decision: DecisionRow, superseded: readonly DecisionRow[] = []): LogEntry {
  return registryEntry(
    'decision.recorded',
    'decision',
    'decisions',
    decision,
    decision.reviewer_id,
    decision.decided_at,
    superseded.map((d) => coveredRow('decisions', d)),
    decision.decision,
  );
}

/** An identification's status as it now stands (proposed, a confirmation, family informed, rejected, …). */
export function identificationEntry(
  identification: IdentificationRow,
  by: { actor: string; at: string },
): LogEntry {
  return registryEntry(
    'identification.status',
    'identification',
    'identifications',
    identification,
    by.actor,
    by.at,
    [],
    identification.status,
  );
}

const atharId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Entries whose exact time would tell the public when someone looked or when a family was told. */
function timeIsPersonal(entry: LogEntry): boolean {
  return (
    entry.kind === 'custody.viewed_unblurred' ||
    entry.kind === 'custody.viewed_original' ||
    (entry.kind === 'identification.status' && entry.status === 'family_informed')
  );
}

/**
 * What a public entry may say (docs/decisions.md "What the public log says"), applied to every entry as it is
 * staged: the actor is an account's id (a UUID, which names nobody outside athar) or `system`, and any other
 * actor — an operator's login name from the command line — becomes `operator`; the time of a reveal, an original's
 * download and a family being told is given to the day. The covered rows keep the full actor and time, and the
 * entry's row digests vouch for them, so `athar verify` checks them as before.
 */
export function publicEntry(entry: LogEntry): LogEntry {
  const actor = entry.actor === system || atharId.test(entry.actor) ? entry.actor : 'operator';
  const at = timeIsPersonal(entry) ? `${entry.at.slice(0, 10)}T00:00:00.000Z` : entry.at;
  return actor === entry.actor && at === entry.at ? entry : { ...entry, actor, at };
}

const sha256Pattern = /^[0-9a-f]{64}$/;
const timePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
/** Entry bundles prefix each entry with a uint16 length. */
export const maxEntryBytes = 0xffff;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): string | undefined {
  for (const key in value) if (!allowed.has(key)) return key;
  return undefined;
}

// Sets, not lists: `athar verify` checks every entry of the log.
const kindSet: ReadonlySet<unknown> = new Set(entryKinds);
const subjectTypeSet: ReadonlySet<unknown> = new Set(subjectTypes);
const tableSet: ReadonlySet<unknown> = new Set(coveredTables);
const entryKeys = new Set(['v', 'kind', 'at', 'actor', 'subject', 'rows', 'status']);
const subjectKeys = new Set(['type', 'id', 'sha256']);
const rowKeys = new Set(['table', 'id', 'sha256']);

/** What is wrong with an entry, or undefined when it is well-formed. */
export function entryProblem(entry: unknown): string | undefined {
  if (!isPlainObject(entry)) return 'entry is not a JSON object';
  const extra = onlyKeys(entry, entryKeys);
  if (extra) return `unknown field ${extra}`;
  if (entry.v !== entryVersion) return `version ${JSON.stringify(entry.v)} is not ${entryVersion}`;
  if (!kindSet.has(entry.kind)) return `unknown kind ${JSON.stringify(entry.kind)}`;
  if (typeof entry.at !== 'string' || !timePattern.test(entry.at))
    return `time ${JSON.stringify(entry.at)} is not ISO-8601 UTC`;
  if (typeof entry.actor !== 'string' || entry.actor.length === 0 || entry.actor.length > 200) {
    return 'actor must be a non-empty id';
  }
  const subject = entry.subject;
  if (!isPlainObject(subject) || onlyKeys(subject, subjectKeys)) return 'subject must be {type, id, sha256}';
  if (!subjectTypeSet.has(subject.type)) return `unknown subject type ${JSON.stringify(subject.type)}`;
  if (typeof subject.id !== 'string' || subject.id.length === 0) return 'subject id must be non-empty';
  if (typeof subject.sha256 !== 'string' || !sha256Pattern.test(subject.sha256))
    return 'subject sha256 must be 64 lowercase hex digits';
  if (!Array.isArray(entry.rows)) return 'rows must be a list';
  for (const [i, row] of entry.rows.entries()) {
    if (!isPlainObject(row) || onlyKeys(row, rowKeys)) return `rows[${i}] must be {table, id, sha256}`;
    if (!tableSet.has(row.table)) return `rows[${i}] names uncovered table ${JSON.stringify(row.table)}`;
    if (typeof row.id !== 'string' || row.id.length === 0) return `rows[${i}] id must be non-empty`;
    if (typeof row.sha256 !== 'string' || !sha256Pattern.test(row.sha256))
      return `rows[${i}] sha256 must be 64 lowercase hex digits`;
  }
  if (entry.status !== undefined && (typeof entry.status !== 'string' || entry.status.length === 0)) {
    return 'status must be non-empty text';
  }
  return undefined;
}

/** An entry that cannot be logged; says why in one line. */
export class EntryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EntryError';
  }
}

/**
 * RFC 8785 for the one shape an entry has (checked by entryProblem first): members in code-unit order, strings as
 * ECMAScript JSON.stringify writes them, the version an integer. It gives what a general canonicaliser gives
 * (entries.test.ts holds it to the canonicalize package) at a tenth of the cost, which the append rate needs.
 */
function canonicalEntry(entry: LogEntry): string {
  const rows = entry.rows.map((r) => `{"id":${str(r.id)},"sha256":${str(r.sha256)},"table":${str(r.table)}}`);
  const status = entry.status === undefined ? '' : `"status":${str(entry.status)},`;
  const subject = `{"id":${str(entry.subject.id)},"sha256":${str(entry.subject.sha256)},"type":${str(entry.subject.type)}}`;
  return `{"actor":${str(entry.actor)},"at":${str(entry.at)},"kind":${str(entry.kind)},"rows":[${rows.join(',')}],${status}"subject":${subject},"v":${entry.v}}`;
}

/** The entry's bytes as logged: RFC 8785 canonical JSON, UTF-8. */
export function encodeEntry(entry: LogEntry): Buffer {
  const problem = entryProblem(entry);
  if (problem) throw new EntryError(`log entry rejected: ${problem}`);
  const bytes = Buffer.from(canonicalEntry(entry), 'utf8');
  if (bytes.length > maxEntryBytes)
    throw new EntryError(`log entry of ${bytes.length} bytes exceeds ${maxEntryBytes}`);
  return bytes;
}

export type ParsedEntry = { ok: true; entry: LogEntry } | { ok: false; detail: string };

/** Reads logged bytes back: well-formed, and exactly the canonical form (so no two encodings of one entry). */
export function parseEntry(text: string): ParsedEntry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, detail: `not JSON: ${(error as Error).message}` };
  }
  const problem = entryProblem(value);
  if (problem) return { ok: false, detail: problem };
  if (canonicalEntry(value as LogEntry) !== text)
    return { ok: false, detail: 'not in RFC 8785 canonical form' };
  return { ok: true, entry: value as LogEntry };
}

/**
 * The rows a logged entry vouches for, read without checking the rest of it (the sequencer's path: entries were
 * checked when staged, and `athar verify` checks every one); empty when the text holds no such list.
 */
export function vouchedRows(text: string): RowRef[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const rows = isPlainObject(value) ? value.rows : undefined;
  if (!Array.isArray(rows)) return [];
  return rows.filter(
    (r): r is RowRef =>
      isPlainObject(r) &&
      typeof r.table === 'string' &&
      typeof r.id === 'string' &&
      typeof r.sha256 === 'string',
  );
}
