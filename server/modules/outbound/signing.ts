import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature`, space-separated `v1,<base64
 * HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64-decoded part of a `whsec_` secret.
 */

/** A new secret: `whsec_` + 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** `v1,<signature>` of one message with one secret. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers of one webhook: signed with every secret given (two during a rotation). */
export function webhookHeaders(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signatureOf(s, id, timestamp, body)).join(' '),
  };
}
