import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { authSessions, refreshTokens } from '../db/schema.ts';
import { type Amr, hashToken, newRefreshToken } from './tokens.ts';

/** Starts a session (one per sign-in) with its first refresh token. */
export async function createSession(
  db: DbOrTx,
  input: { userId: string; method: 'password' | 'otp'; userAgent?: string; ip?: string },
): Promise<{ sessionId: string; refreshToken: string; amr: Amr[] }> {
  const amr: Amr[] = [{ method: input.method, timestamp: Math.floor(Date.now() / 1000) }];
  const [session] = await db
    .insert(authSessions)
    .values({
      userId: input.userId,
      amr,
      userAgent: input.userAgent?.slice(0, 500),
      ip: input.ip,
    })
    .returning({ id: authSessions.id });
  const refreshToken = newRefreshToken();
  await db.insert(refreshTokens).values({
    tokenHash: hashToken(refreshToken),
    userId: input.userId,
    sessionId: session!.id,
  });
  return { sessionId: session!.id, refreshToken, amr };
}

/** Ends every session of a user at once (blocking, password change elsewhere, global sign-out). */
export async function endAllSessions(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(authSessions).where(eq(authSessions.userId, userId));
}
