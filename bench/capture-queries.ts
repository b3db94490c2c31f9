// Loaded into the bench's portal (`node --import tsx --import ./bench/capture-queries.ts`): the
// bench's dry run learns which SQL a request runs. A request sent with `x-bench-capture: <id>`
// has every statement its handler sends through node-postgres recorded (text, parameters, the
// connection, start and end); when its answer is sent, one JSON line goes to BENCH_CAPTURE_FILE.
// `x-bench-capture: off` ends capturing: the async context is disabled again, so the measured
// requests afterwards run exactly as without this file (the only cost left is one header check
// per request and one getStore() per query). Requests without the header are never recorded,
// so the background jobs' statements stay out.
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';

export type CapturedStatement = {
  /** Which connection ran it (numbered in order of first use): a transaction stays on one. */
  conn: number;
  text: string;
  values?: unknown[];
  /** The prepared statement's name, when the portal names it. */
  name?: string;
  rowMode?: 'array';
  /** Milliseconds from the request's start. */
  start: number;
  end: number;
};

export type CapturedRequest = { id: string; status: number; statements: CapturedStatement[] };

const file = process.env.BENCH_CAPTURE_FILE;
const store = new AsyncLocalStorage<{ started: number; statements: CapturedStatement[] }>();
const connections = new WeakMap<object, number>();
let nextConn = 1;

if (file) {
  type QueryFn = (this: pg.Client, ...args: unknown[]) => unknown;
  const proto = pg.Client.prototype as unknown as { query: QueryFn };
  const query = proto.query;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const capture = store.getStore();
    if (!capture) return query.apply(this, args);
    const [first, second] = args;
    type Config = { text?: string; values?: unknown[]; name?: string; rowMode?: string };
    const config: Config =
      typeof first === 'string'
        ? { text: first, values: Array.isArray(second) ? second : undefined }
        : (first as Config);
    // A cursor or stream (a CSV export) is a Submittable without text: not replayed.
    if (!config || typeof config.text !== 'string') return query.apply(this, args);
    const text = config.text;
    // query(config, values): the array beside the config wins, as in node-postgres.
    const values = Array.isArray(second) ? (second as unknown[]) : config.values;
    let conn = connections.get(this);
    if (conn === undefined) {
      conn = nextConn++;
      connections.set(this, conn);
    }
    const statement: CapturedStatement = {
      conn,
      text,
      ...(values ? { values } : {}),
      ...(config.name ? { name: config.name } : {}),
      ...(config.rowMode === 'array' ? { rowMode: 'array' as const } : {}),
      start: performance.now() - capture.started,
      end: Number.NaN,
    };
    capture.statements.push(statement);
    const done = () => {
      statement.end = performance.now() - capture.started;
    };
    // The callback form (pg-pool's): the end is when the callback is called.
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...r: unknown[]) => {
        done();
        return (callback as (...a: unknown[]) => unknown)(...r);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(done, done);
    }
    return result;
  };

  type Emit = (this: http.Server, event: string, ...args: unknown[]) => boolean;
  const emit = http.Server.prototype.emit as Emit;
  http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event === 'request') {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      const id = req.headers['x-bench-capture'];
      if (typeof id === 'string') {
        if (id === 'off') {
          store.disable();
        } else {
          const capture = { started: performance.now(), statements: [] as CapturedStatement[] };
          res.on('finish', () => {
            const line: CapturedRequest = {
              id,
              status: res.statusCode,
              statements: capture.statements,
            };
            appendFileSync(file, `${JSON.stringify(line)}\n`);
          });
          return store.run(capture, () => emit.call(this, event, ...args));
        }
      }
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}
