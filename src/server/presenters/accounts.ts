import { z } from 'zod';
import { permissionsOf } from '../../access/policies.js';
import type { ApiToken } from '../../store/repositories/credentials.js';
import type { User } from '../../store/repositories/users.js';

/** Presenters: the fields each answer may carry, and nothing else (never a hash or a TOTP secret). */
export const userView = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string().nullable(),
  role: z.string(),
  mustChangePassword: z.boolean(),
  totpRequired: z.boolean(),
  totpEnrolled: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
  /** In the user list only: the last successful sign-in, from the audit log. */
  lastSignInAt: z.string().nullable().optional(),
});

export const sessionView = z.object({
  user: userView.pick({
    id: true,
    username: true,
    displayName: true,
    role: true,
    mustChangePassword: true,
    totpRequired: true,
    totpEnrolled: true,
  }),
  csrfToken: z.string(),
  permissions: z.array(z.string()),
  /** True while the user must set up TOTP: only enrolment, password change and sign-out answer. */
  totpEnrolmentRequired: z.boolean(),
});

export const tokenView = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

/** A reset or role change awaiting a second admin (src/services/accounts/account-requests.ts): ids and names, no secret. */
export const accountRequestView = z.object({
  id: z.string(),
  kind: z.enum(['password_reset', 'role_change']),
  userId: z.string(),
  username: z.string().nullable(),
  /** The account's role now. */
  role: z.string().nullable(),
  /** The role asked for (role_change); null for a reset. */
  toRole: z.string().nullable(),
  resetTotp: z.boolean(),
  status: z.string(),
  requestedBy: z.string(),
  requestedByName: z.string().nullable(),
  requestedAt: z.string(),
  expiresAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
});

export const auditView = z.object({
  id: z.string(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorRole: z.string().nullable(),
  action: z.string(),
  subjectType: z.string().nullable(),
  subjectId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});

export const presentUser = (u: User & { lastSignInAt?: string | null }): z.infer<typeof userView> => ({
  id: u.id,
  username: u.username,
  displayName: u.displayName,
  role: u.role,
  mustChangePassword: u.mustChangePassword,
  totpRequired: u.totpRequired,
  totpEnrolled: u.totpEnrolled,
  disabled: u.disabled,
  createdAt: u.createdAt,
  ...(u.lastSignInAt !== undefined ? { lastSignInAt: u.lastSignInAt } : {}),
});

export const presentToken = (t: ApiToken): z.infer<typeof tokenView> => ({
  id: t.id,
  name: t.name,
  scopes: t.scopes,
  createdAt: t.createdAt,
  expiresAt: t.expiresAt,
  lastUsedAt: t.lastUsedAt,
  revokedAt: t.revokedAt,
});

export function presentSession(
  user: User,
  csrfToken: string,
  enrolmentOnly: boolean,
): z.infer<typeof sessionView> {
  return {
    user: {
      id: user.id,
      username: user.username,
      displayName: user.displayName,
      role: user.role,
      mustChangePassword: user.mustChangePassword,
      totpRequired: user.totpRequired,
      totpEnrolled: user.totpEnrolled,
    },
    csrfToken,
    permissions: [...permissionsOf(user.role)],
    totpEnrolmentRequired: enrolmentOnly,
  };
}
