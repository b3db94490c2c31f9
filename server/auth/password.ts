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
