import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a sink received. */
export type SinkRequest = {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
};

/** What the sink answers a request: a status, headers, a body; or hang (never answer). */
export type SinkAnswer = { status: number; headers?: Record<string, string>; body?: string };

/**
 * A real HTTP receiver on 127.0.0.1 for webhook and postback tests: it records every request
 * and answers what `answer` says (200 "ok" by default), so a test can make it fail, slow or
 * ask for a later retry.
 */
export type Sink = {
  url: string;
  port: number;
  requests: SinkRequest[];
  answer: (req: SinkRequest, n: number) => SinkAnswer | Promise<SinkAnswer>;
  close(): Promise<void>;
};

export async function startSink(
  answer: Sink['answer'] = () => ({ status: 200, body: 'ok' }),
): Promise<Sink> {
  const sink = { requests: [] as SinkRequest[], answer } as Sink;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const r: SinkRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      sink.requests.push(r);
      const a = await sink.answer(r, sink.requests.length);
      res.writeHead(a.status, a.headers);
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  sink.port = port;
  sink.url = `http://127.0.0.1:${port}`;
  sink.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return sink;
}
