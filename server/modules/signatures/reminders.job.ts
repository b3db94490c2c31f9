import type { FastifyInstance } from 'fastify';
import { registerJob } from '../../jobs/runtime.ts';
import { sendExpiryReminders } from './sign.service.ts';

/** How often expiring signatures are looked for; each reminder is sent once (30, 7, 1 days). */
export const REMINDER_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Mails the expiry reminders due, once per period across all instances. */
export function registerSignatureReminders(app: FastifyInstance): void {
  registerJob(app, {
    name: 'signature-expiry-reminders',
    scope: 'cluster',
    everyMs: REMINDER_SWEEP_INTERVAL_MS,
    run: ({ db }) => sendExpiryReminders({ db, publicUrl: app.config.publicUrl }),
  });
}
