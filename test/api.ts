import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/access/passwords.js';
import type { Role } from '../src/access/roles.js';
import { newSecret, secretDigest } from '../src/access/secrets.js';
import { FsBlobStore } from '../src/blobs/fs-blob-store.js';
import { loadConfig } from '../src/config/config.js';
import { newId } from '../src/ids.js';
import { csrfHeader, sessionCookie } from '../src/server/access.js';
import { type App, buildServer } from '../src/server/app.js';
import type { AppContext } from '../src/services/context.js';
import { CredentialRepository } from '../src/store/repositories/credentials.js';
import { UserRepository } from '../src/store/repositories/users.js';
import type { Store } from '../src/store/store.js';

/** A caller of the API in tests: a signed-in user of some role, or anonymous. */
export interface ApiClient {
  readonly user: { id: string; username: string; role: Role } | null;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
}

export interface ApiHarness {
  app: App;
  ctx: AppContext;
  dir: string;
  anonymous: ApiClient;
  /** A new user of this role with a live session (and its CSRF token on every write). */
  as(role: Role, username?: string, options?: { mustChangePassword?: boolean }): Promise<ApiClient>;
  close(): Promise<void>;
}

let passwordHash: Promise<string> | undefined;

/**
 * The real server over a test store and a temp blob folder, with helpers to call it as any role. Sessions are
 * made directly in the store (what a sign-in makes) so that tests of other areas need not sign in each time.
 */
export async function createApi(store: Store, env: Record<string, string> = {}): Promise<ApiHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'athar-api-'));
  const blobs = new FsBlobStore(path.join(dir, 'blobs'));
  await blobs.init();
  const config = loadConfig({ ATHAR_DATA: dir, ATHAR_LOG_LEVEL: 'silent', ...env });
  const ctx: AppContext = { config, store, blobs, clock: Date.now, close: async () => {} };
  const app = await buildServer(ctx, { logger: false });
  passwordHash ??= hashPassword('synthetic-test-password');

  const client = (user: ApiClient['user'], cookie?: string, csrf?: string): ApiClient => {
    const inject = (options: InjectOptions) =>
      app.inject({
        ...options,
        headers: {
          ...(cookie ? { cookie: `${sessionCookie}=${cookie}` } : {}),
          ...(csrf ? { [csrfHeader]: csrf } : {}),
          ...(options.headers ?? {}),
        },
      });
    return {
      user,
      inject,
      get: (url) => inject({ method: 'GET', url }),
      post: (url, payload) => inject({ method: 'POST', url, payload: payload as InjectOptions['payload'] }),
    };
  };

  return {
    app,
    ctx,
    dir,
    anonymous: client(null),
    async as(role, username = `${role}-${newId().slice(-12)}`, options = {}) {
      const user = await new UserRepository(store.db).create({
        username,
        passwordHash: await (passwordHash as Promise<string>),
        role,
        ...(options.mustChangePassword ? { mustChangePassword: true } : {}),
      });
      const token = newSecret();
      const csrf = newSecret(18);
      await new CredentialRepository(store.db).createSession({
        id: secretDigest(token),
        userId: user.id,
        csrfToken: csrf,
        expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      });
      return client({ id: user.id, username, role }, token, csrf);
    },
    async close() {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
