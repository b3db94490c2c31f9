import { and, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { authSessions, oneTimeTokens, refreshTokens, users } from '../db/schema.ts';
import {
  type Aal,
  type Amr,
  deriveChildRefreshToken,
  hashToken,
  newRefreshToken,
} from './tokens.ts';

/** Starts a session (one per sign-in) with its first refresh token. */
export async function createSession(
  db: DbOrTx,
  input: {
    userId: string;
    method: 'password' | 'otp' | 'recovery';
    userAgent?: string;
    ip?: string;
  },
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

/** Ends one session (sign-out with scope=local); its refresh tokens go with it. */
export async function endSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db.delete(authSessions).where(eq(authSessions.id, sessionId));
}

/**
 * Ends every session of a user but one (password change, sign-out with scope=others); with
 * `onlyAal1`, only those not raised by a second factor (a factor just verified: GoTrue's
 * InvalidateSessionsWithAALLessThan).
 */
export async function endOtherSessions(
  db: DbOrTx,
  userId: string,
  keepSessionId: string,
  opts: { onlyAal1?: boolean } = {},
): Promise<void> {
  const aal1 = opts.onlyAal1 ? eq(authSessions.aal, 'aal1') : undefined;
  await db
    .delete(authSessions)
    .where(and(eq(authSessions.userId, userId), ne(authSessions.id, keepSessionId), aal1));
}

/**
 * Blocks a user and ends all their sessions at once (admin screens call this). Returns false
 * when there is no such user.
 */
export async function blockUser(db: DbOrTx, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ status: 'blocked', updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning({ id: users.id });
    if (!row) return false;
    await endAllSessions(tx, userId);
    await tx.delete(oneTimeTokens).where(eq(oneTimeTokens.userId, userId));
    return true;
  });
}

export type RefreshOutcome =
  | {
      kind: 'ok';
      userId: string;
      /** The user's row as read inside the rotation. */
      user: typeof users.$inferSelect;
      sessionId: string;
      refreshToken: string;
      amr: Amr[];
      aal: Aal;
    }
  | { kind: 'not_found' }
  | { kind: 'banned'; userId: string }
  | { kind: 'reused' };

/**
 * Rotates a refresh token (contract §7). The presented token is revoked and a child issued.
 * A revoked token gets its child back only while that child is still unused and the parent was
 * revoked less than `reuseIntervalSeconds` ago (a client that lost the answer, or another tab
 * refreshing at the same moment). Any other replay of a revoked token (after the window, or
 * after its child has been used in turn) means the token was stolen: the whole session family
 * is deleted ('reused', committed), so neither the thief nor the victim keeps a live token.
 * Children are derived from their parent, so only hashes are ever stored.
 */
export async function rotateRefreshToken(
  db: DbOrTx,
  input: { secret: string; token: string; reuseIntervalSeconds: number; now?: Date },
): Promise<RefreshOutcome> {
  const now = input.now ?? new Date();
  const presentedHash = hashToken(input.token);
  return db.transaction(async (tx) => {
    // The token's session, locked: refreshes of one session run one after the other (several
    // tabs refresh at once). No row: an unknown token, or its session has ended.
    const [session] = await tx
      .select({
        id: authSessions.id,
        userId: authSessions.userId,
        amr: authSessions.amr,
        aal: authSessions.aal,
      })
      .from(authSessions)
      .where(
        inArray(
          authSessions.id,
          tx
            .select({ id: refreshTokens.sessionId })
            .from(refreshTokens)
            .where(eq(refreshTokens.tokenHash, presentedHash)),
        ),
      )
      .for('update');
    if (!session) return { kind: 'not_found' } as const;
    // Read again under the session's lock (a concurrent refresh may have revoked it), with the
    // user's row in the same round trip (the answer is built from it).
    const [found] = await tx
      .select({ token: refreshTokens, user: users })
      .from(refreshTokens)
      .innerJoin(users, eq(users.id, session.userId))
      .where(eq(refreshTokens.tokenHash, presentedHash));
    if (!found) return { kind: 'not_found' } as const;
    const { token, user } = found;
    if (user.status === 'blocked') return { kind: 'banned', userId: session.userId } as const;

    const ok = (refreshToken: string) =>
      ({
        kind: 'ok',
        userId: session.userId,
        user,
        sessionId: session.id,
        refreshToken,
        amr: session.amr,
        aal: session.aal === 'aal2' ? 'aal2' : 'aal1',
      }) as const;
    // Only a token that was never rotated gets a child (rotation revokes it in the same
    // transaction), so its child is always the first one: index 0, no count needed.
    const issueChild = async () => {
      const child = deriveChildRefreshToken(input.secret, input.token, 0);
      await tx.insert(refreshTokens).values({
        tokenHash: hashToken(child),
        userId: session.userId,
        sessionId: session.id,
        parentHash: presentedHash,
        createdAt: now,
        updatedAt: now,
      });
      await tx
        .update(authSessions)
        .set({ refreshedAt: now, updatedAt: now })
        .where(eq(authSessions.id, session.id));
      return ok(child);
    };

    if (!token.revoked) {
      await tx
        .update(refreshTokens)
        .set({ revoked: true, updatedAt: now })
        .where(eq(refreshTokens.id, token.id));
      return issueChild();
    }

    // A revoked token: hand back its child only inside the window and while the child is unused.
    const withinWindow =
      now.getTime() - token.updatedAt.getTime() < input.reuseIntervalSeconds * 1000;
    const kids = withinWindow
      ? await tx
          .select({ tokenHash: refreshTokens.tokenHash, revoked: refreshTokens.revoked })
          .from(refreshTokens)
          .where(
            and(
              eq(refreshTokens.sessionId, session.id),
              eq(refreshTokens.parentHash, presentedHash),
            ),
          )
      : [];
    // Rotation gives a token one child; a used (revoked) child, or several, means a replay.
    const kid = kids.length === 1 && !kids[0]!.revoked ? kids[0]! : undefined;
    const candidate = deriveChildRefreshToken(input.secret, input.token, 0);
    if (kid && hashToken(candidate) === kid.tokenHash) return ok(candidate);
    await tx.delete(authSessions).where(eq(authSessions.id, session.id));
    return { kind: 'reused' } as const;
  });
}
