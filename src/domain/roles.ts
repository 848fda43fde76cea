/** The staff roles of design.md. Families are anonymous and have no account. */
export const roles = ['admin', 'documenter', 'reviewer', 'liaison', 'investigator'] as const;
export type Role = (typeof roles)[number];

export function isRole(value: string): value is Role {
  return (roles as readonly string[]).includes(value);
}
