import { createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { emailField } from '../contract/email.ts';
import type { Role } from '../contract/roles.ts';

const bool = (name: string) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], {
      error: `${name} must be true or false`,
    })
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (name: string, protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { error: `${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

/** A whole number from min to max (no upper bound without max), with one message for any miss. */
export const wholeNumber = (error: string, min: number, max?: number) => {
  const atLeast = z.coerce.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? atLeast : atLeast.max(max, { error });
};

const perFiveMinutes = (name: string) =>
  wholeNumber(
    `${name} must be a whole number of requests per 5 minutes (0 = no limit)`,
    0,
    1_000_000,
  );

const seconds = (name: string, min: number, max: number) =>
  wholeNumber(`${name} must be a number of seconds (${min}-${max})`, min, max);

const portNumber = (name: string) =>
  wholeNumber(`${name} must be a port number (1-65535)`, 0, 65535);

/**
 * Connections the PostgreSQL pool may open (DB_POOL_MAX). Chosen by measurement at c=50
 * on 2 cores (bench/point-read-2026-11-25.md).
 */
export const DEFAULT_POOL_MAX = 10;

/** Every environment variable the server reads, with what it expects. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: portNumber('PORT').default(3000),
  HOST: z.string().min(1, { error: 'HOST must be a host name or address' }).default('localhost'),
  DATA_DIR: z.string().min(1, { error: 'DATA_DIR must be a directory path' }).default('./data'),
  PUBLIC_URL: url('PUBLIC_URL', ['http:', 'https:']).optional(),
  DATABASE_URL: url('DATABASE_URL', ['postgres:', 'postgresql:']).optional(),
  DB_POOL_MAX: wholeNumber(
    'DB_POOL_MAX must be a whole number of connections (1-1000)',
    1,
    1000,
  ).default(DEFAULT_POOL_MAX),
  JWT_SECRET: z
    .string()
    .min(32, { error: 'JWT_SECRET must be at least 32 characters long' })
    .optional(),
  JWT_EXPIRY: z.coerce
    .number({ error: 'JWT_EXPIRY must be a number of seconds (60-86400)' })
    .int()
    .min(60, { error: 'JWT_EXPIRY must be a number of seconds (60-86400)' })
    .max(86400, { error: 'JWT_EXPIRY must be a number of seconds (60-86400)' })
    .default(3600),
  SMTP_URL: url('SMTP_URL', ['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3, { error: 'MAIL_FROM must be an e-mail address' }).optional(),
  S3_ENDPOINT: url('S3_ENDPOINT', ['http:', 'https:']).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'S3_BUCKET must be a valid bucket name' })
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool('S3_FORCE_PATH_STYLE').default(false),
  REDIS_URL: url('REDIS_URL', ['redis:', 'rediss:']).optional(),
  TRUST_PROXY: z.string().optional(),
  SHUTDOWN_DRAIN_SECONDS: seconds('SHUTDOWN_DRAIN_SECONDS', 0, 300).optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  AUTH_AUTOCONFIRM: bool('AUTH_AUTOCONFIRM').default(false),
  ADMIN_EMAIL: emailField('ADMIN_EMAIL must be an e-mail address').optional(),
  WEB_ROOT: z.string().min(1, { error: 'WEB_ROOT must be a directory path' }).optional(),
  ADMIN_PASSWORD: z
    .string()
    .min(6, { error: 'ADMIN_PASSWORD must be at least 6 characters long' })
    .optional(),
  // Per-IP request limits of /auth/v1, requests per 5 minutes (GoTrue's defaults; 0 = off).
  AUTH_RATE_LIMIT_TOKEN: perFiveMinutes('AUTH_RATE_LIMIT_TOKEN').default(150),
  AUTH_RATE_LIMIT_SIGNUP: perFiveMinutes('AUTH_RATE_LIMIT_SIGNUP').default(30),
  AUTH_RATE_LIMIT_RECOVER: perFiveMinutes('AUTH_RATE_LIMIT_RECOVER').default(30),
  AUTH_RATE_LIMIT_VERIFY: perFiveMinutes('AUTH_RATE_LIMIT_VERIFY').default(30),
  AUTH_RATE_LIMIT_USER_UPDATE: perFiveMinutes('AUTH_RATE_LIMIT_USER_UPDATE').default(30),
  AUTH_MAIL_INTERVAL: seconds('AUTH_MAIL_INTERVAL', 0, 86400).default(60),
  // Two-factor sign-in (issue 17): roles whose users must verify a factor once they have one.
  MFA_REQUIRED_FOR: z
    .string()
    .regex(/^\s*(none|(admin|publisher|buyer)(\s*,\s*(admin|publisher|buyer))*)\s*$/, {
      error: 'MFA_REQUIRED_FOR must be a comma list of admin, publisher, buyer (or none)',
    })
    .default('admin'),
  // MFA challenges and verifications per client IP per minute (GoTrue's 15; 0 = off).
  AUTH_RATE_LIMIT_MFA: wholeNumber(
    'AUTH_RATE_LIMIT_MFA must be a whole number (0 = off)',
    0,
  ).default(15),
  // Requests per minute each personal API key may make on /api/v1 (issue 30); 0 = off.
  API_KEY_RATE_LIMIT: wholeNumber(
    'API_KEY_RATE_LIMIT must be a whole number of requests per minute (0 = off)',
    0,
    1_000_000,
  ).default(120),
  // Live stream (issue 32, GET /api/v1/live): streams open at once per user on one instance,
  // the heartbeat, and how often each instance checks that its streams' sessions still live.
  LIVE_MAX_STREAMS: wholeNumber(
    'LIVE_MAX_STREAMS must be a whole number from 1 to 100',
    1,
    100,
  ).default(5),
  LIVE_HEARTBEAT_MS: wholeNumber(
    'LIVE_HEARTBEAT_MS must be 100 to 600000 milliseconds',
    100,
    600_000,
  ).default(15_000),
  LIVE_POLL_MS: wholeNumber(
    'LIVE_POLL_MS must be 100 to 600000 milliseconds',
    100,
    600_000,
  ).default(1000),
  LIVE_SESSION_CHECK_MS: wholeNumber(
    'LIVE_SESSION_CHECK_MS must be 100 to 600000 milliseconds',
    100,
    600_000,
  ).default(5_000),
  AUTH_REAUTHENTICATE_AFTER: seconds('AUTH_REAUTHENTICATE_AFTER', 0, 31_536_000).default(86400),
  JWT_ALG: z
    .enum(['HS256', 'ES256', 'RS256'], { error: 'JWT_ALG must be HS256, ES256 or RS256' })
    .default('HS256'),
  JWT_PRIVATE_KEY: z.string().min(1).optional(),
  CORS_ORIGINS: z.string().optional(),
  METRICS_TOKEN: z
    .string()
    .min(16, { error: 'METRICS_TOKEN must be at least 16 characters long' })
    .optional(),
  METRICS_PORT: portNumber('METRICS_PORT').optional(),
  API_DOCS: bool('API_DOCS').default(true),
  OUTBOUND_ALLOW_PRIVATE: bool('OUTBOUND_ALLOW_PRIVATE').default(false),
  // Deliveries a second per instance while call postbacks queue up (server/jobs/pressure.ts);
  // 0 = deliveries never slow down for them.
  OUTBOUND_YIELD_RATE: wholeNumber(
    'OUTBOUND_YIELD_RATE must be a whole number of deliveries per second (0 = never slow down)',
    0,
    1_000_000,
  ).default(200),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  /** Webhooks and postbacks may go to private, loopback and link-local addresses (issue 30). */
  outboundAllowPrivate: boolean;
  /** Deliveries a second per instance while the call postbacks queue up; 0 = no slowing. */
  outboundYieldRate: number;
  databaseUrl: string | undefined;
  /** Most connections the PostgreSQL pool opens (unused with PGlite). */
  databasePoolMax: number;
  jwtSecret: string;
  /**
   * Which secrets were generated here rather than given: with PostgreSQL the instances share
   * those through the database (server/ops/instances.ts).
   */
  generatedSecrets: { jwtSecret: boolean; jwtPrivateKey: boolean };
  jwtExpiry: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  s3:
    | {
        endpoint: string | undefined;
        region: string;
        bucket: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      }
    | undefined;
  redisUrl: string | undefined;
  /**
   * Whom X-Forwarded-For is believed from (Fastify's trustProxy): false = nobody, a number = that
   * many proxies in front (the client is that many entries from the right), or the proxies'
   * addresses and CIDRs. Never `true` (the left-most entry, which the client writes itself).
   */
  trustProxy: false | number | string[];
  /**
   * Seconds between SIGTERM and closing the listener: /readyz answers 503 meanwhile so the load
   * balancer takes the instance out, while every other request is still served.
   */
  shutdownDrainSeconds: number;
  logLevel: string;
  authAutoconfirm: boolean;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** The dev mailbox is on only without SMTP and outside production. */
  devMailbox: boolean;
  /** Where the built SPA is served from; undefined = dist/web of this checkout. */
  webRoot: string | undefined;
  /** Per-IP limits of /auth/v1 in requests per 5 minutes; 0 = no limit. */
  authRateLimits: {
    token: number;
    signup: number;
    recover: number;
    verify: number;
    userUpdate: number;
  };
  /** At most one auth mail of a kind per user in this many seconds (GoTrue's SMTP_MAX_FREQUENCY). */
  authMailInterval: number;
  /** A session older than this needs a reauthentication code to change the password. */
  authReauthenticateAfter: number;
  /** Roles whose users must reach aal2 once they have a verified factor (MFA_REQUIRED_FOR). */
  mfaRequiredFor: Role[];
  /** MFA challenges and verifications per client IP per minute; 0 = no limit. */
  authRateLimitMfa: number;
  /** Requests per minute per personal API key on /api/v1 (API_KEY_RATE_LIMIT); 0 = no limit. */
  apiKeyRateLimit: number;
  /** GET /api/v1/live (issue 32): streams per user per instance, heartbeat, session check. */
  live: { maxStreams: number; heartbeatMs: number; sessionCheckMs: number; pollMs: number };
  /** How access tokens are signed; HS256 tokens stay accepted until they expire. */
  jwtAlg: 'HS256' | 'ES256' | 'RS256';
  /** PEM private key for ES256/RS256 (JWT_PRIVATE_KEY, else generated under DATA_DIR). */
  jwtPrivateKeyPem: string | undefined;
  /** Origins allowed to call /auth/v1 and /api/v1 from a browser (CORS); empty = none. */
  corsOrigins: string[];
  /**
   * /metrics: `port` serves it on its own listener (HOST:METRICS_PORT) instead of the main port;
   * `token` requires `Authorization: Bearer <token>`; `open` without either (outside production).
   */
  metrics: { token: string | undefined; port: number | undefined; open: boolean };
  /** Serve the OpenAPI browser at /api/docs. */
  apiDocs: boolean;
};

/** A configuration problem: start-up stops with its one-line message. */
export class ConfigError extends Error {}

function emptyToUndefined(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(EnvSchema.shape)) {
    const v = env[key];
    out[key] = v === undefined || v.trim() === '' ? undefined : v.trim();
  }
  return out;
}

/** The JWT secret: from the environment, else generated once and kept under DATA_DIR. */
function resolveJwtSecret(given: string | undefined, dataDir: string, nodeEnv: string): string {
  if (given) return given;
  if (nodeEnv === 'production') {
    throw new ConfigError(
      'JWT_SECRET is required when NODE_ENV=production (at least 32 characters)',
    );
  }
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The ES256/RS256 private key: from the environment, else generated once under DATA_DIR. */
function resolveJwtPrivateKey(
  alg: 'HS256' | 'ES256' | 'RS256',
  given: string | undefined,
  dataDir: string,
): string | undefined {
  if (alg === 'HS256') return undefined;
  const check = (pem: string, from: string) => {
    let key: KeyObject;
    try {
      key = createPrivateKey(pem);
    } catch {
      throw new ConfigError(`${from} is not a PEM private key`);
    }
    const want = alg === 'ES256' ? 'ec' : 'rsa';
    if (key.asymmetricKeyType !== want) {
      throw new ConfigError(`${from} must be an ${want.toUpperCase()} key for JWT_ALG=${alg}`);
    }
    if (alg === 'ES256' && key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new ConfigError(`${from} must be a P-256 key for JWT_ALG=ES256`);
    }
    return pem;
  };
  if (given) return check(given.replace(/\\n/g, '\n'), 'JWT_PRIVATE_KEY');
  const file = path.join(dataDir, `jwt-${alg.toLowerCase()}-key.pem`);
  if (existsSync(file)) return check(readFileSync(file, 'utf8'), file);
  mkdirSync(dataDir, { recursive: true });
  const { privateKey } =
    alg === 'ES256'
      ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(file, pem, { mode: 0o600 });
  return pem;
}

const TRUST_PROXY_HELP =
  'set the number of proxies in front (1 for one load balancer) or their addresses (10.0.0.5, 10.0.0.0/8)';
const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY: false, a hop count, or a comma list of addresses/CIDRs; `true` is refused. */
export function parseTrustProxy(raw: string | undefined): false | number | string[] {
  const v = raw?.trim().toLowerCase();
  if (!v || v === 'false' || v === 'no' || v === '0') return false;
  if (v === 'true' || v === 'yes') {
    throw new ConfigError(
      `TRUST_PROXY=true would take the left-most X-Forwarded-For address, which any client writes itself; ${TRUST_PROXY_HELP}`,
    );
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 100) throw new ConfigError(`TRUST_PROXY: ${TRUST_PROXY_HELP}`);
    return hops;
  }
  return v
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .map((a) => {
      const [addr, bits, ...rest] = a.split('/');
      const family = isIP(addr ?? '');
      const okBits =
        bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
      if (!proxyNames.has(a) && (family === 0 || !okBits || rest.length > 0)) {
        throw new ConfigError(`TRUST_PROXY: "${a}" is not an address or CIDR; ${TRUST_PROXY_HELP}`);
      }
      return a;
    });
}

function corsOrigins(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => {
      let url: URL;
      try {
        url = new URL(o);
      } catch {
        throw new ConfigError(`CORS_ORIGINS: "${o}" is not an origin like https://app.example.com`);
      }
      if (
        (url.protocol !== 'http:' && url.protocol !== 'https:') ||
        url.origin !== o.replace(/\/$/, '')
      ) {
        throw new ConfigError(`CORS_ORIGINS: "${o}" is not an origin like https://app.example.com`);
      }
      return url.origin;
    });
}

/** Reads and checks the environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(emptyToUndefined(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const msg = issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    throw new ConfigError(msg);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const s3Given = [e.S3_BUCKET, e.S3_ENDPOINT, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY].some(
    Boolean,
  );
  if (s3Given && !e.S3_BUCKET) {
    throw new ConfigError('S3_BUCKET is required when any other S3_* variable is set');
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new ConfigError('METRICS_PORT must differ from PORT');
  }
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  const publicUrl = (e.PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/+$/, '');
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    publicUrl,
    outboundAllowPrivate: e.OUTBOUND_ALLOW_PRIVATE,
    outboundYieldRate: e.OUTBOUND_YIELD_RATE,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DB_POOL_MAX,
    jwtSecret: resolveJwtSecret(e.JWT_SECRET, dataDir, e.NODE_ENV),
    generatedSecrets: { jwtSecret: !e.JWT_SECRET, jwtPrivateKey: !e.JWT_PRIVATE_KEY },
    jwtExpiry: e.JWT_EXPIRY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `Portal <no-reply@${new URL(publicUrl).hostname}>`,
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          bucket: e.S3_BUCKET,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    redisUrl: e.REDIS_URL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    // A balancer checking /readyz every 2 s and marking down after 2 failures needs ~4 s; the
    // embedded database allows one process per folder, so no balancer can move its traffic.
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS ?? (e.DATABASE_URL ? 6 : 0),
    logLevel: e.LOG_LEVEL,
    authAutoconfirm: e.AUTH_AUTOCONFIRM,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    devMailbox: !e.SMTP_URL && e.NODE_ENV !== 'production',
    webRoot: e.WEB_ROOT ? path.resolve(e.WEB_ROOT) : undefined,
    authRateLimits: {
      token: e.AUTH_RATE_LIMIT_TOKEN,
      signup: e.AUTH_RATE_LIMIT_SIGNUP,
      recover: e.AUTH_RATE_LIMIT_RECOVER,
      verify: e.AUTH_RATE_LIMIT_VERIFY,
      userUpdate: e.AUTH_RATE_LIMIT_USER_UPDATE,
    },
    authMailInterval: e.AUTH_MAIL_INTERVAL,
    authReauthenticateAfter: e.AUTH_REAUTHENTICATE_AFTER,
    mfaRequiredFor: [
      ...new Set(
        e.MFA_REQUIRED_FOR.split(',')
          .map((r) => r.trim())
          .filter((r): r is Role => r === 'admin' || r === 'publisher' || r === 'buyer'),
      ),
    ],
    authRateLimitMfa: e.AUTH_RATE_LIMIT_MFA,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    live: {
      maxStreams: e.LIVE_MAX_STREAMS,
      heartbeatMs: e.LIVE_HEARTBEAT_MS,
      sessionCheckMs: e.LIVE_SESSION_CHECK_MS,
      // The reader's net for a missed NOTIFY (the listening connection was down).
      pollMs: e.LIVE_POLL_MS,
    },
    jwtAlg: e.JWT_ALG,
    jwtPrivateKeyPem: resolveJwtPrivateKey(e.JWT_ALG, e.JWT_PRIVATE_KEY, dataDir),
    corsOrigins: corsOrigins(e.CORS_ORIGINS),
    metrics: {
      token: e.METRICS_TOKEN,
      port: e.METRICS_PORT,
      open: e.NODE_ENV !== 'production' && !e.METRICS_TOKEN,
    },
    apiDocs: e.API_DOCS,
  };
}
