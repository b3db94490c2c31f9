import dns, { type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Safe outbound HTTP (issue 30, item 4): only http(s), only public addresses, checked on the
 * address the socket connects to (the agents' own `lookup`), so a DNS name that turns private
 * between a check and the connection (rebinding) is refused too. No redirect is followed, the
 * answer is read up to a cap, and the whole exchange has a time limit.
 * `OUTBOUND_ALLOW_PRIVATE=true` lets private targets through (tests, private deployments).
 */

const blocked = new BlockList();
// IPv4: "this" network, private, CGNAT, loopback, link-local (the cloud metadata 169.254.169.254
// among them), IETF protocol assignments, documentation, benchmarking, multicast, reserved.
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
// IPv6: unspecified, loopback, IPv4-mapped and NAT64 and 6to4 (they embed an IPv4 address),
// ULA (AWS's metadata fd00:ec2::254 among them), link-local, documentation, multicast.
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['2001:db8::', 32],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True for an address the portal may send to without OUTBOUND_ALLOW_PRIVATE. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A target refused before anything was sent; the sentence says why. */
export class RefusedTarget extends Error {}

/** Names resolved in the last few seconds (keyed by name and lookup options). */
const resolved = new Map<string, { until: number; list: LookupAddress[] }>();
const RESOLVED_MS = 30_000;

/** dns.lookup, its answer kept for 30 s (a new connection to a busy origin asks no DNS). */
function lookupAll(
  hostname: string,
  family: number,
  done: (e: Error | null, l: LookupAddress[]) => void,
) {
  const key = `${family}:${hostname}`;
  const hit = resolved.get(key);
  if (hit && hit.until > Date.now()) return done(null, hit.list);
  dns.lookup(hostname, { family, all: true }, (err, list) => {
    if (err) return done(err, []);
    if (resolved.size > 1000) resolved.clear();
    resolved.set(key, { until: Date.now() + RESOLVED_MS, list });
    done(null, list);
  });
}

/**
 * A lookup that refuses a name resolving to any non-public address (unless allowed): the
 * agents call it for each new connection, and the check runs on the very addresses the socket
 * is then given, cached or not.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const f = options.family;
    lookupAll(hostname, f === 'IPv4' ? 4 : f === 'IPv6' ? 6 : (f ?? 0), (err, list) => {
      if (err) return callback(err, '', 0);
      const bad = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (bad || list.length === 0) {
        const why = bad
          ? `${hostname} resolves to ${bad.address}, which is not a public address.`
          : `${hostname} has no address.`;
        return callback(Object.assign(new RefusedTarget(why), { code: 'ENOTPUBLIC' }), '', 0);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

// Kept-alive agents: a socket is only ever opened through the guarded lookup, so reusing it
// sends to the address that was checked.
const agents = new Map<string, http.Agent>();
function agentFor(protocol: 'http:' | 'https:', allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 128, lookup: guardedLookup(allowPrivate) };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

export type OutboundRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
};

export type OutboundAnswer = {
  /** null when no answer came (refused, timed out, connection failed). */
  status: number | null;
  /** The first `keepBytes` of the answer's body. */
  body: string;
  retryAfter: string | null;
  durationMs: number;
  /** Why it failed without a status, in a sentence. */
  error: string | null;
};

export const OUTBOUND_TIMEOUT_MS = 10_000;
/** Of an answer, this much is kept in the log. */
export const KEPT_BODY_BYTES = 2048;
/** And at most this much read (then the connection is dropped). */
const READ_CAP_BYTES = 64 * 1024;

/** Why `url` may not be sent to at all (scheme, an address literal), or null. */
export function refusalOf(url: string, allowPrivate: boolean): string | null {
  const u = parsed(url);
  return typeof u === 'string' ? u : refusalOfUrl(u, allowPrivate);
}

function parsed(url: string): URL | string {
  try {
    return new URL(url);
  } catch {
    return 'The URL is not valid.';
  }
}

function refusalOfUrl(u: URL, allowPrivate: boolean): string | null {
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'Only http and https URLs.';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    return `${host} is not a public address.`;
  }
  return null;
}

/**
 * The portal's own dev sink (`/dev/sink/…` on this portal's port, over loopback): the one local
 * target allowed without OUTBOUND_ALLOW_PRIVATE, and only while the sink is served (the dev
 * mailbox is on: no SMTP_URL, not production), so `npm run demo` then `npm start` shows its
 * postbacks and webhooks delivered. `devSinkPort` is undefined otherwise.
 */
export function isOwnDevSink(u: URL, devSinkPort: number | undefined): boolean {
  if (devSinkPort === undefined || u.protocol !== 'http:') return false;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === '127.0.0.1' || host === '::1' || host === 'localhost';
  return loopback && Number(u.port || 80) === devSinkPort && u.pathname.startsWith('/dev/sink/');
}

/** What lets a request reach a private address: the setting, or the dev sink (above). */
export type OutboundPolicy = { allowPrivate: boolean; devSinkPort?: number };

/** The policy the portal's config sets. */
export function outboundPolicyOf(config: {
  outboundAllowPrivate: boolean;
  devMailbox: boolean;
  port: number;
}): OutboundPolicy {
  return {
    allowPrivate: config.outboundAllowPrivate,
    devSinkPort: config.devMailbox ? config.port : undefined,
  };
}

/** Sends one request; never throws: a failure is an answer with `error`. */
export async function sendOutbound(
  req: OutboundRequest,
  policy: OutboundPolicy & { timeoutMs?: number },
): Promise<OutboundAnswer> {
  const began = performance.now();
  const took = () => Math.round(performance.now() - began);
  const url = parsed(req.url);
  const allowPrivate =
    policy.allowPrivate || (typeof url !== 'string' && isOwnDevSink(url, policy.devSinkPort));
  const opts = { allowPrivate, timeoutMs: policy.timeoutMs };
  const refused = typeof url === 'string' ? url : refusalOfUrl(url, opts.allowPrivate);
  if (refused !== null || typeof url === 'string') {
    return { status: null, body: '', retryAfter: null, durationMs: 0, error: refused };
  }
  const timeoutMs = opts.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const mod = url.protocol === 'https:' ? https : http;
  const body = req.body === null ? undefined : Buffer.from(req.body);
  return new Promise((resolve) => {
    let done = false;
    // One timer for the whole exchange (connection, request, answer).
    const timer = setTimeout(() => {
      finish({
        status: null,
        body: '',
        retryAfter: null,
        error: `No answer within ${timeoutMs / 1000} s.`,
      });
      request.destroy();
    }, timeoutMs);
    const finish = (a: Omit<OutboundAnswer, 'durationMs'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...a, durationMs: took() });
    };
    const request = mod.request(
      url,
      {
        method: req.method,
        headers: {
          'user-agent': 'portal-webhooks/1',
          ...req.headers,
          ...(body && { 'content-length': String(body.length) }),
        },
        agent: agentFor(url.protocol as 'http:' | 'https:', opts.allowPrivate),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const answer = () => {
          const text = Buffer.concat(chunks).subarray(0, KEPT_BODY_BYTES).toString('utf8');
          const ra = res.headers['retry-after'];
          finish({
            status: res.statusCode ?? null,
            body: text,
            retryAfter: typeof ra === 'string' ? ra : null,
            error: null,
          });
        };
        res.on('data', (c: Buffer) => {
          read += c.length;
          if (read <= KEPT_BODY_BYTES + c.length) chunks.push(c);
          if (read > READ_CAP_BYTES) {
            answer();
            res.destroy();
          }
        });
        res.on('end', answer);
        res.on('error', answer);
      },
    );
    request.on('error', (err: Error & { code?: string }) => {
      const error =
        err instanceof RefusedTarget
          ? err.message
          : `Could not connect: ${err.code ?? err.message}.`;
      finish({ status: null, body: '', retryAfter: null, error });
    });
    request.end(body);
  });
}

/** A Test's answer (postback or webhook): what was sent and what the receiver said. */
export function testAnswerOf(
  request: { method: string; url: string; body: string | null },
  answer: OutboundAnswer,
) {
  const { status, body, durationMs: duration_ms, error } = answer;
  return { request, status, body, duration_ms, error };
}
