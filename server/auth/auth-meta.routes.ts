// What /auth/v1 says about itself (GET /settings, /health, the JWKS) and the GoTrue features it
// answers as turned off.
import type { FastifyRequest } from 'fastify';
import { GoTrueError } from './auth-errors.ts';
import { type AuthApp, bearerUser } from './auth-route-kit.ts';
import { jwks, jwtSigner } from './tokens.ts';

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

export function registerMetaRoutes(app: AuthApp): void {
  const { config } = app;

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
}

/**
 * Features this server does not offer answer what GoTrue answers when they are turned off,
 * so auth-js apps get the error code they already handle instead of a 404.
 */
function registerDisabledFeatures(app: AuthApp) {
  const hide = { schema: { hide: true } };
  const otpDisabled = async (req: FastifyRequest) => {
    const body = (req.body ?? {}) as { phone?: unknown };
    if (body.phone)
      throw new GoTrueError(400, 'phone_provider_disabled', 'Phone logins are disabled');
    throw new GoTrueError(422, 'otp_disabled', 'Signups not allowed for otp');
  };
  app.post('/otp', hide, otpDisabled);
  app.post('/magiclink', hide, otpDisabled);
  app.get('/authorize', hide, async (req) => {
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
  app.post('/sso', hide, samlDisabled);
  app.get('/sso/saml/metadata', hide, samlDisabled);
  app.post('/sso/saml/acs', hide, samlDisabled);
  const linkingDisabled = async (req: FastifyRequest) => {
    await bearerUser(req);
    throw new GoTrueError(404, 'manual_linking_disabled', 'Manual linking is disabled');
  };
  app.get('/user/identities/authorize', hide, linkingDisabled);
  app.delete('/user/identities/:id', hide, linkingDisabled);
}
