// One owner per data folder. The process that opens the embedded database listens on a Unix
// socket in DATA_DIR (portal.sock). bind() fails while the owner lives, and the kernel stops
// accepting connections the moment the owner dies (even on SIGKILL), so a socket file nobody
// answers on is stale and is replaced. The same socket is how other commands (create-admin,
// demo, backup) ask the running owner to do their work: only processes that may open files in
// DATA_DIR (mode 0700 socket, owner's user) can connect.
import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export const SOCKET_NAME = 'portal.sock';

/** Who holds a data folder, as the holder itself tells. */
export type OwnerInfo = {
  pid: number;
  /** The command line of the holder, shortened. */
  command: string;
  startedAt: string;
  /** False while the holder is still migrating / starting. */
  ready: boolean;
};

/** The data folder is held by another live process. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: OwnerInfo | null,
  ) {
    super(busyMessage(dataDir, holder));
  }
}

/** One line: which folder, which process, what to do. */
export function busyMessage(dataDir: string, holder: OwnerInfo | null): string {
  const who = holder
    ? `process ${holder.pid} (${holder.command}, since ${holder.startedAt.slice(0, 19).replace('T', ' ')} UTC)`
    : 'another process (it does not answer yet)';
  return (
    `The data folder ${dataDir} is in use by ${who}. One portal per data folder: stop that ` +
    'process first (Ctrl+C in its terminal, or kill ' +
    `${holder?.pid ?? '<pid>'}), or set DATA_DIR to another folder. npm run create-admin, demo ` +
    'and backup work while it runs.'
  );
}

/** A request's answer lines: progress text, binary chunks, then one result or error. */
export type OpContext = {
  progress(line: string): void;
  chunk(data: Buffer): void;
};
export type OpHandler = (params: Record<string, unknown>, ctx: OpContext) => Promise<unknown>;

export type DataDirOwner = {
  dataDir: string;
  socketPath: string;
  /** Starts answering requests other than hello. */
  serve(handlers: Record<string, OpHandler>): void;
  release(): Promise<void>;
};

/** A failure that the owner reports to the caller as one sentence. */
export class OwnerOpError extends Error {}

const MAX_SOCKET_PATH = 100; // sun_path is 104-108 bytes depending on the OS

/** The path to bind/connect: absolute when it fits, else relative to the working directory. */
function socketAddress(dataDir: string): string {
  const full = path.join(path.resolve(dataDir), SOCKET_NAME);
  if (Buffer.byteLength(full) <= MAX_SOCKET_PATH) return full;
  const rel = path.relative(process.cwd(), full);
  if (Buffer.byteLength(rel) <= MAX_SOCKET_PATH) return rel;
  throw new Error(
    `DATA_DIR ${dataDir} is too long a path for the portal's lock socket (${MAX_SOCKET_PATH} bytes at most): choose a shorter DATA_DIR or start from a folder nearer to it.`,
  );
}

function shortCommand(): string {
  try {
    const parts = readFileSync('/proc/self/cmdline', 'utf8').split('\0').filter(Boolean);
    const script = parts.find((p) => /\.(ts|js|mjs)$/.test(p) && !p.includes('node_modules'));
    if (script) return `node ${path.relative(process.cwd(), script) || script}`;
  } catch {
    /* no /proc: fall back to argv */
  }
  return process.argv.slice(1, 2).join(' ') || 'node';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Probe = { alive: false } | { alive: true; info: OwnerInfo | null };

/**
 * Connects to the socket: refused/missing means nobody holds the folder. A busy owner (a start's
 * warm-up on a loaded machine) may take seconds to answer its hello: 8 s, so the refusal can
 * still name the process (3 s was too short under a full test run on 2 cores).
 */
function probe(address: string, timeoutMs = 8000): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    let connected = false;
    let buffer = '';
    const done = (p: Probe) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(p);
    };
    // Connected but silent (the owner's event loop is busy): alive, details unknown.
    const timer = setTimeout(
      () => done(connected ? { alive: true, info: null } : { alive: false }),
      timeoutMs,
    );
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ op: 'hello' })}\n`);
    });
    socket.on('data', (d) => {
      buffer += d.toString('utf8');
      const nl = buffer.indexOf('\n');
      if (nl < 0) return;
      try {
        const msg = JSON.parse(buffer.slice(0, nl)) as { result?: OwnerInfo };
        done({ alive: true, info: msg.result ?? null });
      } catch {
        done({ alive: true, info: null });
      }
    });
    socket.on('error', () => done(connected ? { alive: true, info: null } : { alive: false }));
    socket.on('close', () => done(connected ? { alive: true, info: null } : { alive: false }));
  });
}

/** Who holds the data folder right now, or null when nobody does. Writes nothing. */
export async function findOwner(dataDir: string): Promise<{ info: OwnerInfo | null } | null> {
  const address = socketAddress(dataDir);
  if (!existsSync(address)) return null;
  const p = await probe(address);
  return p.alive ? { info: p.info } : null;
}

/**
 * Runs fn while holding a short-lived mutex (a directory: mkdir is atomic), so that two
 * processes replacing the same stale socket at once cannot both end up listening.
 */
async function withReplaceMutex(address: string, fn: () => Promise<void>) {
  const mutex = `${address}.replacing`;
  for (let i = 0; ; i++) {
    try {
      mkdirSync(mutex);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A holder killed in the middle of a replacement (a few milliseconds) leaves it behind.
      try {
        if (Date.now() - statSync(mutex).mtimeMs > 10_000) rmdirSync(mutex);
      } catch {
        /* gone meanwhile */
      }
      if (i > 200) throw new Error(`Could not take ${mutex}; remove it if no portal is starting.`);
      await sleep(50);
    }
  }
  try {
    await fn();
  } finally {
    rmdirSync(mutex);
  }
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(address);
  });
}

/**
 * Takes the data folder for this process, or throws DataDirBusyError naming the live holder.
 * Nothing is written when the folder is held.
 */
export async function claimDataDir(dataDir: string): Promise<DataDirOwner> {
  const dir = path.resolve(dataDir);
  const address = socketAddress(dir);
  const info: OwnerInfo = {
    pid: process.pid,
    command: shortCommand(),
    startedAt: new Date().toISOString(),
    ready: false,
  };
  let handlers: Record<string, OpHandler> | null = null;
  const connections = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = '';
    let started = false;
    socket.on('data', (d) => {
      if (started) return;
      buffer += d.toString('utf8');
      const nl = buffer.indexOf('\n');
      if (nl < 0) {
        if (buffer.length > 1_000_000) socket.destroy();
        return;
      }
      started = true;
      void answer(socket, buffer.slice(0, nl));
    });
  });

  const send = (socket: net.Socket, msg: unknown) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(msg)}\n`);
  };

  async function answer(socket: net.Socket, line: string) {
    let req: { op?: unknown; params?: unknown };
    try {
      req = JSON.parse(line);
    } catch {
      send(socket, { ok: false, error: 'The request is not JSON.' });
      socket.end();
      return;
    }
    if (req.op === 'hello') {
      send(socket, { ok: true, result: info });
      socket.end();
      return;
    }
    const handler = typeof req.op === 'string' ? handlers?.[req.op] : undefined;
    if (!handlers) {
      send(socket, { ok: false, starting: true, error: 'The portal is still starting.' });
    } else if (!handler) {
      send(socket, { ok: false, error: `The running portal does not know "${String(req.op)}".` });
    } else {
      try {
        const params = (req.params && typeof req.params === 'object' ? req.params : {}) as Record<
          string,
          unknown
        >;
        const result = await handler(params, {
          progress: (text) => send(socket, { progress: text }),
          chunk: (data) => send(socket, { chunk: data.toString('base64') }),
        });
        send(socket, { ok: true, result: result ?? null });
      } catch (err) {
        const known = err instanceof OwnerOpError || (err as { statusCode?: number }).statusCode;
        send(socket, {
          ok: false,
          error: known
            ? (err as Error).message
            : `The running portal failed: ${(err as Error).message}`,
        });
      }
    }
    socket.end();
  }

  const existed = existsSync(dir);
  for (let attempt = 0; ; attempt++) {
    if (!existed && attempt === 0) mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      await listen(server, address);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw err;
    }
    const p = await probe(address);
    if (p.alive) throw new DataDirBusyError(dir, p.info);
    // Nobody answers: the holder died. Replace its socket file (once, under the mutex).
    await withReplaceMutex(address, async () => {
      const again = await probe(address, 1000);
      if (again.alive) throw new DataDirBusyError(dir, again.info);
      try {
        unlinkSync(address);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    });
  }
  await chmod(address, 0o600).catch(() => {});
  // The socket must not keep the process alive on its own, nor outlive it.
  server.unref();

  return {
    dataDir: dir,
    socketPath: path.resolve(address),
    serve(h) {
      handlers = h;
      info.ready = true;
    },
    release: () =>
      new Promise<void>((resolve) => {
        handlers = null;
        for (const c of connections) c.destroy();
        server.close(() => resolve());
      }),
  };
}

type CallOptions = {
  onProgress?: (line: string) => void;
  onChunk?: (data: Buffer) => void;
  /** How long to wait for an owner that is still starting. */
  waitReadyMs?: number;
};

/**
 * Asks the owner of dataDir to run op. Resolves with its result; rejects with OwnerOpError
 * carrying the owner's sentence. Resolves to `null`-ish only through the result.
 */
export async function callOwner(
  dataDir: string,
  op: string,
  params: Record<string, unknown>,
  opts: CallOptions = {},
): Promise<unknown> {
  const address = socketAddress(dataDir);
  const deadline = Date.now() + (opts.waitReadyMs ?? 60_000);
  for (;;) {
    const outcome = await new Promise<{ starting: true } | { result: unknown }>(
      (resolve, reject) => {
        const socket = net.connect(address);
        let buffer = '';
        let settled = false;
        const settle = (fn: () => void) => {
          if (settled) return;
          settled = true;
          socket.destroy();
          fn();
        };
        socket.on('connect', () => socket.write(`${JSON.stringify({ op, params })}\n`));
        socket.on('data', (d) => {
          buffer += d.toString('utf8');
          for (;;) {
            const nl = buffer.indexOf('\n');
            if (nl < 0) break;
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            const msg = JSON.parse(line) as {
              progress?: string;
              chunk?: string;
              ok?: boolean;
              result?: unknown;
              error?: string;
              starting?: boolean;
            };
            if (msg.progress !== undefined) opts.onProgress?.(msg.progress);
            else if (msg.chunk !== undefined) opts.onChunk?.(Buffer.from(msg.chunk, 'base64'));
            else if (msg.ok) settle(() => resolve({ result: msg.result }));
            else if (msg.starting) settle(() => resolve({ starting: true }));
            else settle(() => reject(new OwnerOpError(msg.error ?? 'The running portal refused.')));
          }
        });
        socket.on('error', (err) =>
          settle(() =>
            reject(
              new OwnerOpError(
                `Could not reach the running portal through ${address}: ${err.message}`,
              ),
            ),
          ),
        );
        socket.on('close', () =>
          settle(() =>
            reject(new OwnerOpError('The running portal closed the connection before answering.')),
          ),
        );
      },
    );
    if ('result' in outcome) return outcome.result;
    if (Date.now() > deadline)
      throw new OwnerOpError('The running portal did not finish starting.');
    await sleep(500);
  }
}

/**
 * For entry points (npm start, dev, the server): when the embedded database's folder is held
 * by a live process, prints the one line and exits before anything is read or written.
 */
export async function exitIfDataDirHeld(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (env.DATABASE_URL?.trim()) return; // PostgreSQL: any number of instances may run
  const dataDir = path.resolve(env.DATA_DIR?.trim() || './data');
  const holder = await findOwner(dataDir);
  if (holder) {
    console.error(busyMessage(dataDir, holder.info));
    process.exit(1);
  }
}
