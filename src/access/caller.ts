import type { Actor } from './actor.js';
import { allows, type Permission } from './policies.js';

/**
 * Who asks a service to act, as the audit log records them: the authenticated actor (null for a family on a
 * public page, or the command line), the network address, and the channel. Services receive it for every act they
 * audit and every read whose answer depends on the caller's permissions.
 */
export interface Caller {
  actor: Actor | null;
  ip: string | null;
  channel: 'http' | 'cli';
}

/** A caller who is signed in: a user's session or token. */
export type SignedIn = Caller & { actor: Actor };

/** The command line: an operator on the machine, with no account. */
export const commandLine: Caller = { actor: null, ip: null, channel: 'cli' };

/** Whether the caller holds a permission: its role's, narrowed to a token's scopes. */
export function can(caller: Caller, permission: Permission): boolean {
  return allows(permission, caller.actor?.role ?? null, caller.actor?.scopes);
}

/**
 * The sensitive fields a caller may see in a record, person or report (docs/access.md): forensic material
 * (forensic report numbers, notes, ante-mortem profiles) and who filed a family report.
 */
export interface Visibility {
  forensic: boolean;
  reporters: boolean;
  /** Who and where evidence came from: full file metadata, found-at paths, custody details, reveal reasons. */
  provenance: boolean;
}

export function visibilityOf(caller: Caller): Visibility {
  return {
    forensic: can(caller, 'forensic:read'),
    reporters: can(caller, 'reports:read'),
    provenance: can(caller, 'evidence:provenance'),
  };
}
