import type { Migration } from 'kysely';
import type { Capabilities } from '../capabilities.js';
import { foundation } from './0001-foundation.js';
import { ledger } from './0002-ledger.js';
import { evidence } from './0005-evidence.js';
import { access } from './0006-access.js';
import { accounts } from './0007-accounts.js';
import { registry } from './0008-registry.js';
import { review } from './0009-review.js';
import { intake } from './0010-intake.js';
import { tracing } from './0011-tracing.js';
import { exportRequests } from './0012-exports.js';
import { workspace } from './0013-workspace.js';
import { hardening } from './0014-hardening.js';
import { ocr } from './0015-ocr.js';
import { keyedLimits } from './0016-keyed-limits.js';
import { totpRoles } from './0017-totp-roles.js';
import { scannedRows } from './0019-scanned-rows.js';
import { passwordResets } from './0020-password-resets.js';
import { guardIndexes } from './0021-guard-indexes.js';
import { accountRequests } from './0022-account-requests.js';
import { scannedPages } from './0023-scanned-pages.js';
import { statementReferencesMigration } from './0024-statement-references.js';
import { unusedQueueIndex } from './0025-unused-queue-index.js';

/**
 * Every migration, in order. Names sort lexically; each area adds its own file and one line here.
 * Never edit a migration that has shipped: add a new one.
 */
export function allMigrations(caps: Capabilities): Record<string, Migration> {
  return {
    '0001-foundation': foundation(caps),
    '0002-ledger': ledger(caps),
    '0005-evidence': evidence(),
    '0006-access': access(),
    '0007-accounts': accounts(),
    '0008-registry': registry(),
    '0009-review': review(),
    '0010-intake': intake(caps),
    '0011-tracing': tracing(caps),
    '0012-exports': exportRequests(),
    '0013-workspace': workspace(),
    '0014-hardening': hardening(),
    '0015-ocr': ocr(),
    '0016-keyed-limits': keyedLimits(),
    '0017-totp-roles': totpRoles(),
    '0019-scanned-rows': scannedRows(),
    '0020-password-resets': passwordResets(),
    '0021-guard-indexes': guardIndexes(),
    '0022-account-requests': accountRequests(),
    '0023-scanned-pages': scannedPages(),
    '0024-statement-references': statementReferencesMigration(caps),
    '0025-unused-queue-index': unusedQueueIndex(),
  };
}
