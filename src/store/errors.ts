import { DomainError } from '../domain/errors.js';

/**
 * A storage problem a person can act on (a folder not writable, a file that is not athar's database, a server
 * that does not answer): says what and where in one line. The CLI exits 2 on it, as on any configuration problem.
 */
export class StoreError extends DomainError {
  constructor(
    message: string,
    readonly code:
      | 'not_a_database'
      | 'foreign_database'
      | 'unreachable'
      | 'not_writable'
      | 'bad_encoding'
      | 'migration_failed'
      | 'connection_lost'
      | 'disk_full'
      | 'io_error',
  ) {
    super('unavailable', message);
    this.name = 'StoreError';
  }
}

const pgLost = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
const netLost = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);

/**
 * A fault of the storage underneath (the database server gone, the disk full or failing), as a StoreError that says
 * so in one line, or undefined for anything else. The CLI exits 2 on it without a stack trace; the server answers
 * 503 (issue 21, Reliability 4; docs/decisions.md).
 */
export function storageFault(error: unknown): StoreError | undefined {
  if (error instanceof StoreError) return error;
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return undefined;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  const kept = 'nothing after the last commit was kept; run it again once the fault is mended';
  if (
    pgLost.has(code) ||
    netLost.has(code) ||
    /^Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
      message,
    )
  ) {
    const why = code === '57P01' ? 'the server was shut down' : message || code;
    const fault = new StoreError(`the database stopped answering (${why}): ${kept}`, 'connection_lost');
    fault.cause = error;
    return fault;
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || /database or disk is full/.test(message)) {
    const fault = new StoreError(`the disk is full (${message || code}): ${kept}`, 'disk_full');
    fault.cause = error;
    return fault;
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    const fault = new StoreError(`the disk failed a read or write (${message || code}): ${kept}`, 'io_error');
    fault.cause = error;
    return fault;
  }
  return undefined;
}
