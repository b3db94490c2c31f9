import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { linkify } from './dev-mailbox.view.ts';
import { enqueueMail } from './outbox.ts';

let t: TestApp;
const ids: Record<string, string> = {};

/** Enqueues in separate transactions so each mail has its own created_at. */
async function enqueue(to: string, subject: string, text: string, html: string) {
  await enqueueMail(t.db, { to, subject, text, html });
  const res = await t.app.inject(`/dev/mail/messages?to=${encodeURIComponent(to)}`);
  ids[subject] = res.json()[0].id;
}

beforeAll(async () => {
  t = await buildTestApp();
  await enqueue('first@example.test', 'First mail', 'Oldest one.', '<p>first</p>');
  await enqueue(
    'Ana@Example.test',
    'Confirm <your> account',
    'Hi <b>Ana</b> & co,\nConfirm: http://localhost:3000/auth/confirm?token=abc&type=signup.\nBye',
    '<p>Hi <b>Ana</b></p><script>alert(1)</script>',
  );
  await enqueue('third@example.test', 'Third mail', 'Newest one.', '<p>third</p>');
});
afterAll(() => t?.close());

describe('GET /dev/mail/messages', () => {
  it('lists every mail newest first with exactly id, to, subject, text, html, created_at', async () => {
    const res = await t.app.inject('/dev/mail/messages');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const list = res.json() as Record<string, string>[];
    expect(list.map((m) => m.subject)).toEqual([
      'Third mail',
      'Confirm <your> account',
      'First mail',
    ]);
    expect(Object.keys(list[1]!).sort()).toEqual(
      ['created_at', 'html', 'id', 'subject', 'text', 'to'].sort(),
    );
    expect(list[1]).toMatchObject({
      id: ids['Confirm <your> account'],
      to: 'Ana@Example.test',
      html: '<p>Hi <b>Ana</b></p><script>alert(1)</script>',
    });
    expect(new Date(list[0]!.created_at!).getTime()).toBeGreaterThanOrEqual(
      new Date(list[2]!.created_at!).getTime(),
    );
  });

  it('filters by recipient, ignoring case', async () => {
    const res = await t.app.inject('/dev/mail/messages?to=ana@example.TEST');
    expect(res.json().map((m: { subject: string }) => m.subject)).toEqual([
      'Confirm <your> account',
    ]);
    const none = await t.app.inject('/dev/mail/messages?to=nobody@example.test');
    expect(none.json()).toEqual([]);
  });

  it('answers a bad limit with a 400 that says what is expected', async () => {
    const res = await t.app.inject('/dev/mail/messages?limit=abc');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(res.json().error.message).toContain('limit must be a number from 1 to 1000');
    const one = await t.app.inject('/dev/mail/messages?limit=1');
    expect(one.json()).toHaveLength(1);
  });
});

describe('GET /dev/mail', () => {
  it('is an HTML page, newest first, with links clickable and everything escaped, without scripts', async () => {
    const res = await t.app.inject('/dev/mail');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const page = res.body;
    expect(page).not.toMatch(/<script/i);
    expect(page.indexOf('Third mail')).toBeLessThan(page.indexOf('Confirm &lt;your&gt; account'));
    expect(page.indexOf('Confirm &lt;your&gt; account')).toBeLessThan(page.indexOf('First mail'));
    expect(page).toContain('Hi &lt;b&gt;Ana&lt;/b&gt; &amp; co,');
    // The URL is a link; the sentence's full stop is not part of it.
    expect(page).toContain(
      '<a href="http://localhost:3000/auth/confirm?token=abc&amp;type=signup" target="_blank" rel="noopener noreferrer">http://localhost:3000/auth/confirm?token=abc&amp;type=signup</a>.',
    );
    expect(page).toContain('Ana@Example.test');
    // The HTML body is shown in a sandboxed frame, never inlined.
    const id = ids['Confirm <your> account'];
    expect(page).toMatch(
      new RegExp(`<iframe[^>]*src="/dev/mail/messages/${id}/html"[^>]*sandbox="allow-popups`),
    );
  });

  it('filters by recipient and escapes the filter value', async () => {
    const res = await t.app.inject('/dev/mail?to=first@example.test');
    expect(res.body).toContain('First mail');
    expect(res.body).not.toContain('Third mail');
    const odd = await t.app.inject(`/dev/mail?to=${encodeURIComponent('"><img src=x>')}`);
    expect(odd.statusCode).toBe(200);
    expect(odd.body).not.toContain('"><img src=x>');
    expect(odd.body).toContain('No mails to <strong>&quot;&gt;&lt;img src=x&gt;</strong> yet.');
  });
});

describe('GET /dev/mail/messages/:id/html', () => {
  it('serves the HTML body under a sandboxing CSP that allows no script', async () => {
    const id = ids['Confirm <your> account'];
    const res = await t.app.inject(`/dev/mail/messages/${id}/html`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toBe('<p>Hi <b>Ana</b></p><script>alert(1)</script>');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/^sandbox /);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script');
  });

  it('answers an unknown id with a JSON 404 and a malformed id with a 400', async () => {
    const missing = await t.app.inject(`/dev/mail/messages/${randomUUID()}/html`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
    const bad = await t.app.inject('/dev/mail/messages/not-an-id/html');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('id must be a mail id');
  });
});

describe('linkify', () => {
  it('links http and https URLs, keeps trailing punctuation outside, and escapes the rest', () => {
    expect(linkify('See (https://a.test/x?y=1&z=2), then <stop>.')).toBe(
      'See (<a href="https://a.test/x?y=1&amp;z=2" target="_blank" rel="noopener noreferrer">https://a.test/x?y=1&amp;z=2</a>), then &lt;stop&gt;.',
    );
    expect(linkify('javascript:alert(1) ftp://x.test')).toBe('javascript:alert(1) ftp://x.test');
    expect(linkify('"http://a.test/"onmouseover="x"')).toBe(
      '&quot;<a href="http://a.test/" target="_blank" rel="noopener noreferrer">http://a.test/</a>&quot;onmouseover=&quot;x&quot;',
    );
  });
});

describe('when the dev mailbox is off', () => {
  it('answers /dev/mail paths with the JSON 404 in production', async () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'portal-prod-')),
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
    });
    expect(config.devMailbox).toBe(false);
    const app = await buildApp({ config, database: t.database, logger: false });
    try {
      for (const url of [
        '/dev/mail',
        '/dev/mail/messages',
        `/dev/mail/messages/${ids['First mail']}/html`,
      ]) {
        const res = await app.inject(url);
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toContain('application/json');
        expect(res.json().error.code).toBe('not_found');
        expect(res.body).not.toContain('First mail');
      }
    } finally {
      await app.close();
    }
  });
});
