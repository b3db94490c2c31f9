// The two statements GET /api/v1/me runs (server/auth/guard.ts, then
// server/modules/users/me.routes.ts), written out for the ladder's lower rungs.

/** The guard: the user, and whether the token's session row still exists. */
export const ME_SESSION_SQL = `select u.id, u.email, u.role, u.status, u.name, s.id as session_id
from users u left join auth_sessions s on s.user_id = u.id and s.id = $2
where u.id = $1`;

/** The profile row. */
export const ME_PROFILE_SQL = `select id, email, password_hash, email_confirmed_at, confirmation_sent_at,
  recovery_sent_at, email_change, email_change_sent_at, reauthentication_sent_at, role, status,
  user_metadata, name, business_legal_name, phone_number, whatsapp_number, ms_teams_id, address,
  marketing_agreement_url, created_at, updated_at, last_sign_in_at
from users where id = $1`;

/** The same two statements as a pgbench script, with the ids written in. */
export function pgbenchScript(userId: string, sessionId: string): string {
  const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
  return [
    `${ME_SESSION_SQL.replace('$2', lit(sessionId)).replace('$1', lit(userId)).replace(/\n/g, ' ')};`,
    `${ME_PROFILE_SQL.replace('$1', lit(userId)).replace(/\n/g, ' ')};`,
    '',
  ].join('\n');
}
