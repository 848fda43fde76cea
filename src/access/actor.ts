import type { Permission } from './policies.js';

/** Who is making a request, once authenticated: a signed-in user (cookie) or a script (API token). */
export interface Actor {
  userId: string;
  username: string;
  role: string;
  via: 'session' | 'token';
  /** The session's id (SHA-256 of its token) or the token's id. */
  credentialId: string;
  /** A token's scopes; undefined for sessions, which carry the role's full permissions. */
  scopes?: ReadonlySet<Permission>;
  /** A session's CSRF token, required on writes. */
  csrfToken?: string;
  /** The user must enrol TOTP before this session reaches anything but the enrolment routes. */
  enrolmentOnly?: boolean;
  /** The user signed in with a one-time password: only changing it and signing out answer until they do. */
  mustChangePassword?: boolean;
}
