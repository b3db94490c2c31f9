// Two-factor sign-in (TOTP), GoTrue's /factors API (issue 17).
import { z } from 'zod';
import {
  type AuthApp,
  type AuthRouteKit,
  bearerUser,
  bodyOf,
  takeOrRefuse,
} from './auth-route-kit.ts';
import { challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from './mfa.service.ts';
import { createRecoveryCodes } from './mfa-recovery.ts';
import type { BucketRule } from './rate-limit.ts';

/** Verify attempts per factor, from any address: 5 at once, then one a minute. */
const MFA_FACTOR_VERIFY_RULE: BucketRule = { capacity: 5, refillPerSecond: 1 / 60 };

const FactorParams = z.object({ id: z.string() });

export function registerMfaRoutes(app: AuthApp, kit: AuthRouteKit): void {
  const { config } = app;
  const mfaRule: BucketRule | null =
    config.authRateLimitMfa > 0
      ? { capacity: config.authRateLimitMfa, refillPerSecond: config.authRateLimitMfa / 60 }
      : null;
  const schema = { tags: ['auth'], params: FactorParams };

  app.post('/factors', { schema: { tags: ['auth'] } }, async (req) =>
    enrollFactor({ db: app.db, config, actor: await bearerUser(req), input: bodyOf(req) }),
  );

  // Registered before /factors/:id/…: a new set of recovery codes, from an aal2 session only.
  app.post('/factors/recovery-codes', { schema: { tags: ['auth'] } }, async (req) =>
    createRecoveryCodes({ db: app.db, config, actor: await bearerUser(req) }),
  );

  app.post(
    '/factors/:id/challenge',
    { onRequest: kit.limit('mfa-challenge', mfaRule), schema },
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
    { onRequest: kit.limit('mfa-verify', mfaRule), schema },
    async (req, reply) => {
      const actor = await bearerUser(req);
      // Per factor, whatever the address: 5 tries at once, then one a minute.
      await takeOrRefuse(
        kit.store,
        reply,
        `mfa-factor:${req.params.id}`,
        MFA_FACTOR_VERIFY_RULE,
        (seconds) => `Too many codes tried. Wait ${seconds} seconds, then enter the current code.`,
      );
      const factorId = req.params.id;
      return verifyFactor({ db: app.db, config, actor, factorId, input: bodyOf(req), ip: req.ip });
    },
  );

  app.delete('/factors/:id', { schema }, async (req) =>
    unenrollFactor({ db: app.db, config, actor: await bearerUser(req), factorId: req.params.id }),
  );
}
