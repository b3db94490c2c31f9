/**
 * The failure in words: the error's message and, for a failed query (Drizzle wraps the
 * driver's error as `cause`), PostgreSQL's own message, code and detail, which say why.
 */
export function startupFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // Drizzle's message holds the whole failed statement: its start is enough to place it.
  const message = err.message.length > 300 ? `${err.message.slice(0, 300)}…` : err.message;
  const lines = [message];
  let cause: unknown = err.cause;
  while (cause instanceof Error) {
    const pgErr = cause as Error & { code?: string; detail?: string; hint?: string };
    lines.push(
      `  caused by: ${pgErr.message}${pgErr.code ? ` (PostgreSQL code ${pgErr.code})` : ''}`,
    );
    if (pgErr.detail) lines.push(`  detail: ${pgErr.detail}`);
    if (pgErr.hint) lines.push(`  hint: ${pgErr.hint}`);
    cause = cause.cause;
  }
  return lines.join('\n');
}
