import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';

/** Probes a balancer or orchestrator sends every second: logged at debug only. */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * The server's logger: JSON lines in production (for a log collector), and in development one
 * readable line per event (pino-pretty), e.g. `GET /api/v1/me 200 3.1 ms`. Tests pass their own.
 */
export function loggerOptions(cfg: {
  nodeEnv: string;
  logLevel: string;
}): NonNullable<FastifyServerOptions['logger']> {
  const base = { level: cfg.logLevel, redact: ['req.headers.authorization'] };
  if (cfg.nodeEnv !== 'development') return base;
  return {
    ...base,
    transport: {
      target: 'pino-pretty',
      options: {
        singleLine: true,
        translateTime: 'HH:MM:ss',
        ignore: 'pid,hostname,reqId,method,url,statusCode,ms',
      },
    },
  };
}

/**
 * One log line per request, when it has been answered: method, path, status and time (Fastify's
 * own pair of lines, "incoming request" and "request completed", is switched off in buildApp).
 * Server errors log at error level, client errors at info, probes at debug.
 */
export const requestLog = fp(async (app: FastifyInstance) => {
  app.addHook('onResponse', async (req, reply) => {
    const path = req.url.split('?')[0] ?? req.url;
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const status = reply.statusCode;
    const fields = { reqId: req.id, method: req.method, url: path, statusCode: status, ms };
    const line = `${req.method} ${path} ${status} ${ms} ms`;
    if (PROBES.has(path) && status < 500) req.log.debug(fields, line);
    else if (status >= 500) req.log.error(fields, line);
    else req.log.info(fields, line);
  });
});
