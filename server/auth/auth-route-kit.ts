// What the /auth/v1 route files share: the Bearer check, request details, limits and schemas.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { blockedMessage, redirectTarget, userNotFound } from './auth-common.ts';
import { GoTrueError } from './auth-errors.ts';
import {
  type AuthUser,
  type BearerProblem,
  bearerToken,
  inspectAccessToken,
  isApiKey,
} from './guard.ts';
import type { BucketRule, RateLimitStore } from './rate-limit.ts';
import { jwtSigner } from './tokens.ts';

/** The Fastify instance the /auth/v1 plugin registers its routes on. */
export type AuthApp = Parameters<FastifyPluginAsyncZod>[0];

/** A rate-limit hook of one bucket (see `limitHook`). */
export type LimitHook = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** What the route files get from the plugin besides the app. */
export type AuthRouteKit = {
  store: RateLimitStore;
  /** A hook keyed by bucket and client address; a null rule is no limit. */
  limit: (bucket: string, rule: BucketRule | null) => LimitHook;
  /** The refresh-token reuse window (contract §7). */
  reuseIntervalSeconds: number;
};

/** Takes one from the bucket at `key`, or answers 429 with its Retry-After and this message. */
export async function takeOrRefuse(
  store: RateLimitStore,
  reply: FastifyReply,
  key: string,
  rule: BucketRule,
  message: (retryAfterSeconds: number) => string,
): Promise<void> {
  const r = await store.take(key, rule);
  if (r.allowed) return;
  const seconds = Math.max(1, r.retryAfterSeconds);
  reply.header('retry-after', String(seconds));
  throw new GoTrueError(429, 'over_request_rate_limit', message(seconds));
}

export const RedirectQuery = z.object({ redirect_to: z.string().optional() });
export const Empty = z.object({});

/** The schema of a route that takes `redirect_to` and a body and answers `response`. */
export const redirectingSchema = <B extends z.ZodType, R extends z.ZodType>(
  body: B,
  response: R,
) => ({
  tags: ['auth'],
  querystring: RedirectQuery,
  body,
  response: { 200: response },
});

/** Where a mailed link leads: `redirect_to` or the Referer when allow-listed, else PUBLIC_URL. */
export const linkRedirect = (req: FastifyRequest<{ Querystring: { redirect_to?: string } }>) =>
  redirectTarget(
    req.server.config.publicUrl,
    req.query.redirect_to,
    typeof req.headers.referer === 'string' ? req.headers.referer : undefined,
  );

export const client = (req: FastifyRequest) => ({
  ip: req.ip,
  userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
});

/** A body read field by field (GoTrue ignores what it does not know; no body is fine). */
export const bodyOf = (req: FastifyRequest): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body)
    ? (req.body as Record<string, unknown>)
    : {};

/** GoTrue's answer to each way a Bearer token can be wrong. */
const BEARER_ERRORS: Record<BearerProblem, (expired: boolean) => GoTrueError> = {
  bad_jwt: (expired) =>
    new GoTrueError(
      403,
      'bad_jwt',
      expired
        ? 'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired'
        : 'invalid JWT: unable to parse or verify signature',
    ),
  bad_subject: () => new GoTrueError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID'),
  bad_audience: () => new GoTrueError(400, 'validation_failed', 'Invalid audience in the token'),
  user_not_found: userNotFound,
  session_not_found: () =>
    new GoTrueError(
      403,
      'session_not_found',
      'Session from session_id claim in JWT does not exist',
    ),
};

/** Checks the Bearer token GoTrue's way: 401 none, 403 bad or signed-out, 403 blocked. */
export async function bearerUser(req: FastifyRequest): Promise<AuthUser> {
  const token = bearerToken(req);
  if (!token) {
    throw new GoTrueError(401, 'no_authorization', 'This endpoint requires a Bearer token');
  }
  // A personal API key is for /api/v1 only: GoTrue's code for a token it will not take.
  if (isApiKey(token)) {
    throw new GoTrueError(
      403,
      'bad_jwt',
      'API keys work on /api/v1 only: /auth/v1 needs a signed-in session token',
    );
  }
  const check = await inspectAccessToken(req.server.db, await jwtSigner(req.server.config), token);
  if (!check.ok) throw BEARER_ERRORS[check.problem](check.expired ?? false);
  if (check.user.status === 'blocked') {
    throw new GoTrueError(403, 'user_banned', await blockedMessage(req.server.db));
  }
  return check.user;
}
