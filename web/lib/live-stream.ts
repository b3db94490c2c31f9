import type { LiveCounters, LiveLead, LiveMessage } from '@contract/live.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { apiUrl, authHeaders } from './api-client.ts';

/**
 * The live stream (GET /api/v1/live, issue 32), read with fetch streaming (EventSource cannot
 * send the bearer token): one connection per tab, opened by the first screen that listens and
 * closed with the last; reconnects after a drop with `Last-Event-ID` (the server resumes the
 * last 5 minutes), and stops for good when the server ends it for the session (sign-out, block).
 */

export type LiveStatus = 'connecting' | 'live' | 'offline' | 'ended';

/** What the screens read: the last 100 calls of today (newest first) and the counters. */
export type LiveState = {
  status: LiveStatus;
  calls: LiveLead[];
  counters: LiveCounters | null;
};

type Listener = (m: LiveMessage) => void;

const KEEP = 100;
let state: LiveState = { status: 'connecting', calls: [], counters: null };
const listeners = new Set<Listener>();
const watchers = new Set<() => void>();
let users = 0;
let stop: (() => void) | null = null;

function setState(next: Partial<LiveState>) {
  state = { ...state, ...next };
  for (const w of watchers) w();
}

/** The calls after a batch: each updated in place, new ones on top, newest first, 100 kept. */
export function mergeCalls(calls: LiveLead[], batch: LiveLead[]): LiveLead[] {
  const byId = new Map(calls.map((c) => [c.id, c]));
  for (const l of batch) byId.set(l.id, { ...l, kind: byId.has(l.id) ? 'changed' : l.kind });
  return [...byId.values()]
    .sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0))
    .slice(0, KEEP);
}

function apply(m: LiveMessage) {
  if (m.event === 'snapshot') setState({ calls: m.data.leads, counters: m.data.counters });
  else if (m.event === 'leads') setState({ calls: mergeCalls(state.calls, m.data.leads) });
  else if (m.event === 'counters') setState({ counters: m.data });
  for (const l of listeners) l(m);
}

/** Parses SSE text into messages; answers what is left of an unfinished message. */
export function parseSse(
  buffer: string,
  onMessage: (m: { event: string; id?: string; data: string }) => void,
): string {
  let rest = buffer.replace(/\r\n/g, '\n');
  let cut = rest.indexOf('\n\n');
  while (cut >= 0) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    cut = rest.indexOf('\n\n');
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0 || id !== undefined) onMessage({ event, id, data: data.join('\n') });
  }
  return rest;
}

/** The connection loop: read, and after a drop wait (1 s doubling to 15 s) and resume. */
function connect(): () => void {
  const ctrl = new AbortController();
  let lastId: string | undefined;
  let wait = 1000;
  let ended = false;
  const run = async () => {
    while (!ctrl.signal.aborted && !ended) {
      setState({ status: 'connecting' });
      try {
        const res = await fetch(apiUrl('live'), {
          headers: {
            accept: 'text/event-stream',
            ...(await authHeaders()),
            ...(lastId ? { 'last-event-id': lastId } : {}),
          },
          signal: ctrl.signal,
          cache: 'no-store',
        });
        if (res.status === 401 || res.status === 403) {
          setState({ status: 'ended' });
          return;
        }
        if (!res.ok || !res.body) throw new Error(`live: ${res.status}`);
        setState({ status: 'live' });
        wait = 1000;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer = parseSse(buffer + value, (raw) => {
            if (raw.id) lastId = raw.id;
            if (raw.event === 'message') return;
            const m = { event: raw.event, data: JSON.parse(raw.data) } as LiveMessage;
            if (m.event === 'end' && m.data.reason !== 'shutdown') ended = true;
            apply(m);
          });
        }
      } catch {
        if (ctrl.signal.aborted) return;
      }
      if (ended) {
        setState({ status: 'ended' });
        return;
      }
      setState({ status: 'offline' });
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, 15_000);
    }
  };
  void run();
  return () => ctrl.abort();
}

/** How long the page must have been quiet before the stream opens (and the most it waits). */
const QUIET_MS = 1000;
const MOST_WAIT_MS = 10_000;

/** Milliseconds since the page last finished downloading anything (Resource Timing). */
function quietFor(): number {
  const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  const last = entries.reduce((m, e) => Math.max(m, e.responseEnd), 0);
  return performance.now() - last;
}

/**
 * The stream opens once the page is quiet: no query or write under way and nothing downloaded
 * for a second (at most 10 s after the first screen that wants it). The screen's own requests go
 * first, and the page reaches its network-idle moment (a browser's "loaded", the journeys'
 * `networkidle`) before a request that never ends starts.
 */
function retain(busy: () => boolean): () => void {
  users++;
  if (users === 1) {
    const began = Date.now();
    let timer: ReturnType<typeof setTimeout>;
    const check = () => {
      if (Date.now() - began < MOST_WAIT_MS && (busy() || quietFor() < QUIET_MS)) {
        timer = setTimeout(check, 250);
        return;
      }
      stop = connect();
    };
    timer = setTimeout(check, 250);
    stop = () => clearTimeout(timer);
  }
  return () => {
    users--;
    if (users === 0) {
      stop?.();
      stop = null;
      state = { status: 'connecting', calls: [], counters: null };
    }
  };
}

/**
 * The live stream's state for a screen (the connection is opened while a screen uses it), and
 * `onMessage` called with each message as it arrives (a "3 new calls" bar counts them).
 */
export function useLiveStream(onMessage?: Listener): LiveState {
  const queryClient = useQueryClient();
  const handler = useRef(onMessage);
  handler.current = onMessage;
  useEffect(() => {
    const listener: Listener = (m) => handler.current?.(m);
    listeners.add(listener);
    const release = retain(() => queryClient.isFetching() + queryClient.isMutating() > 0);
    return () => {
      listeners.delete(listener);
      release();
    };
  }, [queryClient]);
  return useSyncExternalStore(
    (w) => {
      watchers.add(w);
      return () => watchers.delete(w);
    },
    () => state,
  );
}
