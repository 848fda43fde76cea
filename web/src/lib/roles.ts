import { msg } from './msg.js';

/** The staff roles (src/access/roles.ts), in the order an admin picks from. */
export const roles = ['documenter', 'reviewer', 'liaison', 'investigator', 'admin'] as const;

const roleLabels: Record<string, string> = {
  admin: msg('Administrator'),
  documenter: msg('Documenter'),
  reviewer: msg('Reviewer'),
  liaison: msg('Family liaison'),
  investigator: msg('Investigator'),
};

/** A role's name in words (a translation key); an unknown role as sent. */
export function roleLabel(role: string): string {
  return roleLabels[role] ?? role;
}
