import type { Role } from './roles.js';

/**
 * Everything a route can require, with what it lets a person do. The policy below grants these to roles; routes
 * name one of them (or `public` / `signed_in`) in `config.access`, and the server refuses to start a route that
 * names none (src/server/access.ts). docs/access.md prints the same table as sentences.
 */
export const permissions = {
  'stats:read': 'see counts and charts of the archive',
  'places:read': 'read governorates and branches',
  'places:write': 'add units (branches, prisons, hospitals) and their aliases to the gazetteer',
  'sources:read': 'read sources',
  'sources:write': 'create and edit sources',
  'records:read': 'read records and search them by name',
  'records:write': 'create records and add assertions to them',
  'persons:read': 'read persons, their records, events and relations',
  'persons:link': 'link records to persons and undo links',
  'events:write': 'add and correct events and relations',
  'evidence:read': 'read evidence metadata and blurred views',
  'evidence:reveal': 'reveal unblurred views of evidence, with a reason',
  'evidence:original': 'download evidence originals, with a reason',
  'evidence:annotate': 'annotate evidence and record body labels',
  'evidence:ingest': 'add evidence files from the browser (ingested as the command line does)',
  'evidence:provenance':
    'read where evidence came from and who gave it (full file metadata, found-at paths, custody details, reveal reasons, ingest custodians), each read audited',
  'forensic:read': 'read forensic notes and ante-mortem profiles',
  'review:read': 'see the candidate-pair queue',
  'review:decide': 'decide candidate pairs',
  'identifications:read': 'read identifications',
  'identifications:propose': 'propose identifications',
  'identifications:confirm': 'confirm identifications as one of two reviewers',
  'identifications:inform': 'mark that a family was informed',
  'reports:read': 'read family reports and their consent choices',
  'reports:write': 'file reports on behalf of families and change their status or consent',
  'contacts:read': 'read family and reporter contact details',
  'audit:read': 'query the audit log',
  'exports:request': 'ask for a court bundle or a data export, with a reason',
  'exports:approve': "approve or refuse another person's export request",
  'users:manage': 'create users, set roles, reset passwords and require TOTP',
  'backups:manage': "back up the archive into the server's backup folder and check its snapshots",
} as const;

export type Permission = keyof typeof permissions;

/** What a route requires: a permission, any signed-in user, or nobody (public). */
export type Access = Permission | 'signed_in' | 'public';

/**
 * Least privilege: each role has what its work in design.md needs and nothing else. The admin runs the
 * installation and its accounts but does not read case files.
 */
export const policy: Record<Role, readonly Permission[]> = {
  admin: [
    'stats:read',
    'places:read',
    'places:write',
    'sources:read',
    'sources:write',
    'audit:read',
    'users:manage',
    'exports:approve',
    'evidence:provenance',
    'backups:manage',
  ],
  documenter: [
    'stats:read',
    'places:read',
    'places:write',
    'sources:read',
    'sources:write',
    'records:read',
    'records:write',
    'persons:read',
    'persons:link',
    'events:write',
    'evidence:read',
    'evidence:annotate',
    'evidence:ingest',
    'identifications:read',
    'identifications:propose',
  ],
  reviewer: [
    'stats:read',
    'places:read',
    'sources:read',
    'records:read',
    'persons:read',
    'persons:link',
    'evidence:read',
    'evidence:reveal',
    'forensic:read',
    'review:read',
    'review:decide',
    'identifications:read',
    'identifications:propose',
    'identifications:confirm',
  ],
  liaison: [
    'stats:read',
    'places:read',
    'sources:read',
    'records:read',
    'records:write',
    'persons:read',
    'evidence:read',
    'evidence:reveal',
    'identifications:read',
    'identifications:inform',
    'reports:read',
    'reports:write',
    'contacts:read',
  ],
  investigator: [
    'stats:read',
    'places:read',
    'sources:read',
    'records:read',
    'persons:read',
    'evidence:read',
    'evidence:reveal',
    'evidence:original',
    'evidence:provenance',
    'forensic:read',
    'review:read',
    'identifications:read',
    'exports:request',
    'exports:approve',
  ],
};

const granted = new Map<string, ReadonlySet<Permission>>(
  Object.entries(policy).map(([role, list]) => [role, new Set(list)]),
);

export function permissionsOf(role: string): ReadonlySet<Permission> {
  return granted.get(role) ?? new Set();
}

export function roleHas(role: string, permission: Permission): boolean {
  return permissionsOf(role).has(permission);
}

/** Whether a role (or anonymous, `null`) passes a route's access rule. */
export function allows(access: Access, role: string | null, scopes?: ReadonlySet<Permission>): boolean {
  if (access === 'public') return true;
  if (role === null) return false;
  if (access === 'signed_in') return true;
  return roleHas(role, access) && (scopes === undefined || scopes.has(access));
}

/** The policy as sentences, one per role: "A reviewer may see counts …; decide candidate pairs; …". */
export function policySentences(): string[] {
  return Object.entries(policy).map(
    ([role, list]) =>
      `${/^[aeiou]/.test(role) ? 'An' : 'A'} ${role} may ${list.map((p) => permissions[p]).join('; ')}.`,
  );
}
