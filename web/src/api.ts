import type { ProblemBody } from './lib/problems.js';

/** An answer that was not 2xx, carrying the problem+json body (or a synthetic `network` problem). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemBody,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
  get code(): string {
    return this.problem.code ?? (this.status === 0 ? 'network' : 'internal');
  }
}

export const sessionEndedEvent = 'athar:session-ended';

// The CSRF token comes from the session answer; every write made with the session cookie must carry it.
let csrfToken: string | null = null;
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

type Query = Record<string, string | number | undefined | null>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

/** A query as a JSON body: empty values left out, as withQuery leaves them out of a URL. */
export function bodyOf(query: Query): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out;
}

/**
 * Searches records by name: the name goes in the body of a POST, never in a URL, which proxies and browser
 * histories keep (docs/access.md "Nothing personal in URLs").
 */
export function searchRecords<T>(query: Query): Promise<T> {
  return request<T>('POST', '/api/records/search', bodyOf(query));
}

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = contentType;
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined
        ? { body: typeof body === 'string' || body instanceof Blob ? body : JSON.stringify(body) }
        : {}),
    });
  } catch {
    throw new ApiError(0, { code: 'network' });
  }
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  const data: unknown = type.includes('json') ? await res.json().catch(() => ({})) : await res.text();
  if (!res.ok) {
    const problem = typeof data === 'object' && data ? (data as ProblemBody) : {};
    // A session that ended (expired, signed out elsewhere) while a screen was open: tell the session holder, which
    // sends the user to sign in again. Sign-in itself answers 401 too, and is left to its own screen.
    if (res.status === 401 && problem.code === 'unauthenticated' && !path.startsWith('/api/session')) {
      globalThis.dispatchEvent?.(new Event(sessionEndedEvent));
    }
    throw new ApiError(res.status, problem);
  }
  return data as T;
}

/**
 * Sends a file's bytes as the request body (application/octet-stream) with XMLHttpRequest, which, unlike fetch,
 * reports upload progress. Errors arrive as problem+json, as from `request`.
 */
export function putFile(path: string, file: Blob, onProgress: (sent: number) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', path);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.setRequestHeader('accept', 'application/json');
    if (csrfToken) xhr.setRequestHeader('x-csrf-token', csrfToken);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onerror = () => reject(new ApiError(0, { code: 'network' }));
    xhr.onload = () => {
      let body: unknown = {};
      try {
        body = JSON.parse(xhr.responseText || '{}');
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, (body ?? {}) as ProblemBody));
    };
    xhr.send(file);
  });
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', withQuery(path, query)),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
  patch: <T>(path: string, body: unknown = {}) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
  /** A text body as is (CSV imports). */
  postText: <T>(path: string, text: string, contentType: string, query?: Query) =>
    request<T>('POST', withQuery(path, query), text, contentType),
  /** A file as it is, byte for byte (the server finds its format and encoding). */
  postFile: <T>(path: string, file: Blob, query?: Query) =>
    request<T>('POST', withQuery(path, query), file, 'application/octet-stream'),
};

// Shapes from the API contract (docs/web.md); only what the screens read.
export interface SessionAnswer {
  user: {
    id: string;
    username: string;
    displayName: string | null;
    role: string;
    mustChangePassword: boolean;
    totpRequired?: boolean;
    totpEnrolled?: boolean;
  };
  csrfToken: string;
  permissions: string[];
  /** The session may only enrol TOTP until it is set up. */
  totpEnrolmentRequired?: boolean;
}

export interface UserItem {
  id: string;
  username: string;
  displayName: string | null;
  role: string;
  mustChangePassword: boolean;
  totpRequired: boolean;
  totpEnrolled: boolean;
  disabled: boolean;
  createdAt: string;
  lastSignInAt?: string | null;
}

/** A password reset or role change awaiting a second admin (GET /api/account-requests). */
export interface AccountRequestItem {
  id: string;
  kind: 'password_reset' | 'role_change';
  userId: string;
  username: string | null;
  /** The account's role now. */
  role: string | null;
  /** The role asked for (a role change). */
  toRole: string | null;
  resetTotp: boolean;
  status: string;
  requestedBy: string;
  requestedByName: string | null;
  requestedAt: string;
  expiresAt: string;
}

export interface RecordItem {
  id: string;
  fullName?: string | null;
  firstName?: string | null;
  fatherName?: string | null;
  grandfatherName?: string | null;
  familyName?: string | null;
  motherName?: string | null;
  script?: string | null;
  source?: { id: string; name: string } | null;
  kind?: string | null;
  birthDate?: string | null;
  governorateId?: string | null;
  arrestDate?: string | null;
  branchId?: string | null;
  personId?: string | null;
  score?: number;
  why?: string[];
  /** Why it matched, as codes and parameters (rendered in the reader's language). */
  reasons?: import('./lib/reasons.js').MatchReason[];
  original?: Record<string, unknown> | null;
  link?: {
    id: string;
    basis: string;
    linkedAt: string;
    linkedBy?: string | null;
    note?: string | null;
    decisionId?: string | null;
    /** For a link the model made: the run, the model version, the record it matched and how strongly. */
    model?: {
      runId: string;
      modelVersion: string;
      matchedRecord: string;
      probability: number;
      matchWeight: number;
    };
  };
  [field: string]: unknown;
}

export interface Place {
  id: string;
  nameEn: string;
  nameAr: string;
  number?: string | number | null;
  aliases?: string[];
}

export interface List<T> {
  items: T[];
  nextCursor?: string;
}

export interface PersonAnswer {
  id: string;
  /** The id asked for, when it named a person since merged into this one. */
  mergedFrom?: string;
  status: string;
  displayName: string;
  records: RecordItem[];
  events: {
    id: string;
    type: string;
    dateStart?: string | null;
    dateEnd?: string | null;
    datePrecision?: string | null;
    place?: string | null;
    branchId?: string | null;
    governorateId?: string | null;
    description?: string | null;
    recordId?: string | null;
  }[];
  relations: {
    id: string;
    personA: string;
    personB: string;
    type: string;
    certainty?: string | null;
    retractedAt?: string | null;
  }[];
  assertions: {
    id: string;
    kind: string;
    statement?: string | null;
    assertedAt?: string;
    recordId?: string | null;
  }[];
  identifications: { id: string; evidenceId: string; status: string }[];
}

export interface EvidenceAnswer {
  id: string;
  sha256: string;
  sizeBytes?: number;
  mediaType: string;
  width?: number | null;
  height?: number | null;
  originalName?: string | null;
  metadata?: Record<string, unknown> | null;
  graphic?: boolean;
  annotations?: { id: string; kind: string; value: string; readFrom?: string | null; createdAt?: string }[];
  bodyLabels?: {
    body: {
      id: string;
      collection: string | null;
      branch: string | null;
      detaineeNumber: string | null;
      examinationNumber: string | null;
    };
    labels: { id: string; part: string; value: string; readFrom?: string | null }[];
  }[];
  custody?: {
    id: string;
    kind: string;
    actor?: string | null;
    at: string;
    reason?: string | null;
    ledgerIndex?: number | null;
    included?: boolean;
  }[];
  log?: { index: number | null; included: boolean; checkpointSize?: number | null };
  nearDuplicates?: { id: string; distance?: number | null; sha256?: string; originalName?: string | null }[];
}

export interface EvidenceRow {
  id: string;
  sha256: string;
  mediaType: string;
  originalName: string | null;
  graphic: boolean;
  decodeStatus: string | null;
  sourceId: string | null;
  ingestRunId: string | null;
  createdAt: string;
  annotations: number;
  groupId: string | null;
  groupSize: number;
}

export interface UploadAnswer {
  id: string;
  status: 'receiving' | 'ingesting' | 'finished' | 'failed';
  files: number;
  bytes: number;
  runId: string | null;
  done: number;
  total: number;
  outcomes: { path: string; outcome: string; evidenceId?: string; reason?: string }[] | null;
  failure: string | null;
}

export interface ReviewPair {
  id: string;
  a: RecordItem;
  b: RecordItem;
  probability: number;
  matchWeight: number;
  modelVersion: string;
  /** null when the pair was queued without one and the model cannot explain it now. */
  explanation: {
    prior: number | { weight: number };
    steps: { field: string; level: string; weight: number; tfAdjustment?: number }[];
    total: number;
    probability: number;
  } | null;
  agreement: Record<string, 'agree' | 'partial' | 'disagree' | 'missing'>;
}

export interface Identification {
  id: string;
  evidenceId: string;
  personId: string;
  status: string;
  basis?: string | null;
  proposedBy?: string | null;
  proposedAt?: string;
  confirmations?: { by: string; at: string | null }[];
  informedBy?: string | null;
  informedAt?: string | null;
}

export interface Progress {
  id: string;
  status: string;
  done: number;
  total: number | null;
  [k: string]: unknown;
}

export interface Stats {
  totals: { records: number; persons: number; evidence: number; identifications: number; reports: number };
  byGovernorate: { id: string; nameEn: string; nameAr: string; count: number }[];
  byArrestYear: { year: number | string; count: number }[];
  byBranch: { id: string; nameEn: string; nameAr: string; count: number }[];
  identificationsByMonth: { month: string; count: number }[];
  activity: { day: string; ingested: number; imported: number }[];
}

export interface AuditEntry {
  id: string;
  at: string;
  actorId?: string | null;
  actorRole?: string | null;
  action: string;
  subjectType?: string | null;
  subjectId?: string | null;
  details?: unknown;
}

export type ExportWhat =
  | {
      kind: 'bundle';
      scope:
        | { kind: 'person'; personId: string }
        | { kind: 'evidence'; evidenceIds: string[] }
        | { kind: 'ingest_run'; ingestRunId: string };
    }
  | { kind: 'export'; what: string; format: string };

export interface ExportRequest {
  id: string;
  kind: 'bundle' | 'export';
  scope: ExportWhat;
  purpose: string;
  reason: string;
  status: string;
  requestedBy: string;
  requestedByName?: string | null;
  requestedAt: string;
  decidedBy: string | null;
  decidedByName?: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
  fileName: string | null;
  fileSha256: string | null;
  fileBytes: number | null;
  expiresAt: string | null;
  failure: string | null;
}

export type EstimateOutcome =
  | {
      method: 'loglinear' | 'lcmcr';
      estimate: number;
      interval: { lower: number; upper: number | null; level: number };
      model?: string;
      why: string;
    }
  | { method: 'loglinear' | 'lcmcr'; refusal: { code: string; message: string } };

export interface EstimateStratum {
  stratum: string;
  observed: number;
  refusal?: { code: string; message: string };
  loglinear?: EstimateOutcome;
  lcmcr?: EstimateOutcome;
  warnings: { code: string; message: string }[];
}

/** GET /api/estimate: aggregates only (docs/estimation.md). */
export interface Estimate {
  lists: string[];
  by: string | null;
  persons: number;
  sources: { id: string; name: string; persons: number }[];
  refusal?: { code: string; message: string };
  strata: EstimateStratum[];
  total?: { observed: number; loglinear?: EstimateOutcome; lcmcr?: EstimateOutcome };
}
