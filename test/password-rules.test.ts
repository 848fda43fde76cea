import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordChangeLimits } from '../src/access/account-rules.js';
import { isCommonPassword } from '../src/access/common-passwords.js';
import { type ApiHarness, createApi } from './api.js';
import { describeEachDialect } from './stores.js';

/** Passwords people choose (issue 21, Security 9): no common password, and no unlimited guesses at the current one. */
describe('common passwords', () => {
  it('refuses the commonest long passwords, words with digits after them, walks and repeats', () => {
    for (const common of [
      'password1234',
      'Password1234!',
      'P@ssw0rd2024!!',
      'qwertyuiop12',
      'welcomewelcome',
      'aaaaaaaaaaaa',
      'abababababab',
      '2345678901234',
      'abcdefghijklm',
      'Damascus2011!',
      'synthetic.user2024',
    ]) {
      expect(isCommonPassword(common, 'synthetic.user'), common).toBe(true);
    }
    for (const fine of [
      'correct-horse-battery-7',
      'tq8!vLm2#pZr',
      'سر طويل جدا للاختبار',
      'synthetic-test-password',
    ]) {
      expect(isCommonPassword(fine, 'synthetic.user'), fine).toBe(false);
    }
  });
});

describeEachDialect('POST /api/me/password', (store) => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await createApi(store());
  });
  afterAll(async () => api.close());

  it('refuses a common password, naming body.next', async () => {
    const user = await api.as('documenter');
    const res = await user.post('/api/me/password', {
      current: 'synthetic-test-password',
      next: 'Password1234!',
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json().errors)).toContain('body.next');
  });

  it(`limits guesses at the current password to ${passwordChangeLimits.max} per window, audited`, async () => {
    const clock = api.ctx.clock;
    const fixed = Date.now();
    Object.assign(api.ctx, { clock: () => fixed });
    try {
      const user = await api.as('reviewer');
      const next = 'a synthetic new passphrase';
      for (let i = 0; i < passwordChangeLimits.max; i++) {
        const guess = await user.post('/api/me/password', { current: `guess-${i}`, next });
        expect(guess.statusCode).toBe(400);
      }
      const refused = await user.post('/api/me/password', { current: 'synthetic-test-password', next });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const rows = await store()
        .db.selectFrom('audit_log')
        .select(['action', 'details'])
        .where('subject_id', '=', user.user?.id ?? '')
        .where('action', '=', 'password_change_failed')
        .execute();
      expect(rows.map((r) => JSON.parse(r.details ?? '{}').reason).sort()).toEqual([
        ...Array(passwordChangeLimits.max).fill('current'),
        'rate_limited',
      ]);
      expect(JSON.stringify(rows)).not.toContain('guess-');
    } finally {
      Object.assign(api.ctx, { clock });
    }
  });
});
