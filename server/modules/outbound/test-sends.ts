import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../../auth/guard.ts';
import { AppError } from '../../errors.ts';

/**
 * The Test buttons (a publisher's postback, an admin's for a publisher, a webhook endpoint's)
 * send a real request to a URL the caller chose: at most this many a minute per user (the
 * app's rate-limit store, so shared by the instances when Redis is on), so a Test cannot be
 * used to send our requests at someone else's server in a loop.
 */
export const TEST_SENDS_PER_MINUTE = 10;

/** Takes one test send for the signed-in user, or answers 429 with Retry-After. */
export async function takeTestSend(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const rule = { capacity: TEST_SENDS_PER_MINUTE, refillPerSecond: TEST_SENDS_PER_MINUTE / 60 };
  const taken = await req.server.rateLimits.take(`outbound-test:${currentUser(req).id}`, rule);
  if (taken.allowed) return;
  const seconds = Math.max(1, taken.retryAfterSeconds);
  reply.header('retry-after', String(seconds));
  throw new AppError(
    'rate_limited',
    `Too many tests: at most ${TEST_SENDS_PER_MINUTE} a minute. Try again in ${seconds} s.`,
  );
}
