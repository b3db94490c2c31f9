/**
 * How a one-shot command (backup, restore) ends on an error: one of the `expected` kinds (a
 * setting that is wrong, a refusal, a busy data folder) prints `expectedPrefix: message`, anything
 * else `otherPrefix: message`; both exit with status 1.
 */
export function exitOnError(
  err: unknown,
  expected: (abstract new (...args: never[]) => Error)[],
  expectedPrefix: string,
  otherPrefix: string,
): never {
  if (err instanceof Error && expected.some((kind) => err instanceof kind)) {
    console.error(`${expectedPrefix}: ${err.message}`);
    process.exit(1);
  }
  console.error(`${otherPrefix}:`, err instanceof Error ? err.message : err);
  process.exit(1);
}
