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
      | 'migration_failed',
  ) {
    super('unavailable', message);
    this.name = 'StoreError';
  }
}
