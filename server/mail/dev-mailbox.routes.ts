import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { wholeNumber } from '../config.ts';
import { notFound } from '../errors.ts';
import { getOutboxMail, listOutboxMails } from './dev-mailbox.service.ts';
import { renderMailboxPage } from './dev-mailbox.view.ts';

const ListQuery = z.object({
  to: z.string().trim().max(320, { error: 'to must be an e-mail address' }).optional(),
  limit: wholeNumber('limit must be a number from 1 to 1000', 1, 1000).default(100),
});

/** One mail as the dev mailbox JSON shows it. */
export const DevMail = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  created_at: z.string(),
});

const IdParams = z.object({ id: z.uuid({ error: 'id must be a mail id (a UUID)' }) });

/**
 * The sandbox the mail HTML runs in: no scripts, no same-origin access, only inline styles and
 * images, so a mail cannot act as the portal.
 */
const mailHtmlCsp = [
  'sandbox allow-popups allow-popups-to-escape-sandbox',
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data: http: https:',
  "frame-ancestors 'self'",
].join('; ');

/** /dev/mail: the outbox as a page and as JSON; registered only when config.devMailbox is on. */
export const devMailboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/dev/mail', { schema: { hide: true, querystring: ListQuery } }, async (req, reply) => {
    const to = req.query.to || undefined;
    const mails = await listOutboxMails({ db: app.db, to, limit: req.query.limit });
    reply.header('cache-control', 'no-store');
    return reply.type('text/html; charset=utf-8').send(renderMailboxPage({ mails, to }));
  });

  app.get(
    '/dev/mail/messages',
    { schema: { hide: true, querystring: ListQuery, response: { 200: z.array(DevMail) } } },
    async (req, reply) => {
      const mails = await listOutboxMails({
        db: app.db,
        to: req.query.to || undefined,
        limit: req.query.limit,
      });
      reply.header('cache-control', 'no-store');
      return mails.map((m) => ({
        id: m.id,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        created_at: m.createdAt.toISOString(),
      }));
    },
  );

  app.get(
    '/dev/mail/messages/:id/html',
    { schema: { hide: true, params: IdParams } },
    async (req, reply) => {
      const mail = await getOutboxMail({ db: app.db, id: req.params.id });
      if (!mail) throw notFound('Mail');
      reply.header('content-security-policy', mailHtmlCsp);
      reply.header('cache-control', 'no-store');
      return reply.type('text/html; charset=utf-8').send(mail.html);
    },
  );
};
