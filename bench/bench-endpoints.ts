// The endpoints `npm run bench` measures: every request the screens make, each with how its
// requests are made (parameters drawn per request from the pools of bench/pools.ts, a page
// reached by cursor, a new report range each time, sign-ins, ingest).
//
// Adding rows: a file of its own exports an EndpointGroup (ctx => its rows); bench.ts lists the
// groups in ENDPOINT_GROUPS. `getRow` makes a GET row whose path may be drawn per request;
// such rows get the references of a list or report row (the bare route on the same SQL, the
// SQL's time in the database) unless they say `sql: false`.
import { fail } from './bench-children.ts';
import { BENCH_PASSWORD } from './fill.ts';
import { once, type RequestSpec } from './load.ts';
import { type Draw, drawFrom, type Pools, searchTermsOf, seeded, seedOf } from './pools.ts';

export type Endpoint = {
  name: string;
  /**
   * Measured once, with one connection, whatever --concurrency says: a CSV export streams
   * 100k rows for seconds, and fifty at once would take the run from minutes to an hour.
   */
  single?: boolean;
  /**
   * A list or report row: its SQL is captured in the dry run, replayed by the bare route, and
   * timed in the database. Only for GET rows without side effects.
   */
  sql?: boolean;
  /** Load run beside the measured one for the same time (its own figures are not shown). */
  during?: { connections: number; source: (c: number) => Promise<(w: number) => RequestSpec> };
  request: (c: number) => Promise<{
    source: (w: number) => RequestSpec;
    onAnswer?: (w: number, a: { status: number; body: string }) => void;
  }>;
};

/** What every group of rows is given: the portal, the signed-in tokens, the pools. */
export type EndpointContext = {
  portalUrl: string;
  adminToken: string;
  publisherToken: string;
  buyerToken: string;
  /** The bench's biggest publisher (the signed-in publisher), or the demo's featured one. */
  bigPublisherId: string;
  /** Every big publisher (publisher-1…N of the bench fill); the featured one on the demo. */
  bigPublisherIds: string[];
  /** The fill's lead count, when the first page's total is not exact. */
  leads: number;
  publisherEmail: string;
  nextIp: () => string;
  signIn: (email: string) => Promise<{ refresh_token: string }>;
};

export type EndpointGroup = (ctx: EndpointContext, kit: RowKit) => Promise<Endpoint[]>;

/** Helpers for a group's rows: the pools, and GET rows drawn from them. */
export type RowKit = {
  pools: Pools;
  auth: (token: string) => Record<string, string>;
  /** The row's own draws (seeded by its name). */
  draw: (name: string) => Draw;
  /**
   * A GET row: `path` as it is, or drawn per request. A list or report row (`sql`) unless
   * `single` (a CSV export streams through a cursor the bare route does not replay).
   */
  getRow: (
    name: string,
    path: string | ((d: Draw) => string),
    token: string,
    opts?: { single?: boolean; sql?: boolean },
  ) => Endpoint;
};

/** The pools (bench/pools.ts), read from the portal's own lists, and the row helpers. */
export async function rowKit(ctx: EndpointContext): Promise<RowKit> {
  const auth = (t: string) => ({ authorization: `Bearer ${t}` });
  const list = async <T>(path: string) => {
    const r = await once(ctx.portalUrl, { method: 'GET', path, headers: auth(ctx.adminToken) });
    if (r.status !== 200) fail(`Reading ${path} for the pools failed: ${r.status} ${r.body}`);
    return JSON.parse(r.body) as { items: T[]; total: number; total_exact?: boolean };
  };
  const firstPage = await list<unknown>('/api/v1/admin/leads');
  const leadCount = firstPage.total_exact ? firstPage.total : ctx.leads;
  const lastPage = Math.max(1, Math.ceil(leadCount / 25));
  const publishers = (
    await list<{ id: string; email: string }>('/api/v1/admin/publishers?page_size=100')
  ).items;
  const offers = (await list<{ id: string }>('/api/v1/admin/offers?page_size=20')).items;
  const pools: Pools = {
    lastPage,
    deepPage: Math.max(2, Math.min(1000, Math.floor(lastPage / 2))),
    bigPublishers: ctx.bigPublisherIds,
    publishers: publishers.map((p) => p.id),
    offers: offers.map((o) => o.id),
    searchTerms: searchTermsOf(publishers.map((p) => p.email)),
  };
  if (!pools.publishers.length || !pools.offers.length || !pools.searchTerms.length)
    fail('The pools need publishers and offers: the fill holds none.');
  const draw = (name: string) => drawFrom(pools, seeded(seedOf(name)));
  const getRow: RowKit['getRow'] = (name, path, token, opts = {}) => ({
    name,
    single: opts.single,
    sql: opts.sql ?? !opts.single,
    request: async () => {
      const d = draw(name);
      return {
        source: () => ({
          method: 'GET',
          path: typeof path === 'string' ? path : path(d),
          headers: auth(token),
        }),
      };
    },
  });
  return { pools, auth, draw, getRow };
}

/** The portal's own rows. */
export const buildEndpoints: EndpointGroup = async (ctx, kit) => {
  const { portalUrl, bigPublisherId, nextIp, signIn } = ctx;
  const { pools, auth } = kit;
  const buyer = { access_token: ctx.buyerToken };
  const accounts = { publisher: ctx.publisherEmail };
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const today = new Date();
  // Reports (issue 15): a whole year of leads is the longest range the fill holds.
  const year = `range=custom&from=${day(new Date(Date.now() - 365 * 86_400_000))}&to=${day(today)}`;
  /**
   * "Any report for any range": every request a range not asked before (from 28 days to a
   * year, ending on any of the last 200 days), so no whole answer is ever kept.
   */
  const newRanges = (name: string, params: string): Endpoint => ({
    name,
    sql: true,
    request: async () => {
      let n = 0;
      return {
        source: () => {
          n++;
          const end = new Date(today.getTime() - (n % 200) * 86_400_000);
          const span = Math.min(364, 28 + ((n * 37) % 337));
          const start = new Date(end.getTime() - span * 86_400_000);
          const q = `range=custom&from=${day(start)}&to=${day(end)}&${params}`;
          return { method: 'GET', path: `/api/v1/admin/reports?${q}`, headers: auth(A) };
        },
      };
    },
  });
  const get = (name: string, p: string | ((d: Draw) => string), token: string, single = false) =>
    kit.getRow(name, p, token, { single });
  const A = ctx.adminToken;
  const P = ctx.publisherToken;
  // The deep page is page 1000, or the middle page of a smaller fill (--smoke).
  const { lastPage, deepPage } = pools;
  /** A list page reached by walking: `path` with the `after` cursor its previous page gave. */
  const afterCursor = (name: string, p: string, page: number, token: string): Endpoint => ({
    name,
    sql: true,
    request: async () => {
      const sep = p.includes('?') ? '&' : '?';
      const r = await once(portalUrl, {
        method: 'GET',
        path: `${p}${sep}page=${page - 1}`,
        headers: auth(token),
      });
      const cursor = (JSON.parse(r.body) as { next_cursor?: string | null }).next_cursor;
      if (!cursor) fail(`${name}: page ${page - 1} of ${p} gave no next_cursor.`);
      const path = `${p}${sep}page=${page}&after=${encodeURIComponent(cursor!)}`;
      return { source: () => ({ method: 'GET', path, headers: auth(token) }) };
    },
  });
  /**
   * Password sign-ins from c connections, each signing in its own approved publisher, as
   * different people do: one account signing in c times at once is what the per-account
   * throttle (a right password counts only once it is checked) slows down on purpose.
   */
  const signInSource = async (c: number): Promise<(w: number) => RequestSpec> => {
    const r = await once(portalUrl, {
      method: 'GET',
      path: `/api/v1/admin/publishers?status=approved&page_size=${Math.min(200, c)}`,
      headers: auth(A),
    });
    const emails = (JSON.parse(r.body) as { items: { email: string }[] }).items.map((p) => p.email);
    if (emails.length === 0) fail('No approved publisher to sign in as.');
    return (w) => ({
      method: 'POST',
      path: '/auth/v1/token?grant_type=password',
      headers: { 'x-forwarded-for': nextIp() },
      body: JSON.stringify({ email: emails[w % emails.length], password: BENCH_PASSWORD }),
    });
  };
  /** A new integration (answered with its key) and the offer the ingest scenarios post to. */
  const ingestTarget = async (what: string, integration: Record<string, unknown>) => {
    const made = await once(portalUrl, {
      method: 'POST',
      path: '/api/v1/admin/integrations',
      headers: auth(A),
      body: JSON.stringify(integration),
    });
    const offersPage = await once(portalUrl, {
      method: 'GET',
      path: '/api/v1/admin/offers?page_size=1',
      headers: auth(A),
    });
    if (made.status !== 201 || offersPage.status !== 200) {
      fail(`Preparing ${what} failed: ${made.status} ${made.body.slice(0, 300)}`);
    }
    return {
      key: (JSON.parse(made.body) as { key: string }).key,
      offerId: (JSON.parse(offersPage.body) as { items: { id: string }[] }).items[0]!.id,
    };
  };
  /**
   * A caller as real traffic has them: a valid US number drawn from millions, so a call is a
   * repeat caller (or an invalid number) as rarely as in life, not every time (issue 32's
   * rules then flag what they should, not the bench's one number).
   */
  const callerNumber = (prefix = '+1310') => {
    const exchange = 200 + Math.floor(Math.random() * 800);
    const line = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
    return prefix.startsWith('(') ? `${prefix}${exchange}-${line}` : `${prefix}${exchange}${line}`;
  };
  /** Each request a tracker's postback with this key, its JSON body made anew each time. */
  const postbacks = (key: string, body: () => unknown) => ({
    source: (): RequestSpec => ({
      method: 'POST',
      path: '/api/v1/ingest/calls',
      headers: { 'x-api-key': key },
      body: JSON.stringify(body()),
    }),
  });
  const endpoints: Endpoint[] = [
    {
      name: 'GET /healthz',
      request: async () => ({ source: () => ({ method: 'GET', path: '/healthz' }) }),
    },
    get('GET /api/v1/me (admin)', '/api/v1/me', A),
    get('admin stats', '/api/v1/admin/stats', A),
    get('admin daily stats (30 days)', '/api/v1/admin/stats/daily?days=30', A),
    get('admin leads, first page', '/api/v1/admin/leads', A),
    get('admin leads, page ~1000', (d) => `/api/v1/admin/leads?page=${d.deepPage()}`, A),
    afterCursor(
      `admin leads, after cursor (deep, page ${deepPage})`,
      '/api/v1/admin/leads',
      deepPage,
      A,
    ),
    get('admin leads, last page', `/api/v1/admin/leads?page=${lastPage}`, A),
    get(
      'admin leads, sort payout',
      (d) => `/api/v1/admin/leads?sort=payout&page=${d.int(1, 10)}`,
      A,
    ),
    get(
      'admin leads, sort call duration asc',
      (d) => `/api/v1/admin/leads?sort=call_duration&order=asc&page=${d.int(1, 10)}`,
      A,
    ),
    get(
      'admin leads, big publisher',
      (d) => `/api/v1/admin/leads?publisher_id=${d.bigPublisher()}`,
      A,
    ),
    get(
      'admin leads, big publisher by payout',
      (d) => `/api/v1/admin/leads?publisher_id=${d.bigPublisher()}&sort=payout`,
      A,
    ),
    get('admin leads, 30-day range', (d) => `/api/v1/admin/leads?${d.range(30, 90)}`, A),
    get('admin leads, pending', (d) => `/api/v1/admin/leads?status=pending&page=${d.int(1, 5)}`, A),
    get(
      'admin leads CSV, big publisher',
      (d) => `/api/v1/admin/leads.csv?publisher_id=${d.bigPublisher()}`,
      A,
      true,
    ),
    get(
      'admin leads CSV, 30-day range',
      (d) => `/api/v1/admin/leads.csv?${d.range(30, 60)}`,
      A,
      true,
    ),
    // Count and payout sum above the leads list (issue 13): maintained totals, then the
    // capped count of the rows where the totals cannot answer (an offer, part of a day).
    get('admin leads totals, pending', '/api/v1/admin/leads/totals?status=pending', A),
    get(
      'admin leads totals, big publisher 30 days',
      (d) => `/api/v1/admin/leads/totals?publisher_id=${d.bigPublisher()}&${d.range(30, 90)}`,
      A,
    ),
    get(
      'admin leads totals, one offer',
      (d) => `/api/v1/admin/leads/totals?offer_id=${d.offer()}`,
      A,
    ),
    get(
      'admin leads totals, part of a day',
      (d) => {
        const x = d.day(60);
        return `/api/v1/admin/leads/totals?from=${x}T06:00:00Z&to=${x}T18:00:00Z`;
      },
      A,
    ),
    get(
      'admin leads totals, big publisher pending 30 days',
      (d) =>
        `/api/v1/admin/leads/totals?publisher_id=${d.bigPublisher()}&status=pending&${d.range(30, 90)}`,
      A,
    ),
    get('admin payouts', (d) => `/api/v1/admin/payouts?page=${d.int(1, 5)}`, A),
    get(
      'admin payouts CSV, big publisher',
      (d) => `/api/v1/admin/payouts.csv?publisher_id=${d.bigPublisher()}`,
      A,
      true,
    ),
    get('admin publishers', (d) => `/api/v1/admin/publishers?page=${d.int(1, 5)}`, A),
    get(
      'admin publishers, search',
      (d) =>
        `/api/v1/admin/publishers?q=${encodeURIComponent(d.searchTerm())}&page_size=50&sort=name&order=asc`,
      A,
    ),
    get('admin publisher detail (big)', (d) => `/api/v1/admin/publishers/${d.bigPublisher()}`, A),
    get('admin approved publishers', '/api/v1/admin/approved-publishers?page_size=200', A),
    get('admin applications', (d) => `/api/v1/admin/applications?page=${d.int(1, 5)}`, A),
    get('admin compliance', (d) => `/api/v1/admin/compliance?page=${d.int(1, 5)}`, A),
    get('admin compliance, page_size 200', '/api/v1/admin/compliance?page_size=200', A),
    ...['offers', 'campaigns', 'buyers', 'audit'].map((list) =>
      get(
        `admin ${list}`,
        (d) => `/api/v1/admin/${list}?page=${d.int(1, list === 'offers' ? 3 : 5)}`,
        A,
      ),
    ),
    // Issue 32: the Fraud queue's first page (open flags, newest first).
    get('admin fraud flags, open', '/api/v1/admin/fraud-flags?status=open', A),
    get('admin report, year by day', `/api/v1/admin/reports?${year}&group=day`, A),
    get(
      'admin report, 31 days by hour',
      (d) => `/api/v1/admin/reports?range=custom&${d.range(31, 60)}&group=hour`,
      A,
    ),
    ...['offer', 'vertical', 'state', 'publisher', 'buyer', 'campaign'].map((group) =>
      get(`admin report, year by ${group}`, `/api/v1/admin/reports?${year}&group=${group}`, A),
    ),
    get(
      'admin report, year by publisher, by name',
      `/api/v1/admin/reports?${year}&group=publisher&sort=label&order=asc`,
      A,
    ),
    newRanges('admin report, by publisher, a new range each time', 'group=publisher'),
    newRanges(
      'admin report, by publisher by name, a new range each time',
      'group=publisher&sort=label&order=asc',
    ),
    get(
      'admin report, year by publisher, compared',
      `/api/v1/admin/reports?${year}&group=publisher&compare=true&sort=payout`,
      A,
    ),
    get(
      'admin report, last month by offer, compared',
      '/api/v1/admin/reports?range=last_month&group=offer&compare=true',
      A,
    ),
    get(
      'admin report CSV, year by publisher',
      `/api/v1/admin/reports.csv?${year}&group=publisher`,
      A,
    ),
    get('publisher report (big), year by day', `/api/v1/publisher/reports?${year}&group=day`, P),
    get(
      'publisher report (big), year by offer, compared',
      `/api/v1/publisher/reports?${year}&group=offer&compare=true`,
      P,
    ),
    get(
      'publisher report (big), year by state',
      `/api/v1/publisher/reports?${year}&group=state`,
      P,
    ),
    get('publisher overview (big)', '/api/v1/publisher/overview', P),
    get('publisher overview range (big), year', `/api/v1/publisher/overview/range?${year}`, P),
    get('admin dashboard range, year', `/api/v1/admin/stats/range?${year}`, A),
    get('publisher leads (big)', '/api/v1/publisher/leads', P),
    get(
      'publisher leads (big), page ~1000',
      (d) => `/api/v1/publisher/leads?page=${d.deepPage()}`,
      P,
    ),
    get(
      'publisher leads (big), by offer',
      (d) => `/api/v1/publisher/leads?sort=offer&order=asc&page=${d.int(1, 5)}`,
      P,
    ),
    get('publisher payouts (big)', (d) => `/api/v1/publisher/payouts?page=${d.int(1, 3)}`, P),
    get(
      'publisher offers',
      (d) =>
        `/api/v1/publisher/offers?sort=${d.pick(['created_at', 'payout', 'title', 'vertical'])}`,
      P,
    ),
    get('publisher documents', '/api/v1/publisher/documents', P),
    get('publisher IOs', '/api/v1/publisher/ios', P),
    get('buyer campaigns', '/api/v1/buyer/campaigns', buyer.access_token),
    // Issue 31: the buyer's calls (keyset) and dashboard, the busiest buyer of the fill.
    get('buyer calls, first page', '/api/v1/buyer/calls', buyer.access_token),
    get('buyer dashboard', '/api/v1/buyer/dashboard', buyer.access_token),
    {
      name: 'POST /auth/v1/token password (sign-in)',
      request: async (c) => ({ source: await signInSource(c) }),
    },
    {
      // argon2id must not starve other requests: the point read while 10 sign-ins run.
      name: 'GET /api/v1/me during sign-ins (c=10)',
      during: { connections: 10, source: signInSource },
      request: async () => ({
        source: () => ({ method: 'GET', path: '/api/v1/me', headers: auth(A) }),
      }),
    },
    {
      name: 'POST /auth/v1/token refresh',
      request: async (c) => {
        // One refresh chain per connection: each answer's token is the next request's.
        const tokens: string[] = [];
        for (let i = 0; i < c; i++) tokens.push((await signIn(accounts.publisher)).refresh_token);
        return {
          source: (w) => ({
            method: 'POST',
            path: '/auth/v1/token?grant_type=refresh_token',
            headers: { 'x-forwarded-for': nextIp() },
            body: JSON.stringify({ refresh_token: tokens[w] }),
          }),
          onAnswer: (w, a) => {
            if (a.status === 200)
              tokens[w] = (JSON.parse(a.body) as { refresh_token: string }).refresh_token;
          },
        };
      },
    },
    {
      // A call tracker's postback (issue 13): each request a new call, so each one inserts.
      name: 'POST /api/v1/ingest/calls',
      request: async () => {
        const { key, offerId } = await ingestTarget('ingestion', { name: `bench ${Date.now()}` });
        let n = 0;
        return postbacks(key, () => ({
          call_id: `bench-${Date.now().toString(36)}-${n++}`,
          event: 'completed',
          publisher: bigPublisherId,
          offer: offerId,
          caller: callerNumber(),
          duration: 95,
        }));
      },
    },
    {
      // The same through a tracker preset (issue 26): a nested JSON webhook read by paths,
      // its status word through a value map, the caller normalised to E.164.
      name: 'POST /api/v1/ingest/calls (preset, nested JSON)',
      request: async () => {
        const { key, offerId } = await ingestTarget('preset ingestion', {
          name: `bench preset ${Date.now()}`,
          tracker: 'ringba',
          field_map: {
            call_id: { names: ['call.inboundCallId', 'callId'] },
            event: {
              names: ['call.status'],
              map: {
                completed: 'completed',
                'no answer': 'not_connected',
                busy: 'not_connected',
              },
            },
            publisher: { names: ['publisher.id'] },
            offer: { names: ['campaign.id'] },
            caller: { names: ['call.callerId'] },
            duration: { names: ['call.connectedSeconds'] },
          },
        });
        let n = 0;
        return postbacks(key, () => ({
          call: {
            inboundCallId: `RGB-${Date.now().toString(36)}-${n}`,
            status: n++ % 10 === 0 ? 'No Answer' : 'Completed',
            callerId: callerNumber('(310) '),
            connectedSeconds: 95,
          },
          publisher: { id: bigPublisherId, name: 'bench' },
          campaign: { id: offerId },
        }));
      },
    },
  ];
  return endpoints;
};
