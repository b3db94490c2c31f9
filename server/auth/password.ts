import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id recommendation: m=19 MiB, t=2, p=1. Algorithm 2 = Argon2id.
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** argon2id hash of a password (PHC string). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** Constant-time check of a password against its stored hash; false on a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
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
