import { afterAll, beforeAll, expect, it } from 'vitest';
import { allows } from '../src/access/policies.js';
import { type Role, roles } from '../src/access/roles.js';
import { routeTable } from '../src/server/app.js';
import { type ApiClient, type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/**
 * Every route × every role and anonymous, from the route table the server built: a route added tomorrow is in
 * this test without anyone writing a line. Allowed callers get anything but 401/403 (placeholder ids and empty
 * bodies make 400/404 the usual answer); others get 401 (anonymous) or 403.
 */
describeEachDialect('route × role matrix', (store) => {
  let api: ApiHarness;
  const callers = new Map<Role | 'anonymous', ApiClient>();

  beforeAll(async () => {
    api = await createApi(store());
    callers.set('anonymous', api.anonymous);
    for (const role of roles) callers.set(role, await api.as(role));
  });
  afterAll(async () => api.close());

  it('covers a route table in which every route declared who may call it', () => {
    const table = routeTable(api.app);
    expect(table.length).toBeGreaterThan(3);
    for (const route of table) expect(route.access).toBeTruthy();
  });

  it('answers every route as the policy says, for every role and anonymous', async () => {
    const failures: string[] = [];
    for (const route of routeTable(api.app)) {
      // Fresh sessions per route: a route that ends its caller's session (sign-out) must not fail the next one.
      for (const role of roles) callers.set(role, await api.as(role));
      const url = route.url.replace(/:[A-Za-z_]+/g, '00000000-0000-7000-8000-000000000000').replace('*', 'x');
      for (const [who, client] of callers) {
        const role = who === 'anonymous' ? null : who;
        const res = await client.inject({
          method: route.method as 'GET',
          url,
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
        });
        const allowed = allows(route.access, role);
        const expected = allowed ? 'allowed' : role === null ? '401' : '403';
        const got =
          res.statusCode === 401 && res.json().code === 'unauthenticated'
            ? '401'
            : res.statusCode === 403 && res.json().code === 'forbidden'
              ? '403'
              : 'allowed';
        if (got !== expected) {
          failures.push(
            `${route.method} ${route.url} as ${who}: expected ${expected}, got ${res.statusCode}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers a session holding a one-time password on no route but the password change, the session and sign-out', async () => {
    const failures: string[] = [];
    const openTo = new Set<string>();
    for (const route of routeTable(api.app)) {
      if (route.access === 'public') continue;
      const role = roles.find((r) => allows(route.access, r)) as Role;
      const client = await api.as(role, undefined, { mustChangePassword: true });
      const url = route.url.replace(/:[A-Za-z_]+/g, '00000000-0000-7000-8000-000000000000').replace('*', 'x');
      const res = await client.inject({
        method: route.method as 'GET',
        url,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      const refused = res.statusCode === 403 && res.json().code === 'password_change_required';
      if (route.duringPasswordChange) openTo.add(`${route.method} ${route.url}`);
      if (refused === route.duringPasswordChange) {
        failures.push(`${route.method} ${route.url} as ${role}: got ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    expect([...openTo].sort()).toEqual(['DELETE /api/session', 'GET /api/session', 'POST /api/me/password']);
  });

  it('refuses a cookie-authenticated write without the CSRF token', async () => {
    const write = routeTable(api.app).find((r) => r.method === 'POST' && r.access !== 'public');
    if (!write) return expect(routeTable(api.app).every((r) => r.method === 'GET')).toBe(true);
    const role = roles.find((r) => allows(write.access, r)) as Role;
    const client = callers.get(role) as ApiClient;
    const res = await client.inject({
      method: 'POST',
      url: write.url.replace(/:[A-Za-z_]+/g, '00000000-0000-7000-8000-000000000000'),
      payload: {},
      headers: { 'x-csrf-token': 'wrong' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf_failed');
  });
});
