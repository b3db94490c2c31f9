import {
  ApiKeyList,
  ApiKeyParams,
  CreateApiKeyBody,
  CreatedApiKey,
} from '../../../contract/api-keys.ts';
import { currentUser } from '../../auth/guard.ts';
import { actorOf, errorReplies } from '../../http/route-helpers.ts';
import { mePlugin } from '../../http/route-kit.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.ts';

/**
 * /api/v1/me/api-keys: the signed-in user's personal API keys, whatever their role. Only a
 * session manages keys: a request made with a key is refused by the guard (these routes are
 * not in server/auth/api-key-scopes.ts). Not idempotent by Idempotency-Key on purpose: a
 * replayed answer would have to keep the secret key.
 */
export const apiKeyRoutes = mePlugin((mine, app) => {
  mine.route('GET', '/api-keys', { reply: ApiKeyList }, async (req) => listApiKeys(mine.own(req)));
  mine.route(
    'POST',
    '/api-keys',
    { body: CreateApiKeyBody, reply: CreatedApiKey, status: 201, errors: errorReplies(409) },
    async (req, reply) => {
      const user = currentUser(req);
      const created = await createApiKey({
        db: app.db,
        user: { ...actorOf(req), role: user.role },
        input: req.body,
      });
      return reply.code(201).send(created);
    },
  );
  mine.remove('/api-keys/:id', { params: ApiKeyParams }, (o) => revokeApiKey(o));
});
