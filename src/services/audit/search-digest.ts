import type { Config } from '../../config/config.js';
import { normalize } from '../../names/index.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import type { Db } from '../../store/store.js';
import { auditKeyFile, cachedKey, keyedDigest, keyIdOf } from '../keys/installation-keys.js';

/**
 * What an audit row of a name search keeps of the searched name (issue 21, Security 5): not the name, but
 * `qDigest`, an HMAC-SHA256 of its matching form (names' `normalize`: the spellings a search treats as one give
 * one digest) under `keys/audit.key`, as `<key id>:<32 hex>`. Whoever holds the key — an auditor asking "was this
 * person searched, and by whom?" — computes the digest of a name and looks for it (`athar audit searched NAME`);
 * whoever reads only the database, a backup without keys, or the audit answers, has no list of who was searched.
 */
export class SearchDigests {
  private readonly key: () => Buffer;

  constructor(config: Pick<Config, 'dataDir'>) {
    this.key = cachedKey(() => auditKeyFile(config));
  }

  digest(q: string): string {
    const key = this.key();
    return `${keyIdOf(key)}:${keyedDigest(key, 'searched-name', normalize(q)).slice(0, 32)}`;
  }

  /**
   * Rows of searches written before names were kept as digests get the digest in place of the name: the one change
   * ever made to a written audit row (who, what, when and the filters stay as they were). Idempotent; answers how
   * many rows changed.
   */
  async redactWrittenNames(db: Db): Promise<number> {
    const audit = new AuditRepository(db);
    let changed = 0;
    let after = 0;
    for (;;) {
      const rows = await audit.searchesNamingText(after, 500);
      if (rows.length === 0) return changed;
      for (const row of rows) {
        after = Number(row.id);
        const details = JSON.parse(row.details ?? '{}') as Record<string, unknown>;
        if (!('q' in details)) continue;
        const { q, ...rest } = details;
        await audit.redactDetails(row.id, {
          ...rest,
          qDigest: typeof q === 'string' && q.trim() ? this.digest(q) : null,
        });
        changed++;
      }
    }
  }
}
