import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { minPasswordLength, usernamePattern, usernameRule } from '../../access/account-rules.js';
import type { Actor } from '../../access/actor.js';
import { permissions, permissionsOf, policy, policySentences } from '../../access/policies.js';
import { roles } from '../../access/roles.js';
import { secretDigest } from '../../access/secrets.js';
import { AccountError, AccountService } from '../../services/accounts/accounts.js';
import type { AppContext } from '../../services/context.js';
import { AuditRepository } from '../../store/repositories/audit.js';
import type { ApiToken } from '../../store/repositories/credentials.js';
import { type User, UserRepository } from '../../store/repositories/users.js';
import { audit, sessionCookie, sessionIdleMs } from '../access.js';
import type { App } from '../app.js';
import { Problem } from '../problems.js';

const id = z.object({ id: z.string().min(1).max(100) });
const isoTime = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

/** Presenters: the fields each answer may carry, and nothing else (never a hash or a TOTP secret). */
const userView = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string().nullable(),
  role: z.string(),
  mustChangePassword: z.boolean(),
  totpRequired: z.boolean(),
  totpEnrolled: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
});

const sessionView = z.object({
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

const tokenView = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

const auditView = z.object({
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

const presentUser = (u: User): z.infer<typeof userView> => ({
  id: u.id,
  username: u.username,
  displayName: u.displayName,
  role: u.role,
  mustChangePassword: u.mustChangePassword,
  totpRequired: u.totpRequired,
  totpEnrolled: u.totpEnrolled,
  disabled: u.disabled,
  createdAt: u.createdAt,
});

const presentToken = (t: ApiToken): z.infer<typeof tokenView> => ({
  id: t.id,
  name: t.name,
  scopes: t.scopes,
  createdAt: t.createdAt,
  expiresAt: t.expiresAt,
  lastUsedAt: t.lastUsedAt,
  revokedAt: t.revokedAt,
});

function presentSession(user: User, csrfToken: string, enrolmentOnly: boolean): z.infer<typeof sessionView> {
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

/** The service's refusals as problem+json, naming the field at fault. */
function asProblem(error: unknown): unknown {
  if (!(error instanceof AccountError)) return error;
  const errors = error.field ? { errors: [{ path: `body.${error.field}`, message: error.message }] } : {};
  if (error.code === 'invalid') return new Problem('validation_failed', error.message, errors);
  return new Problem(error.code, error.message, errors);
}

async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asProblem(error);
  }
}

/** The caller, who passed the route's rule; some acts need a signed-in person rather than a script's token. */
function actorOf(request: FastifyRequest, sessionOnly = false): Actor {
  const actor = request.actor;
  if (!actor) throw new Problem('unauthenticated');
  if (sessionOnly && actor.via !== 'session') {
    throw new Problem('forbidden', 'only a signed-in session may do this, not an API token');
  }
  return actor;
}

/**
 * Accounts (issue 7.2): sign-in and sessions, one's own password and TOTP, API tokens, user administration, the
 * audit log and the policy. docs/access.md describes the rules.
 */
export async function accessRoutes(app: App, ctx: AppContext): Promise<void> {
  // Through ctx, so that a test replacing the clock moves sign-in time too.
  const accounts = new AccountService(ctx.store, () => ctx.clock(), sessionIdleMs);
  const users = new UserRepository(ctx.store.db);
  const tags = ['access'];

  app.post(
    '/api/session',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Sign in with username, password and (when set up) a TOTP code; sets the session cookie',
        tags,
        body: z.object({
          username: z.string().min(1).max(200),
          password: z.string().min(1).max(1024),
          totp: z.string().max(20).optional(),
        }),
        response: { 200: sessionView },
      },
    },
    async (request, reply) => {
      const { username, password, totp } = request.body;
      const outcome = await accounts.signIn({
        username,
        password,
        ...(totp ? { totp } : {}),
        address: request.ip,
      });
      if (!outcome.ok) {
        // The typed username is not logged: it may be a mistyped password. A known user is named by id.
        await audit(ctx, request, {
          action: 'sign_in_failed',
          ...(outcome.userId ? { subjectType: 'user', subjectId: outcome.userId } : {}),
          details: { reason: outcome.failure },
        });
        if (outcome.retryAfter !== undefined) reply.header('retry-after', String(outcome.retryAfter));
        throw new Problem(outcome.refusal);
      }
      const { user } = outcome;
      // A sign-in over an old session replaces it rather than leaving it alive beside the new one.
      const previous = request.cookies[sessionCookie];
      if (previous) await accounts.signOut(secretDigest(previous));
      reply.setCookie(sessionCookie, outcome.token, {
        httpOnly: true,
        sameSite: 'strict',
        path: '/',
        // request.protocol honours X-Forwarded-Proto only when ATHAR_TRUST_PROXY is set.
        secure: request.protocol === 'https',
      });
      const actor: Actor = {
        userId: user.id,
        username: user.username,
        role: user.role,
        via: 'session',
        credentialId: outcome.sessionId,
      };
      await audit(
        ctx,
        { actor, ip: request.ip },
        {
          action: 'sign_in',
          subjectType: 'user',
          subjectId: user.id,
          details: { totp: user.totpEnrolled, enrolmentOnly: outcome.enrolmentOnly },
        },
      );
      return presentSession(user, outcome.csrfToken, outcome.enrolmentOnly);
    },
  );

  app.get(
    '/api/session',
    {
      config: { access: 'signed_in', duringEnrolment: true },
      schema: {
        summary: 'Who is signed in, with the CSRF token and permissions',
        tags,
        response: { 200: sessionView },
      },
    },
    async (request) => {
      const actor = actorOf(request, true);
      const user = await users.findById(actor.userId);
      if (!user) throw new Problem('unauthenticated');
      return presentSession(user, actor.csrfToken ?? '', actor.enrolmentOnly === true);
    },
  );

  app.delete(
    '/api/session',
    {
      config: { access: 'signed_in', duringEnrolment: true },
      schema: { summary: 'Sign out: ends this session and clears its cookie', tags },
    },
    async (request, reply) => {
      const actor = actorOf(request, true);
      await accounts.signOut(actor.credentialId);
      await audit(ctx, request, { action: 'sign_out', subjectType: 'user', subjectId: actor.userId });
      reply.clearCookie(sessionCookie, { path: '/' });
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/me/password',
    {
      config: { access: 'signed_in', duringEnrolment: true },
      schema: {
        summary: 'Change your own password; your other sessions end',
        tags,
        body: z.object({
          current: z.string().min(1).max(1024),
          next: z.string().min(minPasswordLength, `use at least ${minPasswordLength} characters`).max(1024),
        }),
      },
    },
    async (request, reply) => {
      const actor = actorOf(request, true);
      await run(() =>
        accounts.changePassword({
          userId: actor.userId,
          sessionId: actor.credentialId,
          current: request.body.current,
          next: request.body.next,
        }),
      );
      await audit(ctx, request, { action: 'password_changed', subjectType: 'user', subjectId: actor.userId });
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/me/totp',
    {
      config: { access: 'signed_in', duringEnrolment: true },
      schema: {
        summary: 'Start TOTP enrolment: a new secret and its otpauth:// URI, active once confirmed',
        tags,
        response: { 200: z.object({ secret: z.string(), uri: z.string() }) },
      },
    },
    async (request) => {
      const actor = actorOf(request, true);
      return run(() => accounts.startTotp(actor.userId, actor.username));
    },
  );

  app.post(
    '/api/me/totp/confirm',
    {
      config: { access: 'signed_in', duringEnrolment: true },
      schema: {
        summary: 'Finish TOTP enrolment with a code from the app',
        tags,
        body: z.object({ code: z.string().min(1).max(20) }),
      },
    },
    async (request, reply) => {
      const actor = actorOf(request, true);
      await run(() => accounts.confirmTotp(actor.userId, request.body.code));
      await audit(ctx, request, { action: 'totp_enrolled', subjectType: 'user', subjectId: actor.userId });
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/tokens',
    {
      config: { access: 'signed_in' },
      schema: {
        summary: 'Your API tokens (never the tokens themselves)',
        tags,
        response: { 200: z.object({ items: z.array(tokenView) }) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return { items: (await accounts.listTokens(actor.userId)).map(presentToken) };
    },
  );

  app.post(
    '/api/tokens',
    {
      config: { access: 'signed_in' },
      schema: {
        summary: 'Create an API token for scripts; the token is shown once',
        tags,
        body: z.object({
          name: z.string().trim().min(1).max(100),
          scopes: z.array(z.string().max(100)).min(1).max(100),
          expiresInDays: z.number().int().min(1).max(3650).optional(),
        }),
        response: { 201: tokenView.extend({ token: z.string() }) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request, true);
      const created = await run(() =>
        accounts.createToken({
          userId: actor.userId,
          role: actor.role,
          name: request.body.name,
          scopes: request.body.scopes,
          ...(request.body.expiresInDays !== undefined ? { expiresInDays: request.body.expiresInDays } : {}),
        }),
      );
      await audit(ctx, request, {
        action: 'token_created',
        subjectType: 'api_token',
        subjectId: created.id,
        details: { scopes: created.scopes, expiresAt: created.expiresAt },
      });
      return reply.status(201).send({ ...presentToken(created), token: created.token });
    },
  );

  app.delete(
    '/api/tokens/:id',
    {
      config: { access: 'signed_in' },
      schema: { summary: 'Revoke one of your API tokens', tags, params: id },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await run(() => accounts.revokeToken(request.params.id, actor.userId));
      await audit(ctx, request, {
        action: 'token_revoked',
        subjectType: 'api_token',
        subjectId: request.params.id,
      });
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/users',
    {
      config: { access: 'users:manage' },
      schema: {
        summary: 'Every user account',
        tags,
        response: { 200: z.object({ items: z.array(userView) }) },
      },
    },
    async () => ({ items: (await accounts.listUsers()).map(presentUser) }),
  );

  app.post(
    '/api/users',
    {
      config: { access: 'users:manage' },
      schema: {
        summary: 'Create a user; answers a one-time password, shown once',
        tags,
        body: z.object({
          username: z.string().regex(usernamePattern, usernameRule),
          displayName: z.string().trim().min(1).max(200).optional(),
          role: z.enum(roles),
          totpRequired: z.boolean().optional(),
        }),
        response: { 201: z.object({ user: userView, password: z.string() }) },
      },
    },
    async (request, reply) => {
      const { user, password } = await run(() => accounts.createUser(request.body));
      await audit(ctx, request, {
        action: 'user_created',
        subjectType: 'user',
        subjectId: user.id,
        details: { role: user.role, totpRequired: user.totpRequired },
      });
      return reply.status(201).send({ user: presentUser(user), password });
    },
  );

  app.patch(
    '/api/users/:id',
    {
      config: { access: 'users:manage' },
      schema: {
        summary: "Change a user's role, display name, TOTP requirement or disable them",
        tags,
        params: id,
        body: z.object({
          role: z.enum(roles).optional(),
          disabled: z.boolean().optional(),
          totpRequired: z.boolean().optional(),
          displayName: z.string().trim().min(1).max(200).nullable().optional(),
        }),
        response: { 200: z.object({ user: userView }) },
      },
    },
    async (request) => {
      const { before, after } = await run(() => accounts.updateUser(request.params.id, request.body));
      // What changed, without personal data: a display name is reported as changed, not quoted.
      const changes: Record<string, unknown> = {};
      if (before.role !== after.role) changes.role = { from: before.role, to: after.role };
      if (before.disabled !== after.disabled) changes.disabled = after.disabled;
      if (before.totpRequired !== after.totpRequired) changes.totpRequired = after.totpRequired;
      if (before.displayName !== after.displayName) changes.displayName = 'changed';
      await audit(ctx, request, {
        action: 'user_updated',
        subjectType: 'user',
        subjectId: after.id,
        details: changes,
      });
      return { user: presentUser(after) };
    },
  );

  app.post(
    '/api/users/:id/password-reset',
    {
      config: { access: 'users:manage' },
      schema: {
        summary: 'Give a user a new one-time password (sessions end; optionally TOTP is set up again)',
        tags,
        params: id,
        body: z.object({ resetTotp: z.boolean().optional() }).optional(),
        response: { 200: z.object({ password: z.string() }) },
      },
    },
    async (request) => {
      const resetTotp = request.body?.resetTotp === true;
      const result = await run(() => accounts.resetPassword(request.params.id, { resetTotp }));
      await audit(ctx, request, {
        action: 'password_reset',
        subjectType: 'user',
        subjectId: request.params.id,
        details: { resetTotp },
      });
      return result;
    },
  );

  app.get(
    '/api/audit',
    {
      config: { access: 'audit:read' },
      schema: {
        summary: 'The audit log, newest first, with filters and a cursor; reading it is itself audited',
        tags,
        querystring: z.object({
          actor: z.string().max(100).optional(),
          action: z.string().max(100).optional(),
          subjectType: z.string().max(100).optional(),
          subjectId: z.string().max(200).optional(),
          since: z.string().regex(isoTime, 'use an ISO date or time').optional(),
          until: z.string().regex(isoTime, 'use an ISO date or time').optional(),
          cursor: z
            .string()
            .regex(/^\d{1,15}$/, 'use the nextCursor of the previous page')
            .optional(),
          limit: z.coerce.number().int().min(1).max(500).default(100),
        }),
        response: { 200: z.object({ items: z.array(auditView), nextCursor: z.string().optional() }) },
      },
    },
    async (request) => {
      const q = request.query;
      const filter = {
        ...(q.actor ? { actorId: q.actor } : {}),
        ...(q.action ? { action: q.action } : {}),
        ...(q.subjectType ? { subjectType: q.subjectType } : {}),
        ...(q.subjectId ? { subjectId: q.subjectId } : {}),
        ...(q.since ? { since: q.since } : {}),
        ...(q.until ? { until: q.until } : {}),
      };
      const rows = await new AuditRepository(ctx.store.db).query({
        ...filter,
        ...(q.cursor ? { beforeId: Number(q.cursor) } : {}),
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      await audit(ctx, request, {
        action: 'audit_read',
        details: { filter, ...(q.cursor ? { cursor: q.cursor } : {}) },
      });
      const last = page.at(-1);
      return {
        items: page.map((r) => ({ ...r, id: String(r.id) })),
        ...(rows.length > q.limit && last ? { nextCursor: String(last.id) } : {}),
      };
    },
  );

  app.get(
    '/api/policy',
    {
      config: { access: 'signed_in' },
      schema: {
        summary: 'The roles and what each may do, as data and as sentences',
        tags,
        response: {
          200: z.object({
            sentences: z.array(z.string()),
            permissions: z.record(z.string(), z.string()),
            roles: z.record(z.string(), z.array(z.string())),
          }),
        },
      },
    },
    async () => ({
      sentences: policySentences(),
      permissions,
      roles: Object.fromEntries(Object.entries(policy).map(([role, list]) => [role, [...list]])),
    }),
  );
}
