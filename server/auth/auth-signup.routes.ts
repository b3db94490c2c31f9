// POST /signup and the e-mail link endpoints: POST /resend, POST /recover, GET /verify.
import { z } from 'zod';
import { GoTrueSession, GoTrueUser } from '../../contract/auth.ts';
import { redirectTarget } from './auth-common.ts';
import { GoTrueError } from './auth-errors.ts';
import { requestRecovery, resend, verifyEmailLink } from './auth-links.service.ts';
import {
  type AuthApp,
  type AuthRouteKit,
  client,
  Empty,
  linkRedirect,
  redirectingSchema,
} from './auth-route-kit.ts';
import { signUp } from './auth-signup.service.ts';
import { fiveMinuteRule } from './rate-limit.ts';

const Metadata = z.record(z.string(), z.unknown());
const SignupBody = z.looseObject({
  email: z.string().optional(),
  password: z.string().optional(),
  data: Metadata.nullish(),
});
const ResendBody = z.looseObject({
  type: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
});
const RecoverBody = z.looseObject({ email: z.string().optional() });

export function registerSignupRoutes(app: AuthApp, kit: AuthRouteKit): void {
  const { config } = app;
  const limits = config.authRateLimits;
  const recoverLimit = kit.limit('recover', fiveMinuteRule(limits.recover));

  app.post(
    '/signup',
    {
      onRequest: kit.limit('signup', fiveMinuteRule(limits.signup)),
      schema: redirectingSchema(SignupBody, z.union([GoTrueSession, GoTrueUser])),
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
        redirectTo: linkRedirect(req),
      });
      return 'session' in result ? result.session : result.user;
    },
  );

  app.post(
    '/resend',
    { onRequest: recoverLimit, schema: redirectingSchema(ResendBody, Empty) },
    async (req) => {
      const { type, email, phone } = req.body;
      await resend({ db: app.db, config, type, email, phone, redirectTo: linkRedirect(req) });
      return {};
    },
  );

  app.post(
    '/recover',
    { onRequest: recoverLimit, schema: redirectingSchema(RecoverBody, Empty) },
    async (req) => {
      const { email } = req.body;
      await requestRecovery({ db: app.db, config, email, redirectTo: linkRedirect(req) });
      return {};
    },
  );

  app.get(
    '/verify',
    {
      onRequest: kit.limit('verify', fiveMinuteRule(limits.verify)),
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
}
