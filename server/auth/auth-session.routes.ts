// Sessions and the signed-in user: POST /token, POST /logout, GET and PUT /user,
// GET /reauthenticate.
import { z } from 'zod';
import { GoTrueSession, GoTrueUser } from '../../contract/auth.ts';
import { GoTrueError } from './auth-errors.ts';
import {
  type AuthApp,
  type AuthRouteKit,
  bearerUser,
  client,
  Empty,
  linkRedirect,
  redirectingSchema,
} from './auth-route-kit.ts';
import {
  getGoTrueUser,
  isLogoutScope,
  refreshSession,
  signInWithPassword,
  signOut,
} from './auth-session.service.ts';
import { requestReauthentication, updateUser } from './auth-user.service.ts';
import { fiveMinuteRule } from './rate-limit.ts';

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
  data: z.record(z.string(), z.unknown()).nullish(),
  nonce: z.string().max(100).optional(),
});

/** The issuers GoTrue knows for the id_token grant (all disabled here). */
const OIDC_ISSUERS: Record<string, string> = {
  apple: 'https://appleid.apple.com',
  azure: 'https://login.microsoftonline.com/common/v2.0',
  facebook: 'https://www.facebook.com',
  google: 'https://accounts.google.com',
  keycloak: 'keycloak',
  kakao: 'https://kauth.kakao.com',
};

/** The grants this server does not offer answer GoTrue's errors for them when turned off. */
function refuseGrant(grantType: string | undefined, body: { provider?: unknown }): never {
  if (grantType === 'id_token') {
    const provider = String(body.provider ?? '');
    const issuer = OIDC_ISSUERS[provider];
    if (!issuer) {
      throw new GoTrueError(
        400,
        'validation_failed',
        `Custom OIDC provider "${provider}" not allowed`,
      );
    }
    throw new GoTrueError(400, 'provider_disabled', `Provider (issuer "${issuer}") is not enabled`);
  }
  if (grantType === 'web3') {
    throw new GoTrueError(422, 'web3_provider_disabled', 'Web3 provider is disabled');
  }
  throw new GoTrueError(400, 'invalid_credentials', 'unsupported_grant_type');
}

export function registerSessionRoutes(app: AuthApp, kit: AuthRouteKit): void {
  const { config } = app;
  const limits = config.authRateLimits;

  app.post(
    '/token',
    {
      onRequest: kit.limit('token', fiveMinuteRule(limits.token)),
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
          reuseIntervalSeconds: kit.reuseIntervalSeconds,
        });
      }
      return refuseGrant(grantType, req.body as { provider?: unknown });
    },
  );

  app.get('/user', { schema: { tags: ['auth'], response: { 200: GoTrueUser } } }, async (req) =>
    getGoTrueUser({ db: app.db, actor: await bearerUser(req) }),
  );

  app.put(
    '/user',
    {
      onRequest: kit.limit('user', fiveMinuteRule(limits.userUpdate)),
      schema: redirectingSchema(UpdateUserBody, GoTrueUser),
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
        redirectTo: linkRedirect(req),
      });
    },
  );

  app.get(
    '/reauthenticate',
    {
      onRequest: kit.limit('recover', fiveMinuteRule(limits.recover)),
      schema: { tags: ['auth'], response: { 200: Empty } },
    },
    async (req) => {
      const actor = await bearerUser(req);
      await requestReauthentication({ db: app.db, config, actor });
      return {};
    },
  );

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
      if (!isLogoutScope(scope)) {
        throw new GoTrueError(
          400,
          'validation_failed',
          "Unsupported logout scope: use 'global', 'local' or 'others'.",
        );
      }
      await signOut(app.db, await bearerUser(req), scope);
      return reply.status(204).send();
    },
  );
}
