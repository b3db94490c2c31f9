import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MeProfile } from '../../../contract/auth.ts';
import { currentUser, requireAuth } from '../../auth/guard.ts';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/** The signed-in user's profile row, as the web's route guard and dashboards read it. */
export async function getMyProfile(opts: { db: DbOrTx; userId: string }): Promise<MeProfile> {
  const [row] = await opts.db.select().from(users).where(eq(users.id, opts.userId));
  if (!row) throw new AppError('unauthorized', 'Your session has ended. Please sign in again.');
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    name: row.name,
    business_legal_name: row.businessLegalName,
    phone_number: row.phoneNumber,
    whatsapp_number: row.whatsappNumber,
    ms_teams_id: row.msTeamsId,
    address: row.address,
    created_at: row.createdAt.toISOString(),
  };
}

/** GET /api/v1/me: any signed-in user, their own row only. */
export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['me'],
        security: [{ bearer: [] }],
        response: { 200: MeProfile },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return getMyProfile({ db: app.db, userId: currentUser(req).id });
    },
  );
};
