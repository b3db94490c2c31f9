import type { FastifyRequest } from 'fastify';
import { type Actor, currentUser } from '../auth/guard.ts';

/** The signed-in admin as the audit log records them. */
export function actorOf(req: FastifyRequest): Actor {
  const u = currentUser(req);
  return { id: u.id, email: u.email };
}

/** OpenAPI tags and security of every admin route. */
export const adminDoc = { tags: ['admin'], security: [{ bearer: [] }] };
