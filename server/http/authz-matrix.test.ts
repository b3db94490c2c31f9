import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyScopesByRole } from '../../contract/api-keys.ts';
import { API_KEY_ROUTES, scopeForRoute } from '../auth/api-key-scopes.ts';
import { createSession, endSession } from '../auth/sessions.ts';
import { signAccessToken } from '../auth/tokens.ts';
import {
  blockedCallers,
  buyerInvoices,
  callReturns,
  campaigns,
  ingestRefusals,
  integrationExternalIds,
  integrations,
  leadDisputes,
  leadImports,
  leads,
  notifications,
  offerApplications,
  outboundDeliveries,
  payoutRuns,
  payouts,
  signatureDocuments,
  trackingNumbers,
  users,
  webhookEndpoints,
} from '../db/schema.ts';
import { hashIntegrationKey, newIntegrationKey } from '../modules/ingest/lead-ingest.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import {
  buildAdmin,
  buildApiKey,
  buildBuyer,
  buildOffer,
  buildPublisher,
  buildVerifiedFactor,
  type TestUser,
  tokenFor,
} from '../test/factories.ts';
import { gotrueCall, randomIp } from '../test/gotrue.ts';
import { routesInRouter, type ServedRoute } from '../test/router-routes.ts';

/**
 * The authorization matrix (issue 11): every route the router serves × every kind of caller,
 * with other users' ids in every path parameter. The routes come from the app's router itself
 * (its radix tree, cross-checked with app.registeredRoutes), so a new route without an
 * expectation below fails this test instead of going unchecked. The cells to check are listed
 * before any is checked, and each cell checked is ticked off after its last assertion: a route
 * or a caller the loop skips fails the test too.
 *
 * A refused caller gets exactly the status, code and sentence of its kind (a 404, a 400 or
 * the wrong refusal is a failure), and an admin is let through on every admin route to the
 * record in the path, which exists: a 404 there is a failure too (issue 28 item 8).
 */

type Who =
  | 'anonymous'
  | 'admin'
  | 'publisher A'
  | 'publisher B'
  | 'pending publisher'
  | 'blocked publisher'
  | 'buyer A'
  | 'buyer B'
  | 'blocked buyer'
  | 'tampered token'
  | 'expired token'
  | 'alg-none token'
  | 'foreign-key token'
  | 'signed-out token'
  | 'malformed token'
  | 'aal1 admin with factor'
  | 'aal2 admin with factor';

const VALID: Who[] = [
  'admin',
  'aal2 admin with factor',
  'publisher A',
  'publisher B',
  'pending publisher',
  'buyer A',
  'buyer B',
];
/** Bearer tokens that name no live session: refused as if signed out. */
const DEAD_TOKENS: Who[] = [
  'tampered token',
  'expired token',
  'alg-none token',
  'foreign-key token',
  'signed-out token',
  'malformed token',
];
const BLOCKED: Who[] = ['blocked publisher', 'blocked buyer'];
const EVERYONE: Who[] = [
  'anonymous',
  ...VALID,
  ...BLOCKED,
  ...DEAD_TOKENS,
  // An admin with a verified second factor, signed in with the password only (issue 17).
  'aal1 admin with factor',
];
const ADMINS: Who[] = ['admin', 'aal2 admin with factor'];
/** Every publisher with a valid token (approved or pending): each publisher route lets them in. */
const PUBLISHERS: Who[] = ['publisher A', 'publisher B', 'pending publisher'];
const BUYERS: Who[] = ['buyer A', 'buyer B'];

/**
 * Who may get past authorization on a route. `public`: everyone, and the bearer token changes
 * nothing (every caller gets the same status). Everyone not listed must get 401 or 403.
 */
type Rule = {
  allow: 'public' | readonly Who[];
  /** The owner of the records in the path, who may read them (the others must not). */
  owner?: Who;
};
const PUBLIC: Rule = { allow: 'public' };
const SIGNED_IN: Rule = { allow: VALID };

/** Keyed by "METHOD path-prefix" ('*' = any method); the longest matching key wins. */
const EXPECTATIONS: Record<string, Rule> = {
  'GET /healthz': PUBLIC,
  'GET /readyz': PUBLIC,
  'GET /robots.txt': PUBLIC,
  'GET /metrics': PUBLIC,
  'GET /api/docs': PUBLIC,
  'GET *': PUBLIC, // the SPA fallback
  'GET /dev/mail': PUBLIC, // the development mailbox (DEV_MAILBOX, on in tests)
  '* /dev/sink/': PUBLIC, // the demo's postback and webhook receiver (with the dev mailbox)
  'GET /files/': PUBLIC, // signed URLs and public buckets: a bearer token grants nothing
  'GET /api/v1/public/': PUBLIC,
  'POST /auth/v1/signup': PUBLIC,
  'POST /auth/v1/token': PUBLIC,
  'POST /auth/v1/recover': PUBLIC,
  'GET /auth/v1/verify': PUBLIC,
  'POST /auth/v1/resend': PUBLIC,
  'GET /auth/v1/settings': PUBLIC,
  'GET /auth/v1/health': PUBLIC,
  'GET /auth/v1/.well-known/': PUBLIC,
  // GoTrue endpoints the portal does not offer (OTP, OAuth, SAML): the same refusal for all.
  'POST /auth/v1/otp': PUBLIC,
  'POST /auth/v1/magiclink': PUBLIC,
  'GET /auth/v1/authorize': PUBLIC,
  '* /auth/v1/sso': PUBLIC,
  // /auth/v1 answers at aal1: that is where the second factor is verified.
  '* /auth/v1/': { allow: [...VALID, 'aal1 admin with factor'] },
  // Recovery codes (issue 34): only a session that passed two-factor sign-in.
  'POST /auth/v1/factors/recovery-codes': { allow: ['aal2 admin with factor'] },
  '* /api/v1/me': SIGNED_IN,
  // The live stream (issue 32): every signed-in user, scoped to their own calls by the server
  // (server/modules/live/live.test.ts); without `Accept: text/event-stream` it answers 406.
  'GET /api/v1/live': SIGNED_IN,
  // Notifications (issue 16): everyone signed in has their own; publisher B owns the one in
  // the path and everyone else gets 404.
  '* /api/v1/me/notifications/': { allow: VALID, owner: 'publisher B' },
  // API keys (issue 30): everyone signed in has their own; publisher B owns the key in the path.
  '* /api/v1/me/api-keys/': { allow: VALID, owner: 'publisher B' },
  '* /api/v1/admin/': { allow: ADMINS },
  // Reports (issue 15): the network's for admins, each publisher's own for publishers.
  'GET /api/v1/admin/reports': { allow: ADMINS },
  'GET /api/v1/publisher/reports': { allow: PUBLISHERS },
  'GET /api/v1/publisher/': { allow: PUBLISHERS },
  '* /api/v1/publisher/': { allow: PUBLISHERS },
  // A lead's detail: publisher B reads their own lead; everyone else gets 404.
  'GET /api/v1/publisher/leads/': { allow: PUBLISHERS, owner: 'publisher B' },
  // Money (issue 14): balances, runs, adjustments and statements for admins only; a publisher
  // reads their own balance and payment details, and only their own payouts' statements and
  // leads (publisher B owns the payout in the path; everyone else gets 404).
  'GET /api/v1/admin/balances': { allow: ADMINS },
  '* /api/v1/admin/payout-runs': { allow: ADMINS },
  'POST /api/v1/admin/publishers/': { allow: ADMINS },
  'GET /api/v1/admin/payouts/': { allow: ADMINS },
  'GET /api/v1/publisher/money': { allow: PUBLISHERS },
  '* /api/v1/publisher/payment-details': { allow: PUBLISHERS },
  'GET /api/v1/publisher/payouts/': { allow: PUBLISHERS, owner: 'publisher B' },
  // Tracking numbers (issue 26): admins only, the number in the path is publisher B's.
  '* /api/v1/admin/tracking-numbers': { allow: ADMINS },
  // Webhooks (issue 30): the operator's endpoints and their delivery log, admins only.
  '* /api/v1/admin/webhooks': { allow: ADMINS },
  '* /api/v1/admin/webhook-deliveries': { allow: ADMINS },
  // Postbacks (issue 30): each publisher's own; publisher B owns the delivery in the path.
  '* /api/v1/admin/postback-deliveries': { allow: ADMINS },
  '* /api/v1/admin/postback-settings': { allow: ADMINS },
  '* /api/v1/publisher/postbacks': { allow: PUBLISHERS },
  // Offer scripts (issue 33): only on an offer the publisher is approved for (publisher B is,
  // for the offer in the path); anyone else gets 404.
  'GET /api/v1/publisher/scripts/pending': { allow: PUBLISHERS },
  '* /api/v1/publisher/offers/': { allow: PUBLISHERS, owner: 'publisher B' },
  '* /api/v1/publisher/postback-deliveries/': { allow: PUBLISHERS, owner: 'publisher B' },
  // Documents to sign (issue 33): publisher B owns the one in the path; the signed PDF is
  // the admin's or its own publisher's, the check of a copy the admin's.
  '* /api/v1/publisher/documents/': { allow: PUBLISHERS, owner: 'publisher B' },
  '* /api/v1/documents/': { allow: [...ADMINS, ...PUBLISHERS], owner: 'publisher B' },
  'POST /api/v1/documents/verify': { allow: ADMINS },
  '* /api/v1/buyer/': { allow: BUYERS },
  // A buyer's calls, dashboard and returns (issue 31): buyers only; another buyer's call in
  // the path is a 404 (campaigns.test.ts and buyer-calls.test.ts check it record by record).
  'GET /api/v1/buyer/calls': { allow: BUYERS },
  'GET /api/v1/buyer/dashboard': { allow: BUYERS },
  'POST /api/v1/buyer/calls/': { allow: BUYERS },
  // A buyer's billing (issue 31, item 6): their own balance, deposits and invoices; buyer B
  // owns the invoice in the path (its PDF and CSV are a 404 for anyone else).
  'GET /api/v1/buyer/billing': { allow: BUYERS },
  'GET /api/v1/buyer/invoices': { allow: BUYERS, owner: 'buyer B' },
  // The admin's side: a buyer's billing mode, deposits, "generate now", any invoice's files.
  'GET /api/v1/admin/buyers/': { allow: ADMINS },
  'PUT /api/v1/admin/buyers/': { allow: ADMINS },
  'POST /api/v1/admin/buyers/': { allow: ADMINS },
  'GET /api/v1/admin/invoices/': { allow: ADMINS },
  // A buyer edits only their own campaign: buyer B owns the one in the path (issue 34).
  '* /api/v1/buyer/campaigns/': { allow: BUYERS, owner: 'buyer B' },
  // Call trackers' postbacks take an integration key only: no bearer token gets through.
  '* /api/v1/ingest/': { allow: [] },
};

function expectationFor(method: string, url: string): Rule | undefined {
  let best: { len: number; rule: Rule } | undefined;
  for (const [key, rule] of Object.entries(EXPECTATIONS)) {
    const [m, prefix] = key.split(' ') as [string, string];
    if (m !== '*' && m !== method) continue;
    const hit = prefix.endsWith('/')
      ? url.startsWith(prefix)
      : url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}.`);
    if (hit && (!best || prefix.length > best.len)) best = { len: prefix.length, rule };
  }
  return best?.rule;
}

/** What a refused caller gets: the status, the error code and (portal API) the sentence. */
type Refusal = { status: 401 | 403; code: string; message?: string };

/** The portal API's role areas and the sentence another role gets there. */
const ROLE_AREAS: [prefix: string, message: string][] = [
  ['/api/v1/admin/', 'This area is for administrators only.'],
  ['/api/v1/publisher/', 'This area is for publishers only.'],
  ['/api/v1/buyer/', 'This area is for buyers only.'],
  ['/api/v1/documents/verify', 'This area is for administrators only.'],
  ['/api/v1/documents/', 'This area is for administrators and publishers only.'],
];

/** The exact refusal a caller who is not allowed on the route must get; undefined: none known. */
function refusalFor(who: Who, url: string): Refusal | undefined {
  // Postbacks read no bearer token at all: without an integration key, missing_key.
  if (url.startsWith('/api/v1/ingest/')) return { status: 401, code: 'missing_key' };
  if (url.startsWith('/auth/v1/')) {
    // GoTrue's own codes: 401 without a token, 403 with one it will not take.
    if (who === 'anonymous') return { status: 401, code: 'no_authorization' };
    if (who === 'signed-out token') return { status: 403, code: 'session_not_found' };
    if (DEAD_TOKENS.includes(who)) return { status: 403, code: 'bad_jwt' };
    if (BLOCKED.includes(who)) return { status: 403, code: 'user_banned' };
    if (url === '/auth/v1/factors/recovery-codes') return { status: 403, code: 'insufficient_aal' };
    return undefined;
  }
  if (!url.startsWith('/api/v1/')) return undefined;
  if (who === 'anonymous') {
    return { status: 401, code: 'unauthorized', message: 'Please sign in to continue.' };
  }
  if (DEAD_TOKENS.includes(who)) {
    return {
      status: 401,
      code: 'unauthorized',
      message: 'Your session has ended. Please sign in again.',
    };
  }
  if (BLOCKED.includes(who)) {
    return { status: 403, code: 'forbidden', message: 'Your account is blocked.' };
  }
  // The aal1 admin is held back by the second factor, not by anything else.
  if (who === 'aal1 admin with factor') {
    return {
      status: 403,
      code: 'insufficient_aal',
      message: 'Enter the 6-digit code from your authenticator app to continue.',
    };
  }
  const area = ROLE_AREAS.find(([prefix]) => url.startsWith(prefix));
  return area ? { status: 403, code: 'forbidden', message: area[1] } : undefined;
}

/** The error code and sentence of an answer: the portal's {error} or GoTrue's body. */
function errorOf(body: string): { code?: unknown; message?: unknown } {
  try {
    const json = JSON.parse(body) as {
      error?: { code?: unknown; message?: unknown };
      error_code?: unknown;
      msg?: unknown;
    };
    return json.error ?? { code: json.error_code, message: json.msg };
  } catch {
    return {};
  }
}

/**
 * Admin routes the portal must keep serving (the list server/modules/admin/permissions.test.ts
 * held): the matrix walks at least these, so one that went missing or moved out of the admin
 * area fails here instead of silently leaving the matrix.
 */
const KEPT_ADMIN_ROUTES = [
  'GET /stats',
  'GET /publishers',
  'GET /buyers',
  'PATCH /publishers/:id',
  'PATCH /buyers/:id',
  'PUT /publishers/:id/agreement',
  'GET /offers',
  'POST /offers',
  'PATCH /offers/:id',
  'DELETE /offers/:id',
  'GET /offers/:id/script',
  'GET /applications',
  'PATCH /applications/:id',
  'PUT /applications/:id/io',
  'GET /compliance',
  'GET /leads',
  'POST /leads',
  'PATCH /leads/:id',
  'GET /payouts',
  'POST /payouts',
  'GET /approved-publishers',
  'GET /campaigns',
  'GET /settings',
  'PATCH /settings',
  'PUT /settings/logo',
  'GET /audit',
  'GET /leads.csv',
  'GET /payouts.csv',
  'GET /leads/:id',
  'PUT /leads/:id/recording',
  'GET /disputes',
  'POST /disputes/:id/messages',
  'POST /disputes/:id/accept',
  'POST /disputes/:id/decline',
  'GET /leads/totals',
  'POST /leads/bulk-status',
  'POST /lead-imports',
  'GET /lead-imports/:id',
  'POST /lead-imports/:id/check',
  'POST /lead-imports/:id/import',
  'GET /reports',
  'GET /reports.csv',
  'DELETE /users/:id/factors',
  'POST /publishers/bulk',
  'POST /applications/bulk',
  'GET /applications/:id/submissions',
  'GET /stats/range',
  'GET /setup-checklist',
  'POST /setup-checklist/dismiss',
  'GET /notification-preferences',
  'PUT /notification-preferences',
  'GET /webhooks',
  'POST /webhooks',
  'GET /webhooks/:id',
  'PATCH /webhooks/:id',
  'DELETE /webhooks/:id',
  'POST /webhooks/:id/rotate-secret',
  'POST /webhooks/:id/test',
  'GET /webhooks/:id/deliveries',
  'GET /webhook-deliveries/:id',
  'POST /webhook-deliveries/:id/replay',
  'GET /publishers/:id/postbacks',
  'PUT /publishers/:id/postbacks',
  'POST /publishers/:id/postbacks/test',
  'GET /publishers/:id/postback-deliveries',
  'GET /postback-deliveries/:id',
  'POST /postback-deliveries/:id/replay',
  'GET /postback-settings',
  'PUT /postback-settings',
  'POST /documents',
  'GET /documents',
  'GET /documents/:id',
  'POST /documents/remind',
  'GET /document-settings',
  'PUT /document-settings',
  'GET /document-templates',
  'PUT /document-templates',
  // Buyers (issue 31): the campaign lifecycle and its tracker ids.
  'POST /campaigns/:id/approve',
  'POST /campaigns/:id/reject',
  'POST /campaigns/:id/pause',
  'POST /campaigns/:id/resume',
  'POST /campaigns/:id/end',
  'PUT /campaigns/:id/external-ids',
  'GET /returns',
  'POST /returns/:id/accept',
  'POST /returns/:id/decline',
];

/** The users whose API keys the key cells send (publisher A and buyer A own no record in paths). */
type KeyOwner = 'admin' | 'publisher A' | 'buyer A';
const KEY_OWNERS: KeyOwner[] = ['admin', 'publisher A', 'buyer A'];
const ROLE_OF: Record<KeyOwner, 'admin' | 'publisher' | 'buyer'> = {
  admin: 'admin',
  'publisher A': 'publisher',
  'buyer A': 'buyer',
};

const cellName = (route: ServedRoute, who: Who) => `${route.method} ${route.url} as ${who}`;

let t: TestApp;
let routes: ServedRoute[];
const tokens = new Map<Who, () => Promise<string | null>>();
const ids: Record<string, string> = {};
let publisherB: TestUser;
/** Whose API keys the key cells use: one user of each role. */
let keyOwners: Record<KeyOwner, TestUser>;

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

beforeAll(async () => {
  t = await buildTestApp();
  routes = routesInRouter(t.app).filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
  const secret = t.config.jwtSecret;
  const sign = async (u: { id: string; email: string }, over: { expiresIn?: number } = {}) => {
    const s = await createSession(t.db, { userId: u.id, method: 'password' });
    const { token } = await signAccessToken(secret, {
      userId: u.id,
      email: u.email,
      sessionId: s.sessionId,
      amr: s.amr,
      userMetadata: {},
      expiresIn: over.expiresIn ?? 3600,
    });
    return { token, sessionId: s.sessionId };
  };
  const fresh = (u: TestUser) => async () => (await sign(u)).token;
  const freshAt = (u: TestUser, aal: 'aal1' | 'aal2') => async () =>
    tokenFor(t.db, secret, u, { aal });

  const admin = await buildAdmin(t.db);
  const mfaAdmin = await buildAdmin(t.db);
  await buildVerifiedFactor(t.db, mfaAdmin.id);
  const pubA = await buildPublisher(t.db);
  publisherB = await buildPublisher(t.db);
  const pending = await buildPublisher(t.db, { status: 'pending' });
  const blockedPub = await buildPublisher(t.db);
  const buyerA = await buildBuyer(t.db);
  const buyerB = await buildBuyer(t.db);
  const blockedBuyer = await buildBuyer(t.db);
  // Forged tokens name this admin, whose session stays alive all along.
  const target = await buildAdmin(t.db);
  const targetSession = await sign(target);
  const leaver = await buildAdmin(t.db);

  // Tokens taken before the block: the session rows stay, only the status changes.
  const blockedPubToken = (await sign(blockedPub)).token;
  const blockedBuyerToken = (await sign(blockedBuyer)).token;
  await t.db.update(users).set({ status: 'blocked' }).where(eq(users.id, blockedPub.id));
  await t.db.update(users).set({ status: 'blocked' }).where(eq(users.id, blockedBuyer.id));

  const [, targetPayload] = targetSession.token.split('.') as [string, string, string];
  const buyerToken = (await sign(buyerA)).token;
  const [buyerHeader, , buyerSig] = buyerToken.split('.') as [string, string, string];
  const tampered = `${buyerHeader}.${targetPayload}.${buyerSig}`;
  const algNone = `${b64({ alg: 'none', typ: 'JWT' })}.${targetPayload}.`;
  const expired = (await sign(target, { expiresIn: -120 })).token;
  const foreign = (
    await signAccessToken(randomBytes(32).toString('hex'), {
      userId: target.id,
      email: target.email,
      sessionId: targetSession.sessionId,
      amr: [],
      userMetadata: {},
      expiresIn: 3600,
    })
  ).token;
  const signedOut = await sign(leaver);
  await endSession(t.db, signedOut.sessionId);

  // Each valid caller gets a fresh session per request: a sign-out cell ends only its own.
  tokens.set('anonymous', async () => null);
  tokens.set('admin', fresh(admin));
  tokens.set('publisher A', fresh(pubA));
  tokens.set('publisher B', fresh(publisherB));
  tokens.set('pending publisher', fresh(pending));
  tokens.set('buyer A', fresh(buyerA));
  tokens.set('buyer B', fresh(buyerB));
  tokens.set('blocked publisher', async () => blockedPubToken);
  tokens.set('blocked buyer', async () => blockedBuyerToken);
  tokens.set('tampered token', async () => tampered);
  tokens.set('expired token', async () => expired);
  tokens.set('alg-none token', async () => algNone);
  tokens.set('foreign-key token', async () => foreign);
  tokens.set('signed-out token', async () => signedOut.token);
  tokens.set('malformed token', async () => 'not.a.jwt');
  tokens.set('aal1 admin with factor', freshAt(mfaAdmin, 'aal1'));
  tokens.set('aal2 admin with factor', freshAt(mfaAdmin, 'aal2'));

  // Publisher B's records: every :id below belongs to someone else than most callers.
  const offer = await buildOffer(t.db);
  const [app] = await t.db
    .insert(offerApplications)
    .values({ offerId: offer.id, publisherId: publisherB.id, status: 'pending' })
    .returning();
  const [lead] = await t.db
    .insert(leads)
    .values({ offerId: offer.id, publisherId: publisherB.id, payout: '10.00' })
    .returning();
  Object.assign(ids, {
    publishers: publisherB.id,
    buyers: buyerB.id,
    offers: (await buildOffer(t.db)).id,
    applications: app!.id,
    leads: lead!.id,
    messages: randomUUID(),
  });
  // Publisher B is approved for the offer in the path (issue 33: its script is theirs to read;
  // an admin's DELETE of it is a 409, so the routes after it still find it).
  await t.db
    .insert(offerApplications)
    .values({ offerId: ids.offers!, publisherId: publisherB.id, status: 'approved' });
  // Publisher B's open dispute on that lead (publisher A aims at it in /publisher/disputes/:id).
  const [dispute] = await t.db
    .insert(leadDisputes)
    .values({ leadId: lead!.id, publisherId: publisherB.id })
    .returning();
  ids.disputes = dispute!.id;
  // Buyer B's campaign (PATCH /buyer/campaigns/:id by buyer A: 404).
  const [campaign] = await t.db
    .insert(campaigns)
    .values({ buyerId: buyerB.id, name: 'Matrix campaign' })
    .returning();
  ids.campaigns = campaign!.id;
  // Buyer B's return of a call (issue 31: POST /admin/returns/:id/accept).
  const [ret] = await t.db
    .insert(callReturns)
    .values({
      leadId: lead!.id,
      campaignId: campaign!.id,
      buyerId: buyerB.id,
      reason: 'Matrix',
      amount: '1.00',
    })
    .returning();
  ids.returns = ret!.id;
  // Buyer B's invoice (GET /buyer/invoices/:id.pdf by buyer A: 404).
  const [invoice] = await t.db
    .insert(buyerInvoices)
    .values({
      buyerId: buyerB.id,
      month: '2026-01-01',
      currency: 'USD',
      timeZone: 'UTC',
      totalCents: 0n,
    })
    .returning();
  ids.invoices = invoice!.id;
  // Publisher B's notification (POST /me/notifications/:id/read by anyone else: 404).
  const [note] = await t.db
    .insert(notifications)
    .values({ userId: publisherB.id, kind: 'publisher_approved', title: 'Matrix', body: 'Matrix' })
    .returning();
  ids.notifications = note!.id;
  // Publisher B's API key (DELETE /me/api-keys/:id by anyone else: 404).
  ids['api-keys'] = (await buildApiKey(t.db, publisherB.id, ['leads:read'])).id;
  keyOwners = { admin, 'publisher A': pubA, 'buyer A': buyerA };
  // Publisher B's payout (a payout run of one) and its run.
  const [payout] = await t.db
    .insert(payouts)
    .values({ publisherId: publisherB.id, amount: '12.00', notes: 'matrix' })
    .returning();
  ids.payouts = payout!.id;
  const [run] = await t.db.insert(payoutRuns).values({ kind: 'manual' }).returning();
  ids['payout-runs'] = run!.id;
  // Publisher B's tracking number (DELETE /admin/tracking-numbers/:id by a non-admin: refused).
  const [number] = await t.db
    .insert(trackingNumbers)
    .values({ number: '+18665550199', publisherId: publisherB.id, offerId: offer.id })
    .returning();
  ids['tracking-numbers'] = number!.id;
  // An integration with an external id and a refused call, and a lead import: every admin
  // route's path names a record that exists, so a 404 to an admin means something is wrong.
  const [integration] = await t.db
    .insert(integrations)
    .values({
      name: 'matrix records',
      keyHash: hashIntegrationKey(newIntegrationKey()),
      keyPrefix: 'ik_matrix',
    })
    .returning();
  ids.integrations = integration!.id;
  const [mapping] = await t.db
    .insert(integrationExternalIds)
    .values({
      integrationId: integration!.id,
      kind: 'publisher',
      externalId: 'RB-MATRIX',
      publisherId: publisherB.id,
    })
    .returning();
  ids['external-ids'] = mapping!.id;
  const [refusal] = await t.db
    .insert(ingestRefusals)
    .values({
      integrationId: integration!.id,
      httpStatus: 422,
      code: 'unknown_publisher',
      reason: 'matrix',
      method: 'POST',
      body: { call_id: 'CA-MATRIX', publisher: 'RB-UNKNOWN', offer: offer.id },
    })
    .returning();
  ids.refusals = refusal!.id;
  const [leadImport] = await t.db
    .insert(leadImports)
    .values({
      filename: 'matrix.csv',
      sizeBytes: 20,
      content: 'call_id,publisher\nCA1,x\n',
      header: ['call_id', 'publisher'],
      sample: [['CA1', 'x']],
      rowCount: 1,
    })
    .returning();
  ids['lead-imports'] = leadImport!.id;
  // A blocked caller (issue 32); the fraud rule in PUT /admin/fraud-rules/:rule is a name.
  const [blocked] = await t.db
    .insert(blockedCallers)
    .values({ kind: 'number', value: '+18665550198', reason: 'matrix' })
    .returning();
  ids['blocked-callers'] = blocked!.id;
  ids['fraud-rules'] = 'repeat_caller';
  // A webhook endpoint and one delivery of its log (issue 30), put back after the admin's
  // DELETE of the endpoint (which takes its log along) for the routes walked after it.
  await putBackWebhook();
  // Publisher B's postback delivery (their log; another publisher gets 404).
  const [postback] = await t.db
    .insert(outboundDeliveries)
    .values({
      kind: 'postback',
      publisherId: publisherB.id,
      eventId: randomUUID(),
      eventType: 'approved',
      eventSeq: 1,
      dedupeKey: 'matrix-postback',
      orderingKey: lead!.id,
      method: 'GET',
      url: 'https://tracker.example.com/pb',
      state: 'delivered',
    })
    .returning();
  ids['postback-deliveries'] = postback!.id;
  // A document sent to publisher B for signature (issue 33).
  const [document] = await t.db
    .insert(signatureDocuments)
    .values({
      publisherId: publisherB.id,
      kind: 'agreement',
      version: 1,
      title: 'Agreement',
      fileKey: `marketing_agreements/${publisherB.id}/${randomUUID()}-agreement.pdf`,
      sha256: '0'.repeat(64),
    })
    .returning();
  ids.documents = document!.id;
});

const WEBHOOK_DELETE = 'DELETE /api/v1/admin/webhooks/:id';
async function putBackWebhook() {
  await t.db
    .delete(webhookEndpoints)
    .where(eq(webhookEndpoints.url, 'https://hooks.example.com/in'));
  const [endpoint] = await t.db
    .insert(webhookEndpoints)
    .values({
      url: 'https://hooks.example.com/in',
      events: ['lead.created'],
      secret: 'whsec_bWF0cml4',
    })
    .returning();
  ids.webhooks = endpoint!.id;
  const [delivery] = await t.db
    .insert(outboundDeliveries)
    .values({
      ...(ids['webhook-deliveries'] && { id: ids['webhook-deliveries'] }),
      kind: 'webhook',
      endpointId: endpoint!.id,
      eventId: randomUUID(),
      eventType: 'lead.created',
      eventSeq: 1,
      dedupeKey: 'matrix-webhook',
      method: 'POST',
      url: 'https://hooks.example.com/in',
      body: '{}',
      state: 'delivered',
    })
    .returning();
  ids['webhook-deliveries'] = delivery!.id;
}
afterAll(() => t.close());

/** The route's URL with another user's record in every path parameter. */
function concrete(url: string): string {
  const parts = url.split('/');
  return parts
    .map((seg, i) => {
      if (seg === '*') return `${publisherB.id}/${randomUUID()}-terms.pdf`;
      if (seg === ':bucket') return 'compliance-questionnaires';
      // `:id.pdf`: the record's id, its suffix kept.
      if (seg.startsWith(':'))
        return seg.replace(/^:\w+/, ids[parts[i - 1] ?? ''] ?? publisherB.id);
      return seg;
    })
    .join('/');
}

/** The body a route is called with: none on a GET or DELETE, else an empty JSON object. */
const emptyBodyOf = (route: { method: string }) =>
  route.method === 'GET' || route.method === 'DELETE' ? undefined : {};

describe('authorization matrix', () => {
  it('walks every route the router serves, the admin routes it must keep among them', () => {
    // The tree parse is checked against the onRoute list: it must hold at least every route
    // the hook saw (the router holds more: '/prefix/' beside '/prefix', for one).
    const served = new Set(routesInRouter(t.app).map((r) => `${r.method} ${r.url}`));
    const unseen = t.app.registeredRoutes
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => !served.has(r));
    expect(unseen, 'registered routes missing from the router tree').toEqual([]);
    expect(routes.length).toBeGreaterThan(40);
    const walked = routes.map((r) => `${r.method} ${r.url}`);
    const missing = KEPT_ADMIN_ROUTES.map((r) => r.replace(' /', ' /api/v1/admin/')).filter(
      (r) => !walked.includes(r),
    );
    expect(missing, 'admin routes the matrix does not walk').toEqual([]);
  });

  it('has an expectation for every route, and a caller list with a token for each', () => {
    const missing = routes
      .filter((r) => !expectationFor(r.method, r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(missing, 'add these routes to EXPECTATIONS in authz-matrix.test.ts').toEqual([]);
    expect(new Set(EVERYONE).size, 'a caller listed twice').toBe(EVERYONE.length);
    expect([...tokens.keys()].sort()).toEqual([...EVERYONE].sort());
  });

  it('lets only the allowed callers past authorization, on every route, with no 5xx', async () => {
    // What must be checked, fixed before anything is: every route has a rule, and the cells
    // are every route × every caller. The loop ticks a cell off after its last check.
    const rules = new Map(routes.map((r) => [r, expectationFor(r.method, r.url)]));
    const noRule = routes.filter((r) => !rules.get(r)).map((r) => `${r.method} ${r.url}`);
    expect(noRule, 'routes without an expectation: no cell of theirs can be judged').toEqual([]);
    const expectedCells = routes.flatMap((r) => EVERYONE.map((who) => cellName(r, who)));
    const checked: string[] = [];
    const failures: string[] = [];
    // Admin cells last: the admin may change or delete the records the others aim at.
    const order = [...EVERYONE.filter((w) => !ADMINS.includes(w)), ...ADMINS];
    for (const route of routes) {
      const rule = rules.get(route)!;
      const url = concrete(route.url);
      const hasParams = route.url.includes(':') || route.url.includes('*');
      const statuses = new Map<Who, number>();
      // An admin DELETE that went through: the next admin finds the record gone (404).
      let deletedByAnAdmin = false;
      for (const who of order) {
        const token = await tokens.get(who)!();
        const res = await gotrueCall(t, route.method as 'GET', url, {
          token,
          body: emptyBodyOf(route),
        });
        statuses.set(who, res.statusCode);
        const cell = `${cellName(route, who)}: ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (res.statusCode >= 500) failures.push(`5xx: ${cell}`);
        const allowed = rule.allow === 'public' || rule.allow.includes(who);
        const denied = res.statusCode === 401 || res.statusCode === 403;
        if (!allowed) {
          // Refused exactly as its kind of caller is: not a 404, a 400, or another refusal.
          const want = refusalFor(who, route.url);
          const got = errorOf(res.body);
          if (!want) failures.push(`no refusal known for this caller here: ${cell}`);
          else if (
            res.statusCode !== want.status ||
            got.code !== want.code ||
            (want.message !== undefined && got.message !== want.message)
          ) {
            failures.push(`should be refused with ${JSON.stringify(want)}: ${cell}`);
          }
        } else if (rule.allow !== 'public') {
          const isAdmin = ADMINS.includes(who);
          // Someone else's record in the path: an allowed non-admin caller must not get a 2xx.
          if (!isAdmin && who !== rule.owner && hasParams && res.statusCode < 300) {
            failures.push(`reached another user's record: ${cell}`);
          }
          // No record in the path, or one the caller may read (an admin's, an owner's): in.
          if (denied && (!hasParams || isAdmin || who === rule.owner)) {
            failures.push(`should be let through: ${cell}`);
          }
          // Every admin route's path names a record that exists: an admin gets no 404.
          if (
            isAdmin &&
            route.url.startsWith('/api/v1/admin/') &&
            res.statusCode === 404 &&
            !deletedByAnAdmin
          ) {
            failures.push(`an admin got 404 for a record that exists: ${cell}`);
          }
          if (isAdmin && route.method === 'DELETE' && res.statusCode < 300) {
            deletedByAnAdmin = true;
          }
        }
        checked.push(cellName(route, who));
      }
      if (`${route.method} ${route.url}` === WEBHOOK_DELETE) await putBackWebhook();
      if (rule.allow === 'public' && new Set(statuses.values()).size !== 1) {
        failures.push(
          `a public route answers differently by token: ${route.method} ${route.url} ${JSON.stringify(Object.fromEntries(statuses))}`,
        );
      }
    }
    console.log(
      `authorization matrix: ${routes.length} routes × ${EVERYONE.length} callers = ${expectedCells.length} cells expected, ${checked.length} checked, ${failures.length} failures`,
    );
    expect(failures).toEqual([]);
    const ticked = new Set(checked);
    const skipped = expectedCells.filter((c) => !ticked.has(c));
    expect(skipped, 'cells the loop did not check').toEqual([]);
    expect(checked).toHaveLength(expectedCells.length);
  }, 600_000);
  it('lets an integration key into no route but the postback endpoint', async () => {
    const key = newIntegrationKey();
    await t.db
      .insert(integrations)
      .values({ name: 'matrix', keyHash: hashIntegrationKey(key), keyPrefix: key.slice(0, 9) });
    const failures: string[] = [];
    for (const route of routes) {
      const rule = expectationFor(route.method, route.url)!;
      if (rule.allow === 'public' || route.url.startsWith('/api/v1/ingest/')) continue;
      for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }]) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: `${concrete(route.url)}?key=${key}`,
          headers: { ...headers, 'content-type': 'application/json' },
          ...(emptyBodyOf(route) && { payload: '{}' }),
          remoteAddress: randomIp(),
        });
        // GoTrue answers a token it cannot read 403 (bad_jwt); the portal API 401.
        if (res.statusCode !== 401 && res.statusCode !== 403)
          failures.push(`${route.method} ${route.url}: ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('keeps the API-key table to routes that exist, reads to GETs, writes to admins', () => {
    const served = new Set(routes.map((r) => `${r.method} ${r.url}`));
    const stale = Object.keys(API_KEY_ROUTES).filter((r) => !served.has(r));
    expect(stale, 'api-key-scopes.ts names routes the router does not serve').toEqual([]);
    const readOpensWrite = Object.entries(API_KEY_ROUTES).filter(
      ([r, scope]) => !r.startsWith('GET ') && (scope === 'any' || scope.endsWith(':read')),
    );
    expect(readOpensWrite, 'a read scope (or any key) opens a write').toEqual([]);
    const writeOutsideAdmin = Object.entries(API_KEY_ROUTES).filter(
      ([r, scope]) => scope.endsWith(':write') && !r.includes(' /api/v1/admin/'),
    );
    expect(writeOutsideAdmin).toEqual([]);
  });

  it('takes an API key as its user, within its scopes, on every /api/v1 route; never on /auth/v1', async () => {
    // Each role's key with every scope its role may give, and with all of those but the one
    // the route needs: the same rule as the user's session, narrowed by the route's scope.
    const failures: string[] = [];
    let cells = 0;
    const apiRoutes = routes.filter((r) => {
      const rule = expectationFor(r.method, r.url)!;
      return (
        rule.allow !== 'public' &&
        (r.url.startsWith('/api/v1/') || r.url.startsWith('/auth/v1/')) &&
        !r.url.startsWith('/api/v1/ingest/')
      );
    });
    for (const route of apiRoutes) {
      const rule = expectationFor(route.method, route.url)!;
      const scope = scopeForRoute(route.method, route.url);
      const hasParams = route.url.includes(':') || route.url.includes('*');
      for (const who of KEY_OWNERS) {
        const roleScopes = apiKeyScopesByRole[ROLE_OF[who]];
        for (const withScope of [true, false]) {
          const scopes = withScope ? roleScopes : roleScopes.filter((s) => s !== scope);
          const { key } = await buildApiKey(t.db, keyOwners[who].id, scopes);
          const res = await gotrueCall(t, route.method as 'GET', concrete(route.url), {
            token: key,
            body: emptyBodyOf(route),
          });
          cells++;
          const cell = `${route.method} ${route.url} with ${who}'s key ${withScope ? 'with' : 'without'} its scope: ${res.statusCode} ${res.body.slice(0, 160)}`;
          const got = errorOf(res.body);
          const refusedAs = (status: number, code: string) =>
            res.statusCode === status && got.code === code;
          if (res.statusCode >= 500) failures.push(`5xx: ${cell}`);
          if (route.url.startsWith('/auth/v1/')) {
            if (!refusedAs(403, 'bad_jwt')) failures.push(`/auth/v1 took a key: ${cell}`);
            continue;
          }
          const hasScope = scope === 'any' || (scope !== null && scopes.includes(scope));
          if (scope === null) {
            if (!refusedAs(403, 'api_key_not_allowed')) failures.push(`not for keys: ${cell}`);
            continue;
          }
          if (!hasScope) {
            if (!refusedAs(403, 'api_key_scope')) failures.push(`scope not checked: ${cell}`);
            continue;
          }
          // The key has the route's scope: what the user's own session would get.
          const allowed = (rule.allow as readonly Who[]).includes(who);
          if (!allowed) {
            const want = refusalFor(who, route.url)!;
            if (!refusedAs(want.status, want.code) || got.message !== want.message) {
              failures.push(`should be refused as the user is: ${cell}`);
            }
            continue;
          }
          const isAdmin = who === 'admin';
          if (!isAdmin && who !== rule.owner && hasParams && res.statusCode < 300) {
            failures.push(`reached another user's record: ${cell}`);
          }
          if ((res.statusCode === 401 || res.statusCode === 403) && (!hasParams || isAdmin)) {
            failures.push(`should be let through: ${cell}`);
          }
          if (isAdmin && route.url.startsWith('/api/v1/admin/') && res.statusCode === 404) {
            failures.push(`an admin's key got 404 for a record that exists: ${cell}`);
          }
        }
      }
    }
    console.log(
      `API-key matrix: ${apiRoutes.length} routes × ${KEY_OWNERS.length * 2} keys = ${cells} cells, ${failures.length} failures`,
    );
    expect(cells).toBe(apiRoutes.length * KEY_OWNERS.length * 2);
    expect(failures).toEqual([]);
  }, 600_000);

  it("leaves publisher B's records as they were", async () => {
    const [app] = await t.db
      .select()
      .from(offerApplications)
      .where(eq(offerApplications.id, ids.applications!));
    expect(app?.publisherId).toBe(publisherB.id);
    const [lead] = await t.db.select().from(leads).where(eq(leads.id, ids.leads!));
    expect(lead?.publisherId).toBe(publisherB.id);
  });
});
