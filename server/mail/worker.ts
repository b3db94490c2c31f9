import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createTransport } from 'nodemailer';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';
import { keepAlive } from '../jobs/keep-alive.ts';
import { registerJob } from '../jobs/runtime.ts';
import { readStored } from '../storage/storage.ts';

/** What the worker needs from a mail transport; nodemailer's transporter fits. */
export type MailTransport = {
  sendMail(mail: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    messageId?: string;
    attachments?: { filename: string; content: Buffer; contentType: string }[];
  }): Promise<unknown>;
};

/** Reads an attachment's stored file (null when it is missing). */
export type ReadAttachment = (key: string) => Promise<Buffer | null>;

export type OutboxLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export type OutboxCounts = { claimed: number; sent: number; retried: number; failed: number };

/** After this many failed attempts a mail is marked failed and never tried again. */
export const MAX_ATTEMPTS = 8;
/** First retry after 30 s, then doubling: 30 s, 1 min, 2 min, … capped at one hour. */
export const BASE_BACKOFF_MS = 30_000;
export const MAX_BACKOFF_MS = 60 * 60_000;
/**
 * A claimed mail is hidden from other workers for this long, and the lease of the batch's unsent
 * mails is renewed every CLAIM_RENEW_MS while the worker sends. If the process dies mid-send,
 * its mails are due again within CLAIM_LEASE_MS (at-least-once rather than lost).
 */
export const CLAIM_LEASE_MS = 40_000;
export const CLAIM_RENEW_MS = 10_000;

/**
 * The Message-ID of an outbox row: the same on every attempt, so a mail re-sent after a crash
 * (the SMTP server accepted it, the process died before noting that) is recognisable.
 */
export function outboxMessageId(mailId: string, from: string): string {
  const domain = /@([^\s>]+)/.exec(from)?.[1] ?? 'portal.invalid';
  return `<outbox-${mailId}@${domain}>`;
}

/** The delay before the next try after `attempts` failed attempts (1-based). */
export function backoffMs(attempts: number): number {
  return Math.min(BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}

function errorText(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.slice(0, 1000);
}

/**
 * Claims up to `limit` due pending mails: one statement locks them with `for update skip locked`
 * and pushes next_attempt_at past a lease, so concurrent workers (other instances) never get the
 * same mail while this one sends it outside any transaction.
 */
async function claimDue(db: Db, limit: number) {
  return db.transaction(async (tx) => {
    const due = tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.createdAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    return tx
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now() + ${`${CLAIM_LEASE_MS} milliseconds`}::interval` })
      .where(and(inArray(mailOutbox.id, due), eq(mailOutbox.status, 'pending')))
      .returning();
  });
}

/**
 * Sends every due pending mail once: sent mails get status sent and sent_at; a failure counts an
 * attempt and schedules a retry with exponential backoff, or marks the mail failed after
 * MAX_ATTEMPTS. Safe to run concurrently from several processes.
 */
export async function processOutboxOnce(opts: {
  db: Db;
  transport: MailTransport;
  from: string;
  log?: OutboxLog;
  /** How many mails one call claims at most. */
  limit?: number;
  /** Checked between mails: when it returns true the rest of the batch is given back. */
  shouldStop?: () => boolean;
  /** Reads attachments from storage; a mail with attachments fails (and retries) without it. */
  readAttachment?: ReadAttachment;
}): Promise<OutboxCounts> {
  const { db, transport, from, log } = opts;
  const counts: OutboxCounts = { claimed: 0, sent: 0, retried: 0, failed: 0 };
  const claimed = await claimDue(db, opts.limit ?? 20);
  counts.claimed = claimed.length;
  if (claimed.length === 0) return counts;
  const unsent = new Set(claimed.map((m) => m.id));
  // Keeps the claim of the mails not yet sent alive while this process sends the others.
  const stopRenewing = keepAlive(
    CLAIM_RENEW_MS,
    async () => {
      if (unsent.size === 0) return;
      await db
        .update(mailOutbox)
        .set({ nextAttemptAt: sql`now() + ${`${CLAIM_LEASE_MS} milliseconds`}::interval` })
        .where(and(inArray(mailOutbox.id, [...unsent]), eq(mailOutbox.status, 'pending')));
    },
    (err) => log?.warn({ err }, 'mail claim renewal failed'),
  );
  try {
    for (const mail of claimed) {
      await sendOne(mail);
      unsent.delete(mail.id);
    }
  } finally {
    stopRenewing();
  }
  return counts;

  async function sendOne(mail: (typeof claimed)[number]) {
    if (opts.shouldStop?.()) {
      // Give the unsent rest back so another instance (or the next start) sends it at once.
      await db
        .update(mailOutbox)
        .set({ nextAttemptAt: sql`now()` })
        .where(and(eq(mailOutbox.id, mail.id), eq(mailOutbox.status, 'pending')));
      return;
    }
    try {
      const attachments = await Promise.all(
        mail.attachments.map(async (a) => {
          const content = await opts.readAttachment?.(a.key);
          if (!content) throw new Error(`The attachment ${a.filename} (${a.key}) is missing.`);
          return { filename: a.filename, content, contentType: a.contentType };
        }),
      );
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: outboxMessageId(mail.id, from),
        ...(attachments.length && { attachments }),
      });
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: sql`now()`, attempts: mail.attempts + 1, lastError: null })
        .where(eq(mailOutbox.id, mail.id));
      counts.sent += 1;
      log?.info({ mailId: mail.id, to: mail.to }, 'mail sent');
    } catch (err) {
      const attempts = mail.attempts + 1;
      const lastError = errorText(err);
      if (attempts >= MAX_ATTEMPTS) {
        await db
          .update(mailOutbox)
          .set({ status: 'failed', attempts, lastError })
          .where(eq(mailOutbox.id, mail.id));
        counts.failed += 1;
        log?.error({ mailId: mail.id, to: mail.to, attempts, err: lastError }, 'mail failed');
      } else {
        const delay = backoffMs(attempts);
        await db
          .update(mailOutbox)
          .set({
            attempts,
            lastError,
            nextAttemptAt: sql`now() + ${`${delay} milliseconds`}::interval`,
          })
          .where(eq(mailOutbox.id, mail.id));
        counts.retried += 1;
        log?.warn(
          { mailId: mail.id, to: mail.to, attempts, retryInMs: delay, err: lastError },
          'mail not sent; will retry',
        );
      }
    }
  }
}

export type MailPluginOptions = {
  /** Pause between polls of the outbox. */
  pollIntervalMs?: number;
  /** A transport to use instead of SMTP_URL (tests). */
  transport?: MailTransport & { close?: () => void };
};

/**
 * Runs the outbox worker as the instance job `mail-outbox` when SMTP_URL is set (or a transport
 * is given): a first poll on onReady, then one every pollIntervalMs after the previous ended; on
 * close the mail in flight finishes and the transport closes. Without SMTP mails stay pending
 * for the dev mailbox.
 */
export const mailPlugin = fp<MailPluginOptions>(
  async (app: FastifyInstance, opts) => {
    const { config } = app;
    if (!config.smtpUrl && !opts.transport) return;
    const transport =
      opts.transport ??
      createTransport({
        url: config.smtpUrl,
        pool: true,
        maxConnections: 2,
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 60_000,
      });
    registerJob(app, {
      name: 'mail-outbox',
      scope: 'instance',
      everyMs: opts.pollIntervalMs ?? 3000,
      firstRunMs: 0,
      run: async ({ db, log, stopping }) => {
        // Drain everything due, a batch at a time, before sleeping again. Draining (SIGTERM) or
        // closing: no new claims; the unsent rest goes back to the others.
        for (;;) {
          const counts = await processOutboxOnce({
            db,
            transport,
            from: config.mailFrom,
            log,
            shouldStop: stopping,
            readAttachment: (key) => readStored(app.storage, key),
          });
          if (stopping() || counts.claimed === 0) return;
        }
      },
      onStop: async () => (transport as { close?: () => void }).close?.(),
    });
  },
  { name: 'mail-worker' },
);
