import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';

/** Finds the first string (value or key) holding U+0000; answers its field path, or null. */
export function findNul(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '_' : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const here = path ? `${path}.${k}` : k;
    if (k.includes('\u0000')) return here;
    const hit = findNul(v, here, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/** PostgreSQL text cannot hold U+0000; refuse it up front with a 400 instead of a 500. */
async function rejectNul(req: FastifyRequest): Promise<void> {
  const field = findNul(req.params) ?? findNul(req.query) ?? findNul(req.body);
  if (!field) return;
  const name = field === '_' ? 'The request' : field;
  const message = `${name} contains a NUL character (\\u0000), which text cannot hold.`;
  throw new AppError('validation_failed', message, { details: { [field]: [message] } });
}

/** Guards every route (API, auth, files) against input the database cannot store. */
export const inputGuards = fp(async (app) => {
  app.addHook('preValidation', rejectNul);
});
