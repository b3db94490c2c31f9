// The one statement GET /api/v1/me runs (server/auth/guard.ts: the guard's session check and
// the profile in one round trip), written out for the ladder's lower rungs.
// server/auth/guard-sql.test.ts fails when the guard's SQL and this text part.

/**
 * The profile row, whether the token's session row still exists, its assurance level and whether
 * the user has a verified second factor. $1 session, $2 user.
 */
export const ME_SQL = `select "users"."id", "users"."email", "users"."role", "users"."status", "users"."name", "users"."business_legal_name", "users"."phone_number", "users"."whatsapp_number", "users"."ms_teams_id", "users"."address", "users"."created_at", "auth_sessions"."id", "auth_sessions"."aal", exists (select 1 from "mfa_factors" where "mfa_factors"."user_id" = "users"."id" and "mfa_factors"."status" = 'verified') from "users" left join "auth_sessions" on ("auth_sessions"."user_id" = "users"."id" and "auth_sessions"."id" = $1) where "users"."id" = $2`;

/** The parameters of ME_SQL, in order. */
export const meParams = (userId: string, sessionId: string) => [sessionId, userId];

/** The same statement as a pgbench script, with the ids written in. */
export function pgbenchScript(userId: string, sessionId: string): string {
  const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
  return `${ME_SQL.replace('$1', lit(sessionId)).replace('$2', lit(userId))};\n`;
}
