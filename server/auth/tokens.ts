import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, type JWK, jwtVerify, SignJWT } from 'jose';

export type Amr = { method: string; timestamp: number };
export type Aal = 'aal1' | 'aal2';

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
  iss?: string;
};

export const AUDIENCE = 'authenticated';

const key = (secret: string) => new TextEncoder().encode(secret);

/**
 * How this server signs and checks access tokens (JWT_ALG). HS256 uses the shared secret;
 * ES256/RS256 sign with the private key and publish the public one as a JWK with `kid`.
 * After a switch to ES256/RS256, HS256 tokens are still accepted when they were issued before
 * this process started (so before the switch) and have not expired.
 */
export type JwtSigner = {
  alg: 'HS256' | 'ES256' | 'RS256';
  secret: string;
  issuer: string;
  privateKey?: KeyObject;
  publicKey?: KeyObject;
  publicJwk?: JWK;
  /** HS256 tokens issued after this second are refused when alg is not HS256. */
  hsIssuedBefore: number;
  /**
   * The HS256 secret imported once as a WebCrypto key: jose imports raw bytes again on every
   * call, which was a tenth of the CPU of GET /api/v1/me (bench/point-read-2026-11-25.md).
   */
  hmacKey: CryptoKey;
  /** Tokens this signer has verified, by their exact text (verifyAccessTokenCached). */
  verified: Map<string, AccessClaims>;
};

type SignerConfig = {
  jwtSecret: string;
  jwtAlg: 'HS256' | 'ES256' | 'RS256';
  jwtPrivateKeyPem: string | undefined;
  publicUrl: string;
};

const signers = new WeakMap<object, Promise<JwtSigner>>();

/** The signer of a config, built once per config object. */
export function jwtSigner(config: SignerConfig): Promise<JwtSigner> {
  let signer = signers.get(config);
  if (!signer) {
    signer = buildSigner(config);
    signers.set(config, signer);
  }
  return signer;
}

async function buildSigner(config: SignerConfig): Promise<JwtSigner> {
  const base = {
    alg: config.jwtAlg,
    secret: config.jwtSecret,
    issuer: `${config.publicUrl}/auth/v1`,
    hsIssuedBefore: Math.floor(Date.now() / 1000),
    hmacKey: await crypto.subtle.importKey(
      'raw',
      key(config.jwtSecret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    ),
    verified: new Map<string, AccessClaims>(),
  };
  if (config.jwtAlg === 'HS256' || !config.jwtPrivateKeyPem) return { ...base, alg: 'HS256' };
  const privateKey = createPrivateKey(config.jwtPrivateKeyPem);
  const publicKey = createPublicKey(privateKey);
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    ...base,
    privateKey,
    publicKey,
    publicJwk: { ...jwk, kid, alg: config.jwtAlg, use: 'sig', key_ops: ['verify'] },
  };
}

/** GET /.well-known/jwks.json: the public key when tokens are signed asymmetrically. */
export function jwks(signer: JwtSigner): { keys: JWK[] } {
  return { keys: signer.publicJwk ? [signer.publicJwk] : [] };
}

/** An access token with GoTrue's claims (contract §6); HS256 when given a bare secret. */
export async function signAccessToken(
  secretOrSigner: string | JwtSigner,
  input: {
    userId: string;
    email: string;
    sessionId: string;
    amr: Amr[];
    userMetadata: Record<string, unknown>;
    expiresIn: number;
    now?: number;
    /** The session's assurance level: aal2 once a second factor was verified in it. */
    aal?: Aal;
  },
): Promise<{ token: string; iat: number; exp: number }> {
  const iat = input.now ?? Math.floor(Date.now() / 1000);
  const exp = iat + input.expiresIn;
  const signer = typeof secretOrSigner === 'string' ? null : secretOrSigner;
  const asymmetric = signer?.privateKey && signer.alg !== 'HS256';
  const jwt = new SignJWT({
    email: input.email,
    phone: '',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: input.userMetadata,
    role: 'authenticated',
    aal: input.aal ?? 'aal1',
    amr: input.amr,
    session_id: input.sessionId,
    is_anonymous: false,
  })
    .setProtectedHeader(
      asymmetric
        ? { alg: signer.alg, typ: 'JWT', kid: signer.publicJwk?.kid }
        : { alg: 'HS256', typ: 'JWT' },
    )
    .setSubject(input.userId)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp);
  if (signer) jwt.setIssuer(signer.issuer);
  const token = await jwt.sign(
    asymmetric ? signer.privateKey! : signer ? signer.hmacKey : key(secretOrSigner as string),
  );
  return { token, iat, exp };
}

/** Verifies signature, algorithm, audience and expiry; throws on any problem. */
export async function verifyAccessToken(
  secretOrSigner: string | JwtSigner,
  token: string,
  opts: { checkAudience?: boolean } = {},
): Promise<AccessClaims> {
  const audience = opts.checkAudience === false ? {} : { audience: AUDIENCE };
  if (typeof secretOrSigner === 'string') {
    const { payload } = await jwtVerify(token, key(secretOrSigner), {
      algorithms: ['HS256'],
      ...audience,
    });
    return payload as unknown as AccessClaims;
  }
  const signer = secretOrSigner;
  const asymmetric = signer.alg !== 'HS256' && signer.publicKey;
  const { payload, protectedHeader } = await jwtVerify(
    token,
    (header) => (header.alg === 'HS256' ? signer.hmacKey : signer.publicKey!),
    { algorithms: asymmetric ? ['HS256', signer.alg] : ['HS256'], ...audience },
  );
  if (asymmetric && protectedHeader.alg === 'HS256') {
    // Only tokens from before the switch: one signed with the old secret afterwards is forged.
    if (typeof payload.iat !== 'number' || payload.iat > signer.hsIssuedBefore) {
      throw Object.assign(new Error(`HS256 token issued after the switch to ${signer.alg}`), {
        code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      });
    }
  }
  return payload as unknown as AccessClaims;
}

/** How many verified tokens a signer remembers (~1 KB each); the oldest go first. */
export const VERIFIED_TOKENS_MAX = 10_000;

/**
 * verifyAccessToken without the audience check, remembering each token it has verified by its
 * exact text until the token expires. A signature check is a pure function of the text and this
 * process's keys, so a token seen before needs only its expiry checked again; any other text
 * (a forged or altered token) is not in the map and goes through jose. The WebCrypto HMAC check
 * is the most expensive step of a cheap authenticated read (bench/point-read-2026-11-25.md).
 * This caches the signature only: the guard still reads the session and the user on every
 * request, so sign-out, blocking and password changes take effect at once.
 */
export async function verifyAccessTokenCached(
  signer: JwtSigner,
  token: string,
): Promise<AccessClaims> {
  const seen = signer.verified.get(token);
  if (seen) {
    // jose's rule: expired when exp <= now (whole seconds, no tolerance).
    if (seen.exp > Math.floor(Date.now() / 1000)) return seen;
    signer.verified.delete(token);
  }
  const claims = await verifyAccessToken(signer, token, { checkAudience: false });
  if (typeof claims.exp === 'number') {
    if (signer.verified.size >= VERIFIED_TOKENS_MAX) {
      signer.verified.delete(signer.verified.keys().next().value!);
    }
    signer.verified.set(token, Object.freeze(claims));
  }
  return claims;
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
