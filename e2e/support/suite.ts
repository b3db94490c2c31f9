import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Sink, startSink } from '../../server/test/http-sink.ts';
import { callApi, passwordToken, signUpPublisherViaApi } from './api.ts';
import { inFreshContext, launchBrowser } from './browser.ts';
import { toneWav } from './files.ts';
import { E2E_ADMIN, type RunningServer, startServer } from './server.ts';
import { expectPath, finishSignIn, signInAsAdminViaUi, signInViaUi, uniqueEmail } from './ui.ts';

/**
 * What every journey file shares: its own server and Chromium, started before its tests by
 * `withServerAndBrowser()` and stopped after them, and the one-line ways to reach them. `server`
 * and `browser` are live bindings, set by that `beforeAll`: read them in hooks and tests only.
 */
export let server: RunningServer;
export let browser: Browser;

/** Starts this file's server (with `env` added) and browser before its tests; stops both after. */
export function withServerAndBrowser(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    adminToken = undefined;
    server = await startServer(env);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}

/**
 * `withServerAndBrowser` with private outbound addresses allowed, and a local receiver
 * (server/test/http-sink.ts) that answers `answer` to this file's postbacks or webhooks,
 * started before its tests and closed after. Answers a getter: call it in tests only.
 */
export function withServerAndReceiver(answer: Sink['answer']): () => Sink {
  withServerAndBrowser({ OUTBOUND_ALLOW_PRIVATE: 'true' });
  let sink: Sink | undefined;
  beforeAll(async () => {
    sink = await startSink(answer);
  });
  afterAll(async () => {
    await sink?.close();
  });
  return () => {
    if (!sink) throw new Error('The receiver starts before the tests: read it in a test.');
    return sink;
  };
}

/**
 * A stand-in call tracker that serves a recording (`toneWav()`, whole: no ranges) at `path`
 * and nothing else, started before this file's tests and closed after. Answers the recording's
 * `url` and the number of `requests` for it, both set as it runs: read them in tests only.
 */
export function withRecordingHost(path: string): { url: string; requests: number } {
  const host = { url: '', requests: 0 };
  let tracker: Server | undefined;
  beforeAll(async () => {
    const wav = toneWav();
    const listening = createServer((req, res) => {
      if (req.url !== path) {
        res.writeHead(404).end();
        return;
      }
      host.requests++;
      res.writeHead(200, {
        'content-type': 'audio/wav',
        'content-length': wav.length,
        'accept-ranges': 'none',
      });
      res.end(req.method === 'HEAD' ? undefined : wav);
    });
    tracker = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    host.url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}${path}`;
  });
  afterAll(async () => {
    await new Promise((r) => tracker?.close(r));
  });
  return host;
}

type Steps = (page: Page, errors: string[]) => Promise<void>;
type Viewport = { width: number; height: number };

/** Runs a journey in a fresh browser context (own session); a failure leaves a screenshot. */
export const journey = (name: string, steps: Steps, viewport?: Viewport) =>
  inFreshContext(browser, server.url, name, steps, viewport);

/** A journey signed in through /login as the e2e admin (two-factor set-up put off) first. */
export const asAdmin = (name: string, steps: Steps, viewport?: Viewport) =>
  journey(
    name,
    async (page, errors) => {
      await signInAsAdminViaUi(page, E2E_ADMIN.email, E2E_ADMIN.password);
      await steps(page, errors);
    },
    viewport,
  );

/**
 * A journey signed in through the /login form as this user (an admin's two-factor set-up put
 * off) that may raise no page error.
 */
export const asUser = (
  email: string,
  password: string,
  name: string,
  steps: (page: Page) => Promise<void>,
  viewport?: Viewport,
) =>
  journey(
    name,
    async (page, errors) => {
      await signInViaUi(page, email, password);
      await finishSignIn(page);
      await steps(page);
      expect(errors).toEqual([]);
    },
    viewport,
  );

/**
 * A journey signed in through the /login form as this publisher, once /dashboard is on screen
 * (no page error check: `steps` gets the errors).
 */
export const asPublisher = (
  who: { email: string; password: string },
  name: string,
  steps: Steps,
  viewport?: Viewport,
) =>
  journey(
    name,
    async (page, errors) => {
      await signInViaUi(page, who.email, who.password);
      await expectPath(page, '/dashboard');
      await steps(page, errors);
    },
    viewport,
  );

/** /api/v1/<path> of this file's server with a bearer token (support/api.ts `callApi`). */
export const api = <T>(token: string, method: string, path: string, body?: unknown) =>
  callApi<T>(server.url, token, method, path, body);

/** The e2e admin's access token on this file's server. */
export const adminAccessToken = () =>
  passwordToken(server.url, E2E_ADMIN.email, E2E_ADMIN.password);

let adminToken: Promise<string> | undefined;
/** The e2e admin's token for seeding: the admin signs in once per file, on the first call. */
export const seedingAdminToken = () => {
  adminToken ??= adminAccessToken();
  return adminToken;
};

/** /api/v1/admin<path> as the e2e admin (seedingAdminToken); throws on anything but 2xx. */
export const adminApi = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
  api<T>(await seedingAdminToken(), method, `admin${path}`, body);

/** The id of the publisher with this e-mail, found by the admin's search. */
export async function publisherIdOf(admin: string, email: string): Promise<string> {
  const found = await api<{ items: { id: string; email: string }[] }>(
    admin,
    'GET',
    `admin/publishers?q=${encodeURIComponent(email)}`,
  );
  const hit = found.items.find((p) => p.email === email);
  if (!hit) throw new Error(`no publisher ${email} in the admin list`);
  return hit.id;
}

/**
 * A publisher who signed up through the API (support/api.ts `signUpPublisherViaApi`, its default
 * details) and waits for approval; answers their e-mail and password.
 */
export async function pendingPublisher(prefix: string, password: string) {
  const who = { email: uniqueEmail(prefix), password };
  await signUpPublisherViaApi(server.url, who.email, password);
  return who;
}

/** The admin approves the publisher with this e-mail (found by `publisherIdOf`); answers their id. */
export async function approvePublisher(admin: string, email: string): Promise<string> {
  const id = await publisherIdOf(admin, email);
  await api(admin, 'PATCH', `admin/publishers/${id}`, { status: 'approved' });
  return id;
}

/** Signs a publisher up through the API and has the admin approve them; answers their id. */
export async function approvedPublisher(
  admin: string,
  publisher: { name: string; email: string; password: string },
): Promise<string> {
  await signUpPublisherViaApi(server.url, publisher.email, publisher.password, {
    full_legal_name: publisher.name,
  });
  return approvePublisher(admin, publisher.email);
}

/**
 * A call tracker's JSON postback (`POST /api/v1/ingest/calls` with the integration's key):
 * the answer's status and body.
 */
export async function postTrackerCall(key: string, body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/api/v1/ingest/calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { id: string } & Record<string, unknown>,
  };
}

/** An offer the admin creates (`POST /admin/offers`); answers its id and title. */
export const createOffer = (
  admin: string,
  offer: { title: string; vertical: string; payout: number } & Record<string, unknown>,
) => api<{ id: string; title: string }>(admin, 'POST', 'admin/offers', offer);

type Payee = { name: string; email: string; password: string };
type NewOffer = Parameters<typeof createOffer>[1];

/** An integration the admin creates through the API (`POST /admin/integrations`); answers its key. */
export const integrationKey = async (name: string) =>
  (await adminApi<{ key: string }>('POST', '/integrations', { name })).key;

/** The ids a tracker's call names (`publisher`, `offer`) and the key it posts with. */
export type TrackerIds = { publisher: string; offer: string; key: string };

/**
 * What a tracker's calls name, seeded through the API as the admin for a journey about its
 * calls: an approved publisher ("<label> Publisher"), this offer, and the key of an integration
 * ("<label> tracker").
 */
export async function trackerSeed(label: string, offer: NewOffer): Promise<TrackerIds> {
  const admin = await seedingAdminToken();
  const publisher = {
    name: `${label} Publisher`,
    email: uniqueEmail(label.toLowerCase()),
    password: `${label.toLowerCase()}-pass-1`,
  };
  return {
    publisher: await approvedPublisher(admin, publisher),
    offer: (await createOffer(admin, offer)).id,
    key: await integrationKey(`${label} tracker`),
  };
}

/**
 * A call of a seeded tracker (`trackerSeed`) for its publisher and offer, through
 * `postTrackerCall`; `body` has the rest (call_id, event, caller…).
 */
export const seededCall = (ids: TrackerIds, body: Record<string, unknown>) =>
  postTrackerCall(ids.key, { publisher: ids.publisher, offer: ids.offer, ...body });

type Leads = readonly (readonly [payout: number, status: string])[];

/**
 * An offer the e2e admin creates (`createOffer`, `seedingAdminToken`) and approved publishers
 * with leads on it (`recordLeads`), in order; answers the publishers' ids by e-mail.
 */
export async function offerWithLeads(
  offer: NewOffer,
  publishers: readonly (readonly [publisher: Payee, leads: Leads])[],
): Promise<Record<string, string>> {
  const admin = await seedingAdminToken();
  const offerId = (await createOffer(admin, offer)).id;
  const ids: Record<string, string> = {};
  for (const [who, leads] of publishers) {
    ids[who.email] = await approvedPublisher(admin, who);
    await recordLeads(admin, ids[who.email] as string, offerId, leads);
  }
  return ids;
}

/**
 * Leads the admin records by hand (`POST /admin/leads`) for one publisher on one offer: one
 * 4-minute call per `[payout, status]`, in order.
 */
export async function recordLeads(
  admin: string,
  publisherId: string,
  offerId: string,
  leads: Leads,
): Promise<void> {
  for (const [payout, status] of leads) {
    await api(admin, 'POST', 'admin/leads', {
      publisher_id: publisherId,
      offer_id: offerId,
      payout,
      status,
      call_duration: 4,
    });
  }
}
