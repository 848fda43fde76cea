/** A storage problem a person can act on: says what and where in one line. The CLI exits 2 on it. */
export class StoreError extends Error {
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
    super(message);
    this.name = 'StoreError';
  }
}
