/**
 * What a use case refuses, in the domain's terms. The HTTP layer maps the kind to a problem+json status in one
 * place (src/server/app.ts); the CLI prints the message. `field` names the input at fault, in the caller's
 * vocabulary (a person-record column, a form key); `issues` lists every fault when there are several.
 */
export type DomainErrorKind =
  /** Nothing by that id or reference. */
  | 'not_found'
  /** The request contradicts the current state (a decided pair, a guarded link, the last admin). */
  | 'conflict'
  /** The input is wrong: a value out of range, a missing reason, an ambiguous reference. */
  | 'invalid'
  /** The caller may do this kind of act, but not on this (an export of a scope their role may not read). */
  | 'forbidden'
  /** Something the act needs is missing right now (a key, the engine, the database). */
  | 'unavailable';

export interface FieldIssue {
  field: string;
  message: string;
}

export class DomainError extends Error {
  readonly field: string | undefined;
  readonly issues: readonly FieldIssue[];

  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    options: { field?: string; issues?: readonly FieldIssue[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.field = options.field;
    this.issues = options.issues ?? (options.field ? [{ field: options.field, message }] : []);
  }
}

export const notFound = (message: string): DomainError => new DomainError('not_found', message);
export const conflict = (message: string, field?: string): DomainError =>
  new DomainError('conflict', message, field ? { field } : {});
export const invalid = (message: string, field?: string): DomainError =>
  new DomainError('invalid', message, field ? { field } : {});
export const unavailable = (message: string, cause?: unknown): DomainError =>
  new DomainError('unavailable', message, cause === undefined ? {} : { cause });
