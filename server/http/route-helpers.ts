import type { FastifyRequest } from 'fastify';
import { ApiErrorBody } from '../../contract/errors.ts';
import { type Actor, currentUser } from '../auth/guard.ts';

/** The signed-in admin as the audit log records them. */
export function actorOf(req: FastifyRequest): Actor {
  const u = currentUser(req);
  return { id: u.id, email: u.email };
}

/** OpenAPI tags and security of a group of signed-in routes. */
export type RouteDoc = { tags: string[]; security: { bearer: never[] }[] };

/** The tag and bearer security of the routes of one area (admin, publisher, buyer, me). */
export function bearerDoc(tag: string): RouteDoc {
  return { tags: [tag], security: [{ bearer: [] }] };
}

/** OpenAPI tags and security of every admin route. */
export const adminDoc = bearerDoc('admin');

/** The error answers a route documents: `{ 400: ApiErrorBody, 401: ApiErrorBody, … }`. */
export function errorReplies<const S extends number>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((s) => [s, ApiErrorBody])) as Record<
    S,
    typeof ApiErrorBody
  >;
}
