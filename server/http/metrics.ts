import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { sendError } from './error-handler.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The separate /metrics listener when METRICS_PORT is set (after ready), else undefined. */
    metricsServer: Server | undefined;
    /** The /metrics registry: other plugins add their gauges and counters to it. */
    metricsRegistry: Registry;
  }
}

const sha = (s: string) => createHash('sha256').update(s).digest();

/** True when the Authorization header carries the metrics token (compared in constant time). */
export function hasMetricsToken(header: string | string[] | undefined, token: string): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  const m = value ? /^Bearer\s+(\S+)$/i.exec(value) : null;
  return m ? timingSafeEqual(sha(m[1]!), sha(token)) : false;
}

/**
 * Prometheus text at /metrics: requests by route and status, and a latency histogram.
 *
 * Who may read it (config.metrics): with METRICS_PORT it is served only on that port (bind it to
 * a private interface or firewall it), with METRICS_TOKEN only to `Authorization: Bearer <token>`
 * (on either port), and without both it is open outside production and refused in production.
 */
export const metricsPlugin = fp(async (app: FastifyInstance) => {
  const { metrics } = app.config;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  app.addHook('onResponse', async (req, reply) => {
    // The route pattern, not the raw URL, keeps the label set small.
    const route = req.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });

  app.decorate('metricsServer', undefined);
  app.decorate('metricsRegistry', registry);

  if (metrics.port !== undefined) {
    // Its own small listener, outside the public port and its routes.
    const server = createServer((req, res) => {
      const url = (req.url ?? '/').split('?')[0];
      if (url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: try /metrics\n');
        return;
      }
      if (metrics.token && !hasMetricsToken(req.headers.authorization, metrics.token)) {
        res
          .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
          .end('The metrics token is missing or wrong.\n');
        return;
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed.\n'),
      );
    });
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(metrics.port, app.config.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      app.metricsServer = server;
    });
    app.addHook('onClose', async () => {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return;
  }

  app.get(
    '/metrics',
    { schema: { hide: true } },
    async (req: FastifyRequest, reply: FastifyReply) => {
      if (metrics.token) {
        if (!hasMetricsToken(req.headers.authorization, metrics.token)) {
          reply.header('www-authenticate', 'Bearer');
          return sendError(reply, 401, 'unauthorized', 'The metrics token is missing or wrong.');
        }
      } else if (!metrics.open) {
        return sendError(
          reply,
          403,
          'forbidden',
          'Metrics are off in production until METRICS_TOKEN or METRICS_PORT is set.',
        );
      }
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
});
