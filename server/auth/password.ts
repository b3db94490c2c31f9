import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id recommendation: m=19 MiB, t=2, p=1. Algorithm 2 = Argon2id.
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * How many argon2 computations run at once. @node-rs/argon2's async calls already run off the
 * main thread (libuv's pool, 4 threads by default), but four 19 MiB hashes at once take every
 * core of a small machine: measured on 2 cores, GET /api/v1/me fell from ~7,400 req/s to ~290
 * req/s (p95 4 ms → 72 ms) while 10 sign-ins ran (bench/point-read-2026-11-25.md). So at most
 * one fewer than the cores hash at a time; the rest wait their turn in order.
 */
export const ARGON2_CONCURRENCY = Math.max(1, availableParallelism() - 1);

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` when one of the ARGON2_CONCURRENCY slots is free. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= ARGON2_CONCURRENCY) await new Promise<void>((r) => waiting.push(r));
  else running++;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, or is given back.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** argon2id hash of a password (PHC string). */
export function hashPassword(password: string): Promise<string> {
  return inTurn(() => hash(password, options));
}

/** Constant-time check of a password against its stored hash; false on a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await inTurn(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

/** GoTrue's minimum (never lower than 6) and bcrypt's 72-byte maximum. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_BYTES = 72;
export const WEAK_PASSWORD_MESSAGE = `Password should be at least ${PASSWORD_MIN_LENGTH} characters.`;

/** Why a password breaks the policy: 'too_long' (400) or 'length' (422 weak_password); null if fine. */
export function passwordProblem(password: string): 'too_long' | 'length' | null {
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) return 'too_long';
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'length';
  return null;
}

// A real hash to check against when the e-mail is unknown, so timing does not reveal accounts.
let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check; always false. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('not-a-real-password-0');
  await verifyPassword(await dummyHash, password);
  return false;
}
