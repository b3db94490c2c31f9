import type { LiveLead } from '../../contract/live.ts';

/**
 * GET /api/v1/live read through a real socket by fetch, as the web app reads it (the live
 * tests'): its messages so far, parsed, and waits on them.
 */

type Message = { event: string; id?: string; data: unknown };

/** A stream read by fetch, as the web app reads it: its messages so far, parsed. */
export async function openStream(
  base: string,
  token: string | null,
  opts: { lastEventId?: string } = {},
) {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/api/v1/live`, {
    headers: {
      accept: 'text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}),
    },
    signal: ctrl.signal,
  });
  const messages: Message[] = [];
  let comments = 0;
  let ended = false;
  let lastId: string | undefined;
  const pump = async () => {
    if (!res.ok || !res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let cut = buf.indexOf('\n\n');
        while (cut >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          cut = buf.indexOf('\n\n');
          const m: Partial<Message> & { data?: unknown } = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments++;
            else if (line.startsWith('event: ')) m.event = line.slice(7);
            else if (line.startsWith('id: ')) m.id = line.slice(4);
            else if (line.startsWith('data: ')) m.data = JSON.parse(line.slice(6));
          }
          if (m.id) lastId = m.id;
          if (m.event) messages.push(m as Message);
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  };
  void pump();
  return {
    res,
    messages,
    get comments() {
      return comments;
    },
    get ended() {
      return ended;
    },
    get lastId() {
      return lastId;
    },
    leads: () =>
      messages.flatMap((m) =>
        m.event === 'leads' || m.event === 'snapshot'
          ? (m.data as { leads: LiveLead[] }).leads
          : [],
      ),
    /** Resolves as soon as `what` holds; gives up after `ms` (a busy 2-core CI machine is slow). */
    async waitFor(what: () => boolean, ms = 15_000) {
      const until = Date.now() + ms;
      while (!what()) {
        if (Date.now() > until) throw new Error(`not in time; got ${JSON.stringify(messages)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => ctrl.abort(),
  };
}
