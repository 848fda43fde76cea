import { msg } from './msg.js';

/**
 * The staff screens and the permission each needs (a list: any one of them); the menu shows only what the signed-in
 * role may use.
 */
export const staffScreens: readonly {
  path: string;
  label: string;
  permission: string | readonly string[];
}[] = [
  { path: '/dashboard', label: msg('Dashboard'), permission: 'stats:read' },
  { path: '/estimate', label: msg('How many are missing'), permission: 'stats:read' },
  { path: '/reports', label: msg('Family reports'), permission: 'reports:read' },
  { path: '/search', label: msg('Search'), permission: 'records:read' },
  { path: '/records/new', label: msg('New record'), permission: 'records:write' },
  { path: '/evidence', label: msg('Evidence'), permission: 'evidence:read' },
  { path: '/review', label: msg('Review queue'), permission: 'review:read' },
  { path: '/identifications', label: msg('Identifications'), permission: 'identifications:read' },
  { path: '/ingest', label: msg('Ingest runs'), permission: 'evidence:read' },
  { path: '/imports', label: msg('Imports'), permission: 'records:write' },
  { path: '/branches', label: msg('Branches and units'), permission: 'places:read' },
  { path: '/exports', label: msg('Exports'), permission: ['exports:request', 'exports:approve'] },
  { path: '/audit', label: msg('Audit log'), permission: 'audit:read' },
  { path: '/users', label: msg('Users'), permission: 'users:manage' },
  { path: '/backups', label: msg('Backups'), permission: 'backups:manage' },
];

export type StaffScreen = (typeof staffScreens)[number];

export function mayUse(permission: string | readonly string[], granted: ReadonlySet<string>): boolean {
  return typeof permission === 'string' ? granted.has(permission) : permission.some((p) => granted.has(p));
}

export function screensFor(permissions: readonly string[]): StaffScreen[] {
  const granted = new Set(permissions);
  return staffScreens.filter((s) => mayUse(s.permission, granted));
}

/** Where a user lands after signing in: the first screen they may use (an admin without stats still lands). */
export function homeFor(permissions: readonly string[]): string {
  return screensFor(permissions)[0]?.path ?? '/account';
}
