import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/access/passwords.js';
import type { Role } from '../../src/access/roles.js';
import { UserRepository } from '../../src/store/repositories/users.js';
import { contextIn, launchBrowser, screenshot, signIn } from './browser.js';
import { syntheticPassword } from './seed.js';
import { type RunningServer, startServer } from './server.js';

/**
 * Issue 21, Security 10 on the users screen, in a real Chromium: admin A asks for a password reset of a liaison who
 * has no authenticator app and is told a second admin must approve it; admin B (in Arabic) sees the request, why it
 * waits, approves it and is shown the one-time password, which signs the liaison in. Then the same for a role
 * change that makes a reviewer a liaison. SYNTHETIC accounts only.
 */
describe('password resets and role changes by two admins, in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const desktop = { width: 1280, height: 900 };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function account(username: string, role: Role) {
    // Straight into the store, as seed.ts does: the admins need no authenticator for this test.
    await new UserRepository(server.ctx.store.db).create({
      username,
      passwordHash: await hashPassword(syntheticPassword),
      role,
    });
    return { username, password: syntheticPassword };
  }

  it('admin A asks, admin B approves and sees the one-time password once', async () => {
    const a = await account('synthetic-admin-a', 'admin');
    const b = await account('synthetic-admin-b', 'admin');
    const liaison = await account('synthetic-liaison', 'liaison');

    const ctxA = await contextIn(browser, 'en', desktop);
    const pageA = await ctxA.newPage();
    await signIn(pageA, server.url, a);
    await pageA.goto(`${server.url}/users`);
    const row = pageA.locator(`tr[data-user="${liaison.username}"]`);
    await row.locator('summary').click();
    await row.getByRole('button', { name: 'Reset the password' }).click();
    await pageA.waitForSelector('[data-reset-requested]');
    expect(await pageA.textContent('[data-reset-requested]')).toMatch(/Another administrator must approve/);
    // No password reached admin A.
    expect(await pageA.locator('[data-once-password]').count()).toBe(0);
    const pendingA = pageA.locator(`[data-pending-requests] tr[data-request-for="${liaison.username}"]`);
    await pendingA.waitFor();
    expect(await pendingA.textContent()).toMatch(/You asked for it/);
    expect(await pendingA.getByRole('button', { name: 'Approve and show the password' }).count()).toBe(0);
    await screenshot(pageA, 'password-reset-requested-en');

    const ctxB = await contextIn(browser, 'ar', desktop);
    const pageB = await ctxB.newPage();
    await signIn(pageB, server.url, b);
    await pageB.goto(`${server.url}/users`);
    await pageB.waitForSelector('[data-pending-requests]');
    const section = await pageB.textContent('[data-pending-requests]');
    expect(section).toContain('تغييرات الحسابات بانتظار مدير نظام ثانٍ');
    expect(section).toContain('تحتاج إلى مدير نظام ثانٍ');
    const pendingB = pageB.locator(`tr[data-request-for="${liaison.username}"]`);
    await pendingB.getByRole('button', { name: 'وافق واعرض كلمة المرور' }).click();
    await pageB.waitForSelector('[data-once-password]');
    const shown = (await pageB.textContent('[data-once-password] .code'))?.trim() ?? '';
    expect(shown).toMatch(/^\S{20,}$/);
    await screenshot(pageB, 'password-reset-approved-ar');
    // The request is settled: the row is gone.
    await pendingB.waitFor({ state: 'detached' });

    const signedIn = await pageB.request.post(`${server.url}/api/session`, {
      data: { username: liaison.username, password: shown },
    });
    expect(signedIn.status()).toBe(200);
    expect((await signedIn.json()).user.mustChangePassword).toBe(true);
    await ctxA.close();
    await ctxB.close();
  });

  it('admin A asks to make a reviewer a liaison; admin B approves in Arabic and the role changes', async () => {
    const a = await account('synthetic-admin-c', 'admin');
    const b = await account('synthetic-admin-d', 'admin');
    const reviewer = await account('synthetic-reviewer', 'reviewer');
    const users = new UserRepository(server.ctx.store.db);

    const ctxA = await contextIn(browser, 'en', desktop);
    const pageA = await ctxA.newPage();
    await signIn(pageA, server.url, a);
    await pageA.goto(`${server.url}/users`);
    const row = pageA.locator(`tr[data-user="${reviewer.username}"]`);
    await row.locator('summary').click();
    await row.locator('select[name="role"]').selectOption('liaison');
    await row.getByRole('button', { name: 'Change the role' }).click();
    await pageA.waitForSelector('[data-role-change-requested]');
    expect(await pageA.textContent('[data-role-change-requested]')).toMatch(
      /Another administrator must approve/,
    );
    expect((await users.findByUsername(reviewer.username))?.role).toBe('reviewer');
    // The choice shows the role the account still has.
    expect(await row.locator('select[name="role"]').inputValue()).toBe('reviewer');
    const pendingA = pageA.locator(`[data-pending-requests] tr[data-request-for="${reviewer.username}"]`);
    await pendingA.waitFor();
    expect(await pendingA.getAttribute('data-request-kind')).toBe('role_change');
    expect(await pendingA.textContent()).toMatch(/Role: Family liaison/);
    expect(await pendingA.getByRole('button', { name: 'Approve the role change' }).count()).toBe(0);
    await screenshot(pageA, 'role-change-requested-en');

    const ctxB = await contextIn(browser, 'ar', desktop);
    const pageB = await ctxB.newPage();
    await signIn(pageB, server.url, b);
    await pageB.goto(`${server.url}/users`);
    const pendingB = pageB.locator(`[data-pending-requests] tr[data-request-for="${reviewer.username}"]`);
    await pendingB.waitFor();
    expect(await pageB.textContent('[data-pending-requests]')).toContain('يخفض دوره');
    await pendingB.getByRole('button', { name: 'وافق على تغيير الدور' }).click();
    await pendingB.waitFor({ state: 'detached' });
    expect(await pageB.textContent('[data-pending-requests]')).toContain('غُيّر الدور.');
    await screenshot(pageB, 'role-change-approved-ar');
    expect((await users.findByUsername(reviewer.username))?.role).toBe('liaison');
    await ctxA.close();
    await ctxB.close();
  });
});
