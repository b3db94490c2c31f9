import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GoTrueSession, GoTrueUser } from '../../contract/auth.ts';
import {
  blockedMessage,
  getGoTrueUser,
  REFRESH_REUSE_INTERVAL_SECONDS,
  redirectTarget,
  refreshSession,
  requestReauthentication,
  requestRecovery,
  resend,
  signInWithPassword,
  signOut,
  signUp,
  updateUser,
  verifyEmailLink,
} from './auth.service.ts';
import {
  API_VERSION,
  API_VERSION_HEADER,
  GoTrueError,
  sendGoTrueError,
  toGoTrueError,
  wantsVersionedErrors,
} from './auth-errors.ts';
import { type AuthUser, bearerToken, inspectAccessToken } from './guard.ts';
import { challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from './mfa.service.ts';
import {
  type BucketRule,
  fiveMinuteRule,
  MemoryRateLimitStore,
  type RateLimitStore,
  RedisRateLimitStore,
  redisLimitEvents,
} from './rate-limit.ts';
import { jwks, jwtSigner } from './tokens.ts';

/** Verify attempts per factor, from any address: 5 at once, then one a minute. */
const MFA_FACTOR_VERIFY_RULE: BucketRule = { capacity: 5, refillPerSecond: 1 / 60 };

export type AuthRoutesOptions = {
  /** Where rate-limit buckets live; default: Redis when REDIS_URL is set, else memory. */
  rateLimitStore?: RateLimitStore;
  /** The refresh-token reuse window (contract §7); 10 s unless a test shortens it. */
  reuseIntervalSeconds?: number;
};

const Metadata = z.record(z.string(), z.unknown());
const SignupBody = z.looseObject({
  email: z.string().optional(),
  password: z.string().optional(),
  data: Metadata.nullish(),
});
const TokenBody = z.looseObject({
  email: z.string().optional(),
  phone: z.string().optional(),
  password: z.string().optional(),
  refresh_token: z.string().optional(),
  grant_type: z.string().optional(),
});
const UpdateUserBody = z.looseObject({
  password: z.string().optional(),
  email: z.string().optional(),
  data: Metadata.nullish(),
  nonce: z.string().max(100).optional(),
});
const ResendBody = z.looseObject({
  type: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
});
const RecoverBody = z.looseObject({ email: z.string().optional() });
const RedirectQuery = z.object({ redirect_to: z.string().optional() });
const Empty = z.object({});

/** The external providers GoTrue's /settings lists; all off here (e-mail and password only). */
const EXTERNAL_PROVIDERS = [
  'anonymous_users',
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'keycloak',
  'kakao',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'spotify',
  'slack',
  'slack_oidc',
  'workos',
  'twitch',
  'twitter',
  'phone',
  'zoom',
] as const;

/** The issuers GoTrue knows for the id_token grant (all disabled here). */
const OIDC_ISSUERS: Record<string, string> = {
  apple: 'https://appleid.apple.com',
  azure: 'https://login.microsoftonline.com/common/v2.0',
  facebook: 'https://www.facebook.com',
  google: 'https://accounts.google.com',
  keycloak: 'keycloak',
  kakao: 'https://kauth.kakao.com',
};

/**
 * Features this server does not offer answer what GoTrue answers when they are turned off,
 * so auth-js apps get the error code they already handle instead of a 404.
 */
function registerDisabledFeatures(app: Parameters<typeof authRoutes>[0]) {
  const otpDisabled = async (req: FastifyRequest) => {
    const body = (req.body ?? {}) as { phone?: unknown };
    if (body.phone)
      throw new GoTrueError(400, 'phone_provider_disabled', 'Phone logins are disabled');
    throw new GoTrueError(422, 'otp_disabled', 'Signups not allowed for otp');
  };
  app.post('/otp', { schema: { hide: true } }, otpDisabled);
  app.post('/magiclink', { schema: { hide: true } }, otpDisabled);
  app.get('/authorize', { schema: { hide: true } }, async (req) => {
    const provider = String((req.query as { provider?: unknown }).provider ?? '');
    if (!provider)
      throw new GoTrueError(400, 'validation_failed', 'Unsupported provider: provider is required');
    throw new GoTrueError(
      400,
      'validation_failed',
      'Unsupported provider: provider is not enabled',
    );
  });
  const samlDisabled = async () => {
    throw new GoTrueError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled');
  };
  app.post('/sso', { schema: { hide: true } }, samlDisabled);
  app.get('/sso/saml/metadata', { schema: { hide: true } }, samlDisabled);
  app.post('/sso/saml/acs', { schema: { hide: true } }, samlDisabled);
  app.get('/user/identities/authorize', { schema: { hide: true } }, async (req) => {
    await bearerUser(req);
    throw new GoTrueError(404, 'manual_linking_disabled', 'Manual linking is disabled');
  });
  app.delete('/user/identities/:id', { schema: { hide: true } }, async (req) => {
    await bearerUser(req);
    throw new GoTrueError(404, 'manual_linking_disabled', 'Manual linking is disabled');
  });
}

/** Checks the Bearer token GoTrue's way: 401 none, 403 bad or signed-out, 403 blocked. */
async function bearerUser(req: FastifyRequest): Promise<AuthUser> {
  const token = bearerToken(req);
  if (!token) {
    throw new GoTrueError(401, 'no_authorization', 'This endpoint requires a Bearer token');
  }
  const check = await inspectAccessToken(req.server.db, await jwtSigner(req.server.config), token);
  if (!check.ok) {
    switch (check.problem) {
      case 'bad_jwt':
        throw new GoTrueError(
          403,
          'bad_jwt',
          check.expired
            ? 'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired'
            : 'invalid JWT: unable to parse or verify signature',
        );
      case 'bad_subject':
        throw new GoTrueError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
      case 'bad_audience':
        throw new GoTrueError(400, 'validation_failed', 'Invalid audience in the token');
      case 'user_not_found':
        throw new GoTrueError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
      case 'session_not_found':
        throw new GoTrueError(
          403,
          'session_not_found',
          'Session from session_id claim in JWT does not exist',
        );
    }
  }
  if (check.user.status === 'blocked') {
    throw new GoTrueError(403, 'user_banned', await blockedMessage(req.server.db));
  }
  return check.user;
}

const client = (req: FastifyRequest) => ({
  ip: req.ip,
  userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
});

const referer = (req: FastifyRequest) =>
  typeof req.headers.referer === 'string' ? req.headers.referer : undefined;

/**
 * The GoTrue-compatible `/auth/v1` API for `@supabase/auth-js` (gotrue-contract.md). Its own
 * error handler answers GoTrue's error bodies; register it with prefix '/auth/v1'.
 */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, opts) => {
  const { config } = app;
  const store =
    opts.rateLimitStore ??
    (config.redisUrl
      ? new RedisRateLimitStore(config.redisUrl, redisLimitEvents(app))
      : new MemoryRateLimitStore());
  if (!opts.rateLimitStore) app.addHook('onClose', () => store.close());
  const reuseIntervalSeconds = opts.reuseIntervalSeconds ?? REFRESH_REUSE_INTERVAL_SECONDS;

  // Keyed by the client address as TRUST_PROXY defines it (req.ip); 0 turns a limit off.
  const limit =
    (bucket: string, rule: BucketRule | null) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      if (!rule) return;
      const r = await store.take(`${bucket}:${req.ip}`, rule);
      if (!r.allowed) {
        reply.header('retry-after', String(Math.max(1, r.retryAfterSeconds)));
        throw new GoTrueError(429, 'over_request_rate_limit', 'Request rate limit reached');
      }
    };
  const limits = config.authRateLimits;
  const tokenLimit = limit('token', fiveMinuteRule(limits.token));
  const signupLimit = limit('signup', fiveMinuteRule(limits.signup));
  const recoverLimit = limit('recover', fiveMinuteRule(limits.recover));
  const verifyLimit = limit('verify', fiveMinuteRule(limits.verify));
  const userUpdateLimit = limit('user', fiveMinuteRule(limits.userUpdate));

  app.setErrorHandler((err, req, reply) => {
    const e = toGoTrueError(err as Error);
    if (e.status >= 500) req.log.error({ err, reqId: req.id }, 'auth request failed');
    return sendGoTrueError(req, reply, e);
  });
  app.setNotFoundHandler((req, reply) =>
    sendGoTrueError(
      req,
      reply,
      new GoTrueError(404, 'not_found', `No auth endpoint ${req.method} ${req.url.split('?')[0]}`),
    ),
  );
  app.addHook('onSend', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    if (wantsVersionedErrors(req)) reply.header(API_VERSION_HEADER, API_VERSION);
  });

  // auth-js sends `Content-Type: application/json` even with no body (POST /logout).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(
        new GoTrueError(400, 'bad_json', 'Could not parse the request body as JSON.'),
        undefined,
      );
    }
  });
  // GoTrue also reads grant_type and credentials from a form body.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.post(
    '/signup',
    {
      onRequest: signupLimit,
      schema: {
        tags: ['auth'],
        querystring: RedirectQuery,
        body: SignupBody,
        response: { 200: z.union([GoTrueSession, GoTrueUser]) },
      },
    },
    async (req) => {
      if (!req.body.email && !(req.body as { phone?: unknown }).phone) {
        throw new GoTrueError(
          422,
          'anonymous_provider_disabled',
          'Anonymous sign-ins are disabled',
        );
      }
      const result = await signUp({
        db: app.db,
        config,
        ...client(req),
        input: {
          email: req.body.email,
          password: req.body.password,
          data: req.body.data ?? undefined,
        },
        redirectTo: redirectTarget(config.publicUrl, req.query.redirect_to, referer(req)),
      });
      return 'session' in result ? result.session : result.user;
    },
  );

  app.post(
    '/token',
    {
      onRequest: tokenLimit,
      schema: {
        tags: ['auth'],
        querystring: z.object({ grant_type: z.string().optional() }),
        body: TokenBody,
        response: { 200: GoTrueSession },
      },
    },
    async (req) => {
      const grantType = req.query.grant_type ?? req.body.grant_type;
      if (grantType === 'password') {
        return signInWithPassword({ db: app.db, config, ...client(req), input: req.body });
      }
      if (grantType === 'refresh_token') {
        return refreshSession({
          db: app.db,
          config,
          refreshToken: req.body.refresh_token,
          reuseIntervalSeconds,
        });
      }
      if (grantType === 'id_token') {
        const provider = String((req.body as { provider?: unknown }).provider ?? '');
        const issuer = OIDC_ISSUERS[provider];
        if (!issuer) {
          throw new GoTrueError(
            400,
            'validation_failed',
            `Custom OIDC provider "${provider}" not allowed`,
          );
        }
        throw new GoTrueError(
          400,
          'provider_disabled',
          `Provider (issuer "${issuer}") is not enabled`,
        );
      }
      if (grantType === 'web3') {
        throw new GoTrueError(422, 'web3_provider_disabled', 'Web3 provider is disabled');
      }
      throw new GoTrueError(400, 'invalid_credentials', 'unsupported_grant_type');
    },
  );

  app.get('/user', { schema: { tags: ['auth'], response: { 200: GoTrueUser } } }, async (req) =>
    getGoTrueUser({ db: app.db, actor: await bearerUser(req) }),
  );

  // Two-factor sign-in (TOTP), GoTrue's /factors API (issue 17).
  const mfaRule: BucketRule | null =
    config.authRateLimitMfa > 0
      ? { capacity: config.authRateLimitMfa, refillPerSecond: config.authRateLimitMfa / 60 }
      : null;
  const challengeLimit = limit('mfa-challenge', mfaRule);
  const verifyIpLimit = limit('mfa-verify', mfaRule);
  // Per factor, whatever the address: 5 tries at once, then one a minute.
  const verifyFactorLimit = async (req: FastifyRequest, reply: FastifyReply) => {
    const id = (req.params as { id?: string }).id ?? '';
    const r = await store.take(`mfa-factor:${id}`, MFA_FACTOR_VERIFY_RULE);
    if (!r.allowed) {
      reply.header('retry-after', String(Math.max(1, r.retryAfterSeconds)));
      throw new GoTrueError(
        429,
        'over_request_rate_limit',
        `Too many codes tried. Wait ${Math.max(1, r.retryAfterSeconds)} seconds, then enter the current code.`,
      );
    }
  };
  const FactorParams = z.object({ id: z.string() });
  // Bodies are read field by field (GoTrue ignores what it does not know; no body is fine).
  const bodyOf = (req: FastifyRequest): Record<string, unknown> =>
    req.body && typeof req.body === 'object' && !Array.isArray(req.body)
      ? (req.body as Record<string, unknown>)
      : {};

  app.post('/factors', { schema: { tags: ['auth'] } }, async (req) =>
    enrollFactor({
      db: app.db,
      config,
      actor: await bearerUser(req),
      input: bodyOf(req),
    }),
  );

  app.post(
    '/factors/:id/challenge',
    {
      onRequest: challengeLimit,
      schema: { tags: ['auth'], params: FactorParams },
    },
    async (req) =>
      challengeFactor({
        db: app.db,
        config,
        actor: await bearerUser(req),
        factorId: req.params.id,
        ip: req.ip,
      }),
  );

  app.post(
    '/factors/:id/verify',
    {
      onRequest: verifyIpLimit,
      schema: { tags: ['auth'], params: FactorParams },
    },
    async (req, reply) => {
      const actor = await bearerUser(req);
      await verifyFactorLimit(req, reply);
      return verifyFactor({
        db: app.db,
        config,
        actor,
        factorId: req.params.id,
        input: bodyOf(req),
        ip: req.ip,
      });
    },
  );

  app.delete('/factors/:id', { schema: { tags: ['auth'], params: FactorParams } }, async (req) =>
    unenrollFactor({
      db: app.db,
      config,
      actor: await bearerUser(req),
      factorId: req.params.id,
    }),
  );

  app.put(
    '/user',
    {
      onRequest: userUpdateLimit,
      schema: {
        tags: ['auth'],
        querystring: RedirectQuery,
        body: UpdateUserBody,
        response: { 200: GoTrueUser },
      },
    },
    async (req) => {
      const actor = await bearerUser(req);
      return updateUser({
        db: app.db,
        config,
        actor,
        input: {
          password: req.body.password,
          email: req.body.email,
          data: req.body.data ?? undefined,
          nonce: req.body.nonce,
        },
        redirectTo: redirectTarget(config.publicUrl, req.query.redirect_to, referer(req)),
      });
    },
  );

  app.get(
    '/reauthenticate',
    { onRequest: recoverLimit, schema: { tags: ['auth'], response: { 200: Empty } } },
    async (req) => {
      const actor = await bearerUser(req);
      await requestReauthentication({ db: app.db, config, actor });
      return {};
    },
  );

  app.post(
    '/resend',
    {
      onRequest: recoverLimit,
      schema: {
        tags: ['auth'],
        querystring: RedirectQuery,
        body: ResendBody,
        response: { 200: Empty },
      },
    },
    async (req) => {
      await resend({
        db: app.db,
        config,
        type: req.body.type,
        email: req.body.email,
        phone: req.body.phone,
        redirectTo: redirectTarget(config.publicUrl, req.query.redirect_to, referer(req)),
      });
      return {};
    },
  );

  app.get('/settings', { schema: { tags: ['auth'] } }, async () => ({
    external: Object.fromEntries([
      ...EXTERNAL_PROVIDERS.map((p) => [p, false] as const),
      ['email', true] as const,
    ]),
    disable_signup: false,
    mailer_autoconfirm: config.authAutoconfirm,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  }));

  app.get('/health', { schema: { tags: ['auth'] } }, async () => ({
    version: 'portal',
    name: 'GoTrue',
    description: 'GoTrue is a user registration and authentication API',
  }));

  app.get('/.well-known/jwks.json', { schema: { tags: ['auth'] } }, async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=600');
    return jwks(await jwtSigner(config));
  });

  registerDisabledFeatures(app);

  app.post(
    '/logout',
    {
      schema: {
        tags: ['auth'],
        querystring: z.object({ scope: z.string().optional() }),
      },
    },
    async (req, reply) => {
      const scope = req.query.scope ?? 'global';
      if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
        throw new GoTrueError(
          400,
          'validation_failed',
          "Unsupported logout scope: use 'global', 'local' or 'others'.",
        );
      }
      const actor = await bearerUser(req);
      await signOut({ db: app.db, actor, scope });
      return reply.status(204).send();
    },
  );

  app.post(
    '/recover',
    {
      onRequest: recoverLimit,
      schema: {
        tags: ['auth'],
        querystring: RedirectQuery,
        body: RecoverBody,
        response: { 200: Empty },
      },
    },
    async (req) => {
      await requestRecovery({
        db: app.db,
        config,
        email: req.body.email,
        redirectTo: redirectTarget(config.publicUrl, req.query.redirect_to, referer(req)),
      });
      return {};
    },
  );

  app.get(
    '/verify',
    {
      onRequest: verifyLimit,
      schema: {
        tags: ['auth'],
        querystring: z.object({
          token: z.string().optional(),
          type: z.string().optional(),
          redirect_to: z.string().optional(),
        }),
      },
    },
    async (req, reply) => {
      const { token, type } = req.query;
      if (!type) {
        throw new GoTrueError(400, 'validation_failed', 'Verify requires a verification type');
      }
      if (type !== 'signup' && type !== 'recovery' && type !== 'email_change') {
        throw new GoTrueError(400, 'validation_failed', 'Unsupported verification type');
      }
      if (!token) throw new GoTrueError(400, 'validation_failed', 'Verify requires a token');
      const location = await verifyEmailLink({
        db: app.db,
        config,
        ...client(req),
        token,
        type,
        redirectTo: redirectTarget(config.publicUrl, req.query.redirect_to),
      });
      return reply.redirect(location, 303);
    },
  );
};
