import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEmailAddress } from '../../contract/email.ts';
import { fieldRules } from '../../web/features/auth/auth-errors.ts';
import { loadConfig } from '../config.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';

// The server and the forms agree address by address: whatever /signup takes, the form takes.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const addresses = [
  'newcomer@localhost',
  'pat.lee+x@mail.example.com',
  'no-at-sign.example.com',
  'two@@example.com',
  'space in@example.com',
  'dash@-bad.com',
];

describe('one e-mail rule on the server and in the forms', () => {
  it.each(addresses)('%s: sign-up answer and form verdict agree', async (email) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      headers: { 'x-supabase-api-version': '2024-01-01' },
      payload: { email, password: 'a-good-password', data: { full_legal_name: 'Pat' } },
    });
    const formAccepts = fieldRules.email(email) === null;
    expect(res.statusCode === 200, res.body).toBe(formAccepts);
    expect(isEmailAddress(email)).toBe(formAccepts);
    if (!formAccepts) expect(res.json().error_code).toBe('validation_failed');
  });

  it('ADMIN_EMAIL=admin@localhost is a valid setting', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: 'x'.repeat(32),
      DATA_DIR: '/tmp',
      ADMIN_EMAIL: 'Admin@LocalHost',
    });
    expect(config.adminEmail).toBe('admin@localhost');
    expect(() =>
      loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), ADMIN_EMAIL: 'nope' }),
    ).toThrow('ADMIN_EMAIL must be an e-mail address');
  });
});
