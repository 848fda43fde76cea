import type { DomainError } from '../domain/errors.js';
import { apiField } from '../domain/person-record.js';

/**
 * Every error a client can meet, with a stable code, its HTTP status and a message that says what to do.
 * Answers are RFC 9457 problem details: { type, title, status, detail, code, instance, errors? }.
 * docs/api.md lists the same catalogue.
 */
export const problemCatalogue = {
  bad_request: { status: 400, title: 'The request is malformed.' },
  validation_failed: { status: 400, title: 'Some fields are missing or invalid; see errors.' },
  unauthenticated: { status: 401, title: 'Sign in first.' },
  csrf_failed: { status: 403, title: 'The request lacks a valid CSRF token; reload the page and try again.' },
  forbidden: { status: 403, title: 'Your role does not allow this.' },
  grant_invalid: {
    status: 403,
    title: 'This view was revealed to someone else, for another item, or its time is up; reveal it again.',
  },
  totp_required: { status: 401, title: 'Enter the code from your authenticator app.' },
  enrolment_required: {
    status: 403,
    title: 'Set up your authenticator app first (POST /api/me/totp, then /api/me/totp/confirm).',
  },
  password_change_required: {
    status: 403,
    title:
      'Choose your own password first (POST /api/me/password); until then only that and signing out answer.',
  },
  not_found: { status: 404, title: 'Nothing is here.' },
  method_not_allowed: { status: 405, title: 'This resource does not accept that method.' },
  conflict: { status: 409, title: 'The request conflicts with the current state; reload and try again.' },
  payload_too_large: { status: 413, title: 'The request body is too large.' },
  unsupported_media_type: { status: 415, title: 'Send application/json.' },
  rate_limited: { status: 429, title: 'Too many requests; wait and try again.' },
  internal: { status: 500, title: 'Something went wrong on our side; it has been logged.' },
  unavailable: { status: 503, title: 'The service cannot answer right now; try again shortly.' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof problemCatalogue;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: ProblemCode;
  detail?: string;
  instance?: string;
  errors?: { path: string; message: string }[];
  [extension: string]: unknown;
}

/** Thrown by handlers and services' adapters; the server's error handler turns it into problem+json. */
export class Problem extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    readonly detail?: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail ?? problemCatalogue[code].title);
    this.name = 'Problem';
    this.status = problemCatalogue[code].status;
  }
}

export function problemType(code: ProblemCode): string {
  return `urn:athar:problem:${code}`;
}

export function problemBody(
  code: ProblemCode,
  detail?: string,
  instance?: string,
  extensions: Record<string, unknown> = {},
): ProblemBody {
  const entry = problemCatalogue[code];
  return {
    type: problemType(code),
    title: entry.title,
    status: entry.status,
    code,
    ...(detail ? { detail } : {}),
    ...(instance ? { instance } : {}),
    ...extensions,
  };
}

/**
 * A use case's refusal as a problem: its kind names the status; its field, or each of its issues, names the input
 * at fault — in the query string of a GET, in the body otherwise, by the API's name for it.
 */
export function problemOf(error: DomainError, method: string): Problem {
  const where = method === 'GET' || method === 'HEAD' ? 'querystring' : 'body';
  const errors = error.issues.map((i) => ({
    path: i.field === 'record' || i.field === '' ? where : `${where}.${apiField(i.field)}`,
    message: i.message,
  }));
  switch (error.kind) {
    case 'not_found':
      return new Problem('not_found', error.message);
    case 'conflict':
      return new Problem('conflict', error.message, errors.length ? { errors } : {});
    case 'unavailable':
      return new Problem('unavailable', error.message);
    case 'forbidden':
      return new Problem('forbidden', error.message);
    case 'invalid':
      return errors.length
        ? new Problem('validation_failed', error.message, { errors })
        : new Problem('bad_request', error.message);
  }
}
