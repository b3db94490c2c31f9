import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, inArray, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { createTransport } from 'nodemailer';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { mailOutbox } from '../db/schema.ts';
import { readStored } from '../storage/storage.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { mailsTo } from '../test/gotrue.ts';
import { enqueueMail } from './outbox.ts';
import { getMailBrand, publisherApprovedMail } from './templates.ts';
import { startTestSmtpServer, type TestSmtpServer } from './test-smtp.ts';
import { backoffMs, MAX_ATTEMPTS, mailPlugin, processOutboxOnce } from './worker.ts';

let t: TestApp;
let smtp: TestSmtpServer;
const from = 'Portal Test <no-reply@portal.test>';

const transportFor = () => createTransport({ url: smtp.url, ignoreTLS: true });

const addr = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}@example.test`;

async function rowFor(to: string) {
  const [row] = await mailsTo(t.db, to);
  return row;
}

beforeAll(async () => {
  smtp = await startTestSmtpServer({ slowMs: 600 });
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('processOutboxOnce with a real SMTP server', () => {
  it('delivers a pending mail with From, To, subject, text and HTML parts and marks it sent', async () => {
    const to = addr('ana');
    const text =
      'Hello Ana,\n\nConfirm here: http://localhost:3000/confirm?token=abc&x=1\n\nThanks';
    const html =
      '<p>Hello <b>Ana</b>, <a href="http://localhost:3000/confirm?token=abc">confirm</a></p>';
    await enqueueMail(t.db, { to, subject: 'Confirm your account', text, html });

    const counts = await processOutboxOnce({ db: t.db, transport: transportFor(), from });
    expect(counts).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });

    const got = await smtp.waitFor(to);
    expect(got.envelopeTo).toEqual([to]);
    expect(got.envelopeFrom).toBe('no-reply@portal.test');
    expect(got.from).toContain('Portal Test');
    expect(got.from).toContain('<no-reply@portal.test>');
    expect(got.to).toContain(to);
    expect(got.subject).toBe('Confirm your account');
    expect(got.text?.trimEnd()).toBe(text);
    expect(got.html?.trimEnd()).toBe(html);

    const row = await rowFor(to);
    expect(row?.status).toBe('sent');
    expect(row?.sentAt).toBeInstanceOf(Date);
    expect(row?.attempts).toBe(1);

    // Nothing is sent twice: a second run finds nothing due.
    const again = await processOutboxOnce({ db: t.db, transport: transportFor(), from });
    expect(again.claimed).toBe(0);
    expect(smtp.received.filter((m) => m.envelopeTo.includes(to))).toHaveLength(1);
  });

  it('sends the publisher-approved mail with the company name and support e-mail from settings', async () => {
    const to = addr('pub');
    const brand = await getMailBrand(t.db);
    const mail = publisherApprovedMail(brand, {
      name: 'Pat <Publisher>',
      loginUrl: 'http://localhost:3000/login',
    });
    await enqueueMail(t.db, { to, ...mail });
    await processOutboxOnce({ db: t.db, transport: transportFor(), from });

    const got = await smtp.waitFor(to);
    expect(got.subject).toBe(mail.subject);
    expect(got.subject).toContain(brand.companyName);
    expect(got.text).toContain('http://localhost:3000/login');
    expect(got.text).toContain(brand.supportEmail);
    expect(got.html).toContain('Pat &lt;Publisher&gt;');
    expect(got.html).toContain(`mailto:${brand.supportEmail}`);
  });

  it('never sends a mail whose transaction rolled back', async () => {
    const to = addr('rolled');
    await expect(
      t.db.transaction(async (tx) => {
        await enqueueMail(tx, { to, subject: 'Should not exist', text: 'x', html: '<p>x</p>' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');

    const counts = await processOutboxOnce({ db: t.db, transport: transportFor(), from });
    expect(counts.claimed).toBe(0);
    expect(await rowFor(to)).toBeUndefined();
    expect(smtp.rcptSeen).not.toContain(to);
  });

  it('retries a rejected mail with exponential backoff and marks it failed after the maximum', async () => {
    const to = addr('reject');
    await enqueueMail(t.db, { to, subject: 'Bounce me', text: 'x', html: '<p>x</p>' });

    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const counts = await processOutboxOnce({ db: t.db, transport: transportFor(), from });
      const row = await rowFor(to);
      expect(row?.attempts).toBe(attempt);
      expect(row?.lastError).toContain('Mailbox unavailable');
      if (attempt < MAX_ATTEMPTS) {
        expect(counts).toMatchObject({ claimed: 1, retried: 1, sent: 0, failed: 0 });
        expect(row?.status).toBe('pending');
        const delay = row!.nextAttemptAt.getTime() - Date.now();
        expect(delay).toBeGreaterThan(backoffMs(attempt) - 5000);
        expect(delay).toBeLessThanOrEqual(backoffMs(attempt) + 1000);
        // Not due yet: the next run leaves it alone.
        expect(
          (await processOutboxOnce({ db: t.db, transport: transportFor(), from })).claimed,
        ).toBe(0);
        // Let the clock "pass" for the next round.
        await t.db
          .update(mailOutbox)
          .set({ nextAttemptAt: sql`now()` })
          .where(eq(mailOutbox.to, to));
      } else {
        expect(counts).toMatchObject({ claimed: 1, failed: 1, sent: 0, retried: 0 });
        expect(row?.status).toBe('failed');
      }
    }

    // A failed mail is never picked up again, even when due.
    await t.db.update(mailOutbox).set({ nextAttemptAt: sql`now()` }).where(eq(mailOutbox.to, to));
    expect((await processOutboxOnce({ db: t.db, transport: transportFor(), from })).claimed).toBe(
      0,
    );
    expect(smtp.rcptSeen.filter((r) => r === to)).toHaveLength(MAX_ATTEMPTS);
    expect(smtp.received.some((m) => m.envelopeTo.includes(to))).toBe(false);
  });

  it('sends a stored file as an attachment (the row keeps its key) and retries when it is missing', async () => {
    const to = addr('att');
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    const pdf = Buffer.from(await doc.save());
    const stored = await t.app.storage.putFile({
      bucket: 'marketing_agreements',
      owner: randomUUID(),
      filename: 'Agreement (signed).pdf',
      stream: Readable.from(pdf),
      accept: ['pdf'],
    });
    const attachment = {
      key: stored.key,
      filename: 'Agreement (signed).pdf',
      contentType: 'application/pdf',
    };
    await enqueueMail(t.db, {
      to,
      subject: 'Signed',
      text: 'x',
      html: '<p>x</p>',
      attachments: [attachment],
    });
    expect((await rowFor(to))?.attachments).toEqual([attachment]);
    const readAttachment = (key: string) => readStored(t.app.storage, key);
    const counts = await processOutboxOnce({
      db: t.db,
      transport: transportFor(),
      from,
      readAttachment,
    });
    expect(counts.sent).toBe(1);
    const got = await smtp.waitFor(to);
    expect(got.text?.trimEnd()).toBe('x');
    expect(got.attachments).toEqual([
      { filename: 'Agreement (signed).pdf', contentType: 'application/pdf', content: pdf },
    ]);

    const gone = addr('gone');
    await enqueueMail(t.db, {
      to: gone,
      subject: 'Signed',
      text: 'x',
      html: '<p>x</p>',
      attachments: [{ ...attachment, key: 'marketing_agreements/none/missing.pdf' }],
    });
    const again = await processOutboxOnce({
      db: t.db,
      transport: transportFor(),
      from,
      readAttachment,
    });
    expect(again).toMatchObject({ sent: 0, retried: 1 });
    expect((await rowFor(gone))?.lastError).toContain('attachment Agreement (signed).pdf');
    expect(smtp.rcptSeen).not.toContain(gone);
  });

  it('grows the backoff from 30 s, doubling, capped at one hour', () => {
    expect(backoffMs(1)).toBe(30_000);
    expect(backoffMs(2)).toBe(60_000);
    expect(backoffMs(3)).toBe(120_000);
    expect(backoffMs(20)).toBe(60 * 60_000);
  });

  it('never sends one mail twice when several workers run at the same time', async () => {
    const recipients = Array.from({ length: 12 }, (_, i) => addr(`many${i}`));
    for (const to of recipients) {
      await enqueueMail(t.db, { to, subject: `Mail for ${to}`, text: 'hi', html: '<p>hi</p>' });
    }
    const drain = async () => {
      const transport = transportFor();
      let sent = 0;
      for (;;) {
        const c = await processOutboxOnce({ db: t.db, transport, from, limit: 2 });
        sent += c.sent;
        if (c.claimed === 0) return sent;
      }
    };
    const sentByWorker = await Promise.all([drain(), drain(), drain()]);
    expect(sentByWorker.reduce((a, b) => a + b, 0)).toBe(recipients.length);
    for (const to of recipients) {
      expect(smtp.received.filter((m) => m.envelopeTo.includes(to))).toHaveLength(1);
    }
    const rows = await t.db.select().from(mailOutbox).where(inArray(mailOutbox.to, recipients));
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });
});

describe('mailPlugin', () => {
  it('with SMTP_URL set, the app sends queued mail on start and the dev mailbox is off', async () => {
    const to = addr('boot');
    await enqueueMail(t.db, { to, subject: 'Sent at start', text: 'hi', html: '<p>hi</p>' });
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'portal-mail-')),
      JWT_SECRET: randomBytes(32).toString('hex'),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Brand <brand@portal.test>',
      LOG_LEVEL: 'silent',
    });
    expect(config.devMailbox).toBe(false);
    const app = await buildApp({ config, database: t.database, logger: false });
    try {
      await app.ready();
      const got = await smtp.waitFor(to);
      expect(got.from).toContain('brand@portal.test');

      for (const url of ['/dev/mail', '/dev/mail/messages']) {
        const res = await app.inject(url);
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
    } finally {
      await app.close();
    }
    const row = await rowFor(to);
    expect(row?.status).toBe('sent');
  });

  it('polls for new mail, finishes the mail in flight on close, and sends nothing after', async () => {
    const app = Fastify({ logger: false });
    app.decorate('config', { ...t.config, smtpUrl: smtp.url, mailFrom: from });
    app.decorate('db', t.db);
    await app.register(mailPlugin, { pollIntervalMs: 100 });
    await app.ready();

    // Enqueued after start: picked up by a poll.
    const later = addr('later');
    await enqueueMail(t.db, { to: later, subject: 'Polled', text: 'hi', html: '<p>hi</p>' });
    await smtp.waitFor(later, 5000);

    // A slow mail is in flight when close starts; close waits for it.
    const slow = addr('slow');
    await enqueueMail(t.db, { to: slow, subject: 'Slow', text: 'hi', html: '<p>hi</p>' });
    const deadline = Date.now() + 5000;
    while (!smtp.rcptSeen.includes(slow) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(smtp.rcptSeen).toContain(slow);
    await app.close();
    expect((await rowFor(slow))?.status).toBe('sent');
    expect(smtp.received.some((m) => m.envelopeTo.includes(slow))).toBe(true);

    // Stopped: a new mail stays pending.
    const after = addr('after');
    await enqueueMail(t.db, { to: after, subject: 'After close', text: 'hi', html: '<p>hi</p>' });
    await new Promise((r) => setTimeout(r, 400));
    expect((await rowFor(after))?.status).toBe('pending');
    expect(smtp.rcptSeen).not.toContain(after);
    // Leave nothing due for other tests.
    await t.db.delete(mailOutbox).where(eq(mailOutbox.to, after));
  });
});
