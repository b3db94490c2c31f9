import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { LiveCounters, LiveEnd, LiveMessage } from '../../../contract/live.ts';
import type { Db } from '../../db/client.ts';
import { groupRows } from '../../db/rows.ts';
import { pause, underPressure } from '../../jobs/pressure.ts';
import { registerJob } from '../../jobs/runtime.ts';
import { type LiveBus, startRedisBus } from './live.bus.ts';
import {
  countersOf,
  type EventRow,
  eventsAfter,
  type LiveScope,
  leadsOfEvents,
  liveSessions,
  newestEventId,
  scopeKey,
  viewOf,
} from './live.service.ts';

/** One open stream: its user, session and scope, and the socket it writes to. */
export type LiveStream = {
  userId: string;
  sessionId: string;
  admin: boolean;
  scope: LiveScope;
  raw: ServerResponse;
  /** The highest event id this stream was sent (its `id:` never goes back). */
  lastId: number;
  /** Messages held while the stream's first content (snapshot or catch-up) is read. */
  held: string[] | null;
  closed: boolean;
};

/** Timeline rows read per turn; a full turn is followed by another at once. */
const BATCH = 1000;
/**
 * The least time between the reader's turns while the call postbacks queue up: events reach
 * the screens up to this much later (the goal is 2 s), and a turn carries the calls of every
 * ingest batch written meanwhile instead of one batch's.
 */
const PRESSED_TURN_GAP_MS = 200;
/** A missing id (a transaction that took it and had not committed yet) is looked for this long. */
const GAP_WAIT_MS = 5000;
/** At most this many missing ids are remembered (a rolled-back bulk load leaves a hole). */
const MAX_GAPS = 200;
/** Counters of one scope are worked out at most once per this long. */
const COUNTERS_EVERY_MS = 1000;

/** One SSE message (`id:` only when the stream has one). */
export function sseMessage(m: LiveMessage, id?: number): string {
  return sseText(m.event, JSON.stringify(m.data), id);
}

/** One SSE message of data already serialized (one text shared by the streams of a scope). */
function sseText(event: LiveMessage['event'], json: string, id?: number): string {
  return `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${json}\n\n`;
}

/** The turn's rows a scope holds (what `inScope` keeps, by lookup). */
function rowsOfScope(
  scope: LiveScope,
  rows: EventRow[],
  byPublisher: Map<string, EventRow[]>,
  byBuyer: Map<string | null, EventRow[]>,
): EventRow[] {
  switch (scope.kind) {
    case 'all':
      return rows;
    case 'publisher':
      return byPublisher.get(scope.publisherId) ?? [];
    case 'buyer':
      return byBuyer.get(scope.buyerId) ?? [];
    default:
      return [];
  }
}

/**
 * The live streams of this instance (issue 32). One reader per instance follows the lead
 * timeline (lead_events) from its newest id, woken by NOTIFY live_events at any instance's
 * commit (or its poll, LIVE_POLL_MS), and hands each turn's calls to the streams whose scope holds them:
 * one database read per turn, whatever the number of streams. Counters are worked out once per
 * scope, at most once a second, when a turn touched it. A heartbeat comment keeps proxies from
 * closing a quiet stream; each instance checks its streams' sessions and ends the ones signed
 * out or blocked.
 */
export class LiveHub {
  readonly streams = new Set<LiveStream>();
  /** The highest timeline id read; undefined while no stream is open (nothing is read). */
  private cursor: number | undefined;
  /** Ids below the cursor not seen yet, with when they were first missed. */
  private readonly gaps = new Map<number, number>();
  /** Scope keys whose counters are due, and when each was last sent. */
  private readonly dirty = new Map<string, LiveScope>();
  private readonly countedAt = new Map<string, number>();

  /** A wake of the reader already asked for counters still held back by the once-a-second rule. */
  private wakeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: () => Db,
    /** Runs a turn soon (the reader job's wake). */
    private readonly wake: () => void = () => {},
  ) {}

  /** Streams of a user open on this instance. */
  countOf(userId: string): number {
    let n = 0;
    for (const s of this.streams) if (s.userId === userId && !s.closed) n++;
    return n;
  }

  /**
   * Adds a stream (its messages held until `release`) and answers the timeline id it starts
   * after: what came later reaches it through the reader.
   */
  async add(stream: LiveStream): Promise<number> {
    this.streams.add(stream);
    if (this.cursor === undefined) this.cursor = await newestEventId(this.db());
    return this.cursor;
  }

  /**
   * Writes the stream's first messages (snapshot or catch-up, counters), then the ones held
   * meanwhile; from now on the reader's go straight out.
   */
  start(stream: LiveStream, first: { m: LiveMessage; id?: number }[]): void {
    const held = stream.held ?? [];
    stream.held = null;
    for (const { m, id } of first) this.send(stream, m, id);
    for (const text of held) this.write(stream, text);
  }

  remove(stream: LiveStream): void {
    stream.closed = true;
    this.streams.delete(stream);
    if (this.streams.size === 0) {
      this.cursor = undefined;
      this.gaps.clear();
      this.dirty.clear();
    }
  }

  write(stream: LiveStream, text: string): void {
    if (stream.closed) return;
    if (stream.held) stream.held.push(text);
    else stream.raw.write(text);
  }

  send(stream: LiveStream, m: LiveMessage, id?: number): void {
    if (id !== undefined) stream.lastId = Math.max(stream.lastId, id);
    this.write(stream, sseMessage(m, id !== undefined ? stream.lastId : undefined));
  }

  /** Ends a stream with a last `end` message. */
  end(stream: LiveStream, data: LiveEnd): void {
    if (stream.closed) return;
    stream.held = null;
    stream.raw.write(sseMessage({ event: 'end', data }));
    this.remove(stream);
    stream.raw.end();
  }

  /** One turn of the reader: new timeline rows to their streams, then the counters due. */
  async turn(): Promise<number> {
    if (this.cursor === undefined || this.streams.size === 0) return 0;
    const now = Date.now();
    for (const [id, since] of this.gaps) if (now - since > GAP_WAIT_MS) this.gaps.delete(id);
    const cursor = this.cursor;
    const rows = (
      await eventsAfter(this.db(), {
        afterId: cursor,
        alsoIds: [...this.gaps.keys()],
        limit: BATCH,
      })
    ).filter((r) => r.event_id > cursor || this.gaps.delete(r.event_id));
    this.advance(rows, cursor, now);
    if (rows.length > 0) this.deliver(rows);
    await this.sendCounters(now);
    return rows.length;
  }

  private advance(rows: EventRow[], cursor: number, now: number): void {
    let expected = cursor + 1;
    for (const r of rows) {
      if (r.event_id < expected) continue;
      for (let id = expected; id < r.event_id && this.gaps.size < MAX_GAPS; id++) {
        this.gaps.set(id, now);
      }
      expected = r.event_id + 1;
    }
    if (this.cursor !== undefined) this.cursor = Math.max(this.cursor, expected - 1);
  }

  private deliver(rows: EventRow[]): void {
    const maxId = rows.reduce((m, r) => Math.max(m, r.event_id), 0);
    // The turn's calls by publisher and by buyer, once: a scope's calls are then one lookup,
    // not a pass over the turn per scope (500 streams are ~100 publishers).
    const byPublisher = groupRows(
      rows,
      (r) => r.publisher_id,
      (r) => r,
    );
    const byBuyer = groupRows(
      rows,
      (r) => r.buyer_id,
      (r) => r,
    );
    // Each scope's message serialized once for all its streams (the admins' streams share one).
    const texts = new Map<string, string | null>();
    for (const s of this.streams) {
      const key = scopeKey(s.scope);
      let text = texts.get(key);
      if (text === undefined) {
        const mine = rowsOfScope(s.scope, rows, byPublisher, byBuyer);
        const leads = mine.length > 0 ? leadsOfEvents(mine, viewOf(s.scope)) : [];
        text = leads.length > 0 ? JSON.stringify({ leads }) : null;
        texts.set(key, text);
      }
      if (text === null) continue;
      s.lastId = Math.max(s.lastId, maxId);
      this.write(s, sseText('leads', text, s.lastId));
      if (s.scope.kind !== 'none') this.dirty.set(key, s.scope);
    }
  }

  private async sendCounters(now: number): Promise<void> {
    let soonest = Number.POSITIVE_INFINITY;
    for (const [key, scope] of this.dirty) {
      const wait = COUNTERS_EVERY_MS - (now - (this.countedAt.get(key) ?? 0));
      if (wait > 0) {
        soonest = Math.min(soonest, wait);
        continue;
      }
      this.dirty.delete(key);
      this.countedAt.set(key, now);
      const byRole = new Map<boolean, LiveCounters>();
      for (const s of this.streams) {
        if (scopeKey(s.scope) !== key) continue;
        let counters = byRole.get(s.admin);
        if (!counters) {
          counters = await countersOf(this.db(), scope, s.admin);
          byRole.set(s.admin, counters);
        }
        this.send(s, { event: 'counters', data: counters });
      }
    }
    // Counters held back: a turn when they are due (the poll may be far).
    if (Number.isFinite(soonest) && !this.wakeTimer) {
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = undefined;
        this.wake();
      }, soonest);
      this.wakeTimer.unref();
    }
  }

  heartbeat(): void {
    for (const s of this.streams) this.write(s, ': heartbeat\n\n');
  }

  /** Ends the streams whose session ended or whose user was blocked. */
  async checkSessions(): Promise<number> {
    const streams = [...this.streams];
    if (streams.length === 0) return 0;
    const alive = await liveSessions(this.db(), [...new Set(streams.map((s) => s.sessionId))]);
    let ended = 0;
    for (const s of streams) {
      const session = alive.get(s.sessionId);
      if (session && !session.blocked) continue;
      ended++;
      this.end(
        s,
        session
          ? { reason: 'blocked', message: 'Your account is blocked.' }
          : { reason: 'signed_out', message: 'Your session has ended. Please sign in again.' },
      );
    }
    return ended;
  }

  /** Every stream ended (the instance closes). */
  endAll(): void {
    clearTimeout(this.wakeTimer);
    for (const s of [...this.streams]) {
      this.end(s, { reason: 'shutdown', message: 'The server is restarting. Reconnecting…' });
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    liveHub: LiveHub;
  }
}

/**
 * The instance's hub and its jobs: the reader (woken by NOTIFY live_events, or with REDIS_URL
 * by Redis pub/sub after each answered write request; else every second), the heartbeat, the
 * session check. Streams end before the server closes.
 */
/** Requests that never write a lead: they wake no one. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerLive(app: FastifyInstance): void {
  const hub = new LiveHub(
    () => app.db,
    () => reader.wake(),
  );
  app.decorate('liveHub', hub);
  const reader = registerJob(app, {
    name: 'live-events',
    scope: 'instance',
    everyMs: app.config.live.pollMs,
    firstRunMs: 0,
    whileDraining: true,
    run: async () => {
      const n = await hub.turn();
      if (n >= BATCH) reader.wake();
      // While the call postbacks queue up (server/jobs/pressure.ts), turns come at most every
      // PRESSED_TURN_GAP_MS: the wakes meanwhile fold into one turn, one read and one message
      // per stream for all of their calls, instead of one per ingest batch.
      else if (n > 0 && underPressure()) await pause(PRESSED_TURN_GAP_MS);
      return 0;
    },
  });
  registerJob(app, {
    name: 'live-heartbeat',
    scope: 'instance',
    everyMs: app.config.live.heartbeatMs,
    whileDraining: true,
    run: async () => hub.heartbeat(),
  });
  registerJob(app, {
    name: 'live-sessions',
    scope: 'instance',
    everyMs: app.config.live.sessionCheckMs,
    whileDraining: true,
    run: () => hub.checkSessions(),
  });
  let unlisten: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    const redisUrl = app.config.redisUrl;
    if (redisUrl) {
      // Redis pub/sub instead of LISTEN/NOTIFY: an answered write wakes every instance.
      const bus = await startRedisBus(redisUrl, () => reader.wake(), app.log);
      liveBus = bus;
      unlisten = () => bus.close();
      return;
    }
    unlisten = await app.database
      .listen('live_events', () => reader.wake())
      .catch((err: unknown) => {
        app.log.warn({ err }, 'live: LISTEN failed; the streams are fed by polling');
        return undefined;
      });
  });
  let liveBus: LiveBus | undefined;
  app.addHook('onResponse', async (req, reply) => {
    if (liveBus && !READS.has(req.method) && reply.statusCode < 400) liveBus.publish();
  });
  app.addHook('preClose', async () => {
    hub.endAll();
  });
  app.addHook('onClose', async () => {
    await unlisten?.();
  });
}
