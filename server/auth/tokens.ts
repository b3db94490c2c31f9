import { createHash, createHmac, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export type Amr = { method: string; timestamp: number };

export type AccessClaims = {
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  email: string;
  phone: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  role: string;
  aal: string;
  amr: Amr[];
  session_id: string;
  is_anonymous: boolean;
};

export const AUDIENCE = 'authenticated';

const key = (secret: string) => new TextEncoder().encode(secret);

/** HS256 access token with GoTrue's claims (contract §6). */
export async function signAccessToken(
  secret: string,
  input: {
    userId: string;
    email: string;
    sessionId: string;
    amr: Amr[];
    userMetadata: Record<string, unknown>;
    expiresIn: number;
    now?: number;
  },
): Promise<{ token: string; iat: number; exp: number }> {
  const iat = input.now ?? Math.floor(Date.now() / 1000);
  const exp = iat + input.expiresIn;
  const token = await new SignJWT({
    email: input.email,
    phone: '',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: input.userMetadata,
    role: 'authenticated',
    aal: 'aal1',
    amr: input.amr,
    session_id: input.sessionId,
    is_anonymous: false,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(input.userId)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key(secret));
  return { token, iat, exp };
}

/** Verifies signature, algorithm, audience and expiry; throws on any problem. */
export async function verifyAccessToken(
  secret: string,
  token: string,
  opts: { checkAudience?: boolean } = {},
): Promise<AccessClaims> {
  const { payload } = await jwtVerify(token, key(secret), {
    algorithms: ['HS256'],
    ...(opts.checkAudience === false ? {} : { audience: AUDIENCE }),
  });
  return payload as unknown as AccessClaims;
}

/** A fresh opaque refresh token (144 bits, base64url). */
export function newRefreshToken(): string {
  return randomBytes(18).toString('base64url');
}

/** Tokens are stored only as SHA-256 hashes. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The k-th child of a refresh token, derived (HMAC with the server secret) rather than stored,
 * so the parent's holder can be handed the active child again while only hashes are kept.
 */
export function deriveChildRefreshToken(secret: string, parent: string, index: number): string {
  return createHmac('sha256', `refresh-token-rotation:${secret}`)
    .update(`${parent}:${index}`)
    .digest()
    .subarray(0, 24)
    .toString('base64url');
}

/** A random one-time link token (224 bits, hex, like GoTrue's). */
export function newLinkToken(): string {
  return randomBytes(28).toString('hex');
}
