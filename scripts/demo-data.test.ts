import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  buyerBilling,
  buyerInvoiceLines,
  buyerInvoices,
  callReturns,
  campaigns,
  complianceQuestionnaires,
  integrations,
  leads,
  offerApplications,
  offers,
  payoutLines,
  payouts,
  publisherBalances,
  trackingNumbers,
  users,
} from '../server/db/schema.ts';
import {
  assertDemoTargetEmpty,
  DEMO_ACCOUNTS,
  DemoRefusedError,
  type DemoSummary,
  seedDemoData,
} from '../server/demo/demo-seed.service.ts';
import { embeddedDatabaseBusy } from '../server/demo/embedded-db.ts';
import { hashIntegrationKey } from '../server/modules/ingest/lead-ingest.ts';
import {
  exactLeadCount,
  networkPayoutTotal,
  publisherLeadTotals,
} from '../server/modules/leads/lead-totals.ts';
import { buildTestApp, type TestApp } from '../server/test/build-test-app.ts';

const PASSWORD = 'demo-test-pass';
const DAY = 86_400_000;

let t: TestApp;
let summary: DemoSummary;
let startedAt: number;

beforeAll(async () => {
  t = await buildTestApp();
  startedAt = Date.now();
  summary = await seedDemoData({
    db: t.db,
    storage: t.app.storage,
    password: PASSWORD,
    size: { publishers: 8, buyers: 3, leads: 300 },
  });
});

afterAll(async () => {
  await t?.close();
});

const countBy = <T>(rows: T[], key: (r: T) => string) => {
  const out: Record<string, number> = {};
  for (const r of rows) out[key(r)] = (out[key(r)] ?? 0) + 1;
  return out;
};

describe('npm run demo seeding', () => {
  it('makes publishers in every status, buyers, and offers in several verticals', async () => {
    const all = await t.db.select().from(users);
    const pubs = countBy(
      all.filter((u) => u.role === 'publisher'),
      (u) => u.status,
    );
    expect(Object.keys(pubs).sort()).toEqual(['active', 'approved', 'blocked', 'pending']);
    expect(Object.values(pubs).reduce((a, b) => a + b)).toBe(8);
    expect(pubs).toEqual(summary.publishers);
    const buyers = all.filter((u) => u.role === 'buyer');
    expect(countBy(buyers, (u) => u.status)).toEqual({ active: 2, blocked: 1 });
    // Profiles look like real sign-ups.
    for (const p of all.filter((u) => u.role === 'publisher')) {
      expect(p.name).toMatch(/^\S+ \S+/);
      expect(p.businessLegalName).toBeTruthy();
      expect(p.phoneNumber).toMatch(/^\+1 \(\d{3}\) 555-01\d\d$/);
      expect(p.address).toMatch(/, [A-Z]{2} \d{5}$/);
    }

    const offerRows = await t.db.select().from(offers);
    expect(countBy(offerRows, (o) => o.status)).toEqual(summary.offers);
    expect(summary.offers.active).toBeGreaterThan(0);
    expect(summary.offers.inactive).toBeGreaterThan(0);
    expect(new Set(offerRows.map((o) => o.vertical)).size).toBeGreaterThanOrEqual(6);
    for (const o of offerRows) {
      expect(Number(o.payout)).toBeGreaterThan(0);
      expect(o.scriptInstructions?.length).toBeGreaterThan(40);
    }

    const campaignRows = await t.db.select().from(campaigns);
    const activeBuyer = buyers.find((b) => b.email === DEMO_ACCOUNTS.buyer)!;
    expect(campaignRows.filter((c) => c.buyerId === activeBuyer.id).length).toBeGreaterThan(0);
  });

  it('makes applications in every status, each submitted one with its compliance files', async () => {
    const apps = await t.db.select().from(offerApplications);
    const byStatus = countBy(apps, (a) => a.status);
    expect(byStatus).toEqual(summary.applications);
    for (const s of ['draft', 'pending', 'approved', 'rejected'])
      expect(byStatus[s]).toBeGreaterThan(0);
    const approved = apps.filter((a) => a.status === 'approved');
    expect(approved.some((a) => a.ioDocumentUrl)).toBe(true);
    expect(approved.some((a) => !a.ioDocumentUrl)).toBe(true);
    expect(apps.filter((a) => a.ioDocumentUrl && a.status !== 'approved')).toEqual([]);

    const questionnaires = await t.db.select().from(complianceQuestionnaires);
    const submitted = apps.filter((a) => a.status !== 'draft').map((a) => a.id);
    expect(questionnaires.map((q) => q.applicationId).sort()).toEqual(submitted.sort());
    for (const q of questionnaires) {
      expect(q.fileUrls.length).toBeGreaterThanOrEqual(1);
      expect(q.fileUrls.length).toBeLessThanOrEqual(3);
    }

    // Pending publishers cannot apply; the admin's decisions are in the audit trail.
    const pending = await t.db.select().from(users);
    const pendingIds = new Set(pending.filter((u) => u.status === 'pending').map((u) => u.id));
    expect(apps.filter((a) => pendingIds.has(a.publisherId))).toEqual([]);
    const audit = await t.db.select().from(auditLog);
    const actions = countBy(audit, (a) => a.action);
    expect(actions['application.approve']).toBe(byStatus.approved);
    expect(actions['application.reject']).toBe(byStatus.rejected);
    expect(actions['publisher.approve']).toBeGreaterThanOrEqual(summary.publishers.approved);
    expect(actions['application.io']).toBe(summary.applicationsWithIo);
  });

  it('stores every referenced file for real, readable as what its name says', async () => {
    const [qs, apps, pubs] = await Promise.all([
      t.db.select().from(complianceQuestionnaires),
      t.db.select().from(offerApplications),
      t.db.select().from(users),
    ]);
    const keys = [
      ...qs.flatMap((q) => [...q.fileUrls, q.documentUrl]),
      ...apps.flatMap((a) => (a.ioDocumentUrl ? [a.ioDocumentUrl] : [])),
      ...pubs.flatMap((u) => (u.marketingAgreementUrl ? [u.marketingAgreementUrl] : [])),
    ];
    expect(keys.length).toBe(summary.files.count);
    expect(pubs.some((u) => u.marketingAgreementUrl?.startsWith('marketing_agreements/'))).toBe(
      true,
    );
    const magic: Record<string, (b: Buffer) => boolean> = {
      pdf: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
      docx: (b) => b.subarray(0, 2).toString('latin1') === 'PK',
      mp3: (b) => b.subarray(0, 3).toString('latin1') === 'ID3',
      mp4: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp',
    };
    for (const key of keys) {
      const ext = key.split('.').pop()!;
      const opened = await t.app.storage.read(key);
      expect(opened, key).not.toBeNull();
      const chunks: Buffer[] = [];
      for await (const c of opened!.stream) chunks.push(c as Buffer);
      const bytes = Buffer.concat(chunks);
      expect(bytes.length).toBe(opened!.size);
      expect(magic[ext]?.(bytes), key).toBe(true);
    }
  });

  it('spreads leads over the last 90 days with payouts that add up', async () => {
    const [leadRows, apps, offerRows, payoutRows, pubs] = await Promise.all([
      t.db.select().from(leads),
      t.db.select().from(offerApplications),
      t.db.select().from(offers),
      t.db.select().from(payouts),
      t.db.select().from(users),
    ]);
    // 6% of them (18) arrive through the demo's call tracker.
    expect(summary.integration.calls).toBe(18);
    expect(leadRows).toHaveLength(300);
    expect(countBy(leadRows, (l) => l.status)).toEqual(summary.leads);
    for (const s of ['approved', 'pending', 'rejected']) {
      expect(summary.leads[s as 'approved']).toBeGreaterThan(0);
    }
    const approvedPairs = new Set(
      apps.filter((a) => a.status === 'approved').map((a) => `${a.publisherId}/${a.offerId}`),
    );
    const payoutOf = new Map(offerRows.map((o) => [o.id, o.payout]));
    const oldest = Math.min(...leadRows.map((l) => l.timestamp.getTime()));
    const newest = Math.max(...leadRows.map((l) => l.timestamp.getTime()));
    expect(oldest).toBeGreaterThanOrEqual(startedAt - 90 * DAY - 1000);
    expect(newest).toBeLessThanOrEqual(Date.now());
    // Spread out, not piled on one day: some in the last week, some over a month ago.
    expect(leadRows.some((l) => l.timestamp.getTime() > startedAt - 7 * DAY)).toBe(true);
    expect(leadRows.some((l) => l.timestamp.getTime() < startedAt - 45 * DAY)).toBe(true);
    for (const l of leadRows) {
      expect(approvedPairs.has(`${l.publisherId}/${l.offerId}`)).toBe(true);
      // A tracker's call keeps the offer's payout; its status says whether it is paid.
      if (l.integrationId) continue;
      expect(l.payout).toBe(l.status === 'rejected' ? '0.00' : payoutOf.get(l.offerId));
      expect(l.callDuration).toBeGreaterThanOrEqual(0);
    }

    expect(payoutRows.length).toBe(summary.payouts.count);
    expect(payoutRows.length).toBeGreaterThan(0);
    const statusOf = new Map(pubs.map((u) => [u.id, u.status]));
    for (const p of payoutRows) {
      expect(Number(p.amount)).toBeGreaterThan(0);
      expect(['approved', 'active', 'blocked']).toContain(statusOf.get(p.publisherId));
      expect(p.date.getTime()).toBeLessThanOrEqual(Date.now());
      expect(p.notes).toMatch(/^Net-15 payout for /);
    }
    // A publisher is never paid more than their approved leads earned.
    for (const pub of new Set(payoutRows.map((p) => p.publisherId))) {
      const paid = payoutRows
        .filter((p) => p.publisherId === pub)
        .reduce((s, p) => s + Math.round(Number(p.amount) * 100), 0);
      const earned = leadRows
        .filter((l) => l.publisherId === pub && l.status === 'approved')
        .reduce((s, l) => s + Math.round(Number(l.payout) * 100), 0);
      expect(paid).toBeLessThanOrEqual(earned);
    }
  });

  it('makes a call-tracker integration whose calls came through the postback upsert, with reasons', async () => {
    const [integration] = await t.db
      .select()
      .from(integrations)
      .where(eq(integrations.name, 'Ringba production'));
    expect(integration).toBeDefined();
    expect(integration!.acceptedCount).toBe(summary.integration.events);
    expect(summary.integration.key.startsWith(integration!.keyPrefix)).toBe(true);
    const calls = await t.db.select().from(leads).where(eq(leads.integrationId, integration!.id));
    expect(calls).toHaveLength(summary.integration.calls);
    for (const l of calls) {
      expect(l.externalCallId).toMatch(/^RGB/);
      expect(l.lastEvent).not.toBeNull();
      // Rejected and approved calls say why (the tracker, the rules or the admin).
      if (l.status !== 'pending') expect(l.statusReason).toBeTruthy();
    }
    expect(calls.filter((l) => l.statusOverriddenAt).length).toBe(summary.integration.overridden);
    // Each call was made to the tracking number assigned to its publisher and offer (issue 26).
    const numbers = await t.db.select().from(trackingNumbers);
    const pairOf = new Map(numbers.map((n) => [n.number, `${n.publisherId}/${n.offerId}`]));
    for (const l of calls)
      expect(pairOf.get(l.trackingNumber!)).toBe(`${l.publisherId}/${l.offerId}`);
    // The printed key is the integration's (stored as its hash only).
    expect(hashIntegrationKey(summary.integration.key)).toBe(integration!.keyHash);
  });

  it('gives the demo buyer approved campaigns with billed calls, an accepted return and an invoice', async () => {
    const [buyer] = await t.db.select().from(users).where(eq(users.email, DEMO_ACCOUNTS.buyer));
    const own = await t.db.select().from(campaigns).where(eq(campaigns.buyerId, buyer!.id));
    expect(own.filter((c) => c.status === 'active').length).toBeGreaterThanOrEqual(1);
    expect(summary.buyerBilling.billed).toBeGreaterThan(0);
    const returns = await t.db.select().from(callReturns).where(eq(callReturns.buyerId, buyer!.id));
    expect(returns.filter((r) => r.status === 'accepted')).toHaveLength(1);
    const [invoice] = await t.db
      .select()
      .from(buyerInvoices)
      .where(eq(buyerInvoices.buyerId, buyer!.id));
    const lines = await t.db
      .select()
      .from(buyerInvoiceLines)
      .where(eq(buyerInvoiceLines.invoiceId, invoice!.id));
    expect(lines.some((l) => l.kind === 'calls')).toBe(true);
    expect(lines.reduce((s, l) => s + l.amountCents, 0n)).toBe(invoice!.totalCents);
    // Another active buyer is prepaid, with a deposit.
    const [prepaid] = await t.db
      .select()
      .from(buyerBilling)
      .where(eq(buyerBilling.mode, 'prepaid'));
    expect(prepaid!.balanceCents).toBe(250_000n);
  });

  it('leaves the maintained totals (lead_totals & co.) equal to its leads and payouts', async () => {
    const [leadRows, payoutRows] = await Promise.all([
      t.db.select().from(leads),
      t.db.select().from(payouts),
    ]);
    expect(await exactLeadCount(t.db, {})).toBe(leadRows.length);
    expect(await exactLeadCount(t.db, { status: 'pending' })).toBe(summary.leads.pending);
    const cents = (v: string) => Math.round(Number(v) * 100);
    for (const pub of new Set(leadRows.map((l) => l.publisherId))) {
      const own = leadRows.filter((l) => l.publisherId === pub);
      const totals = await publisherLeadTotals(t.db, pub);
      expect(totals.leads).toBe(own.length);
      expect(cents(totals.payout)).toBe(own.reduce((s, l) => s + cents(l.payout), 0));
    }
    const paid = payoutRows.reduce((s, p) => s + cents(p.amount), 0);
    expect(cents(await networkPayoutTotal(t.db))).toBe(paid);
  });

  it('has balances that add up: owed = earned − paid, each payout the sum of its leads', async () => {
    const [leadRows, payoutRows, lineRows, balances] = await Promise.all([
      t.db.select().from(leads),
      t.db.select().from(payouts),
      t.db.select().from(payoutLines),
      t.db.select().from(publisherBalances),
    ]);
    const cents = (v: string) => Math.round(Number(v) * 100);
    const pubs = new Set([...leadRows, ...payoutRows].map((r) => r.publisherId));
    let owedSomewhere = false;
    for (const pub of pubs) {
      const earned = leadRows
        .filter((l) => l.publisherId === pub && l.status === 'approved')
        .reduce((s, l) => s + cents(l.payout), 0);
      const paid = payoutRows
        .filter((p) => p.publisherId === pub)
        .reduce((s, p) => s + cents(p.amount), 0);
      const b = balances.find((r) => r.publisherId === pub);
      expect(cents(b?.earned ?? '0')).toBe(earned);
      expect(cents(b?.paid ?? '0')).toBe(paid);
      expect(cents(b?.owed ?? '0')).toBe(earned - paid);
      expect(earned - paid).toBeGreaterThanOrEqual(0);
      if (earned > paid) owedSomewhere = true;
    }
    expect(owedSomewhere).toBe(true);
    for (const p of payoutRows) {
      const own = lineRows.filter((l) => l.payoutId === p.id);
      expect(own.length).toBeGreaterThan(0);
      expect(own.reduce((s, l) => s + cents(l.amount), 0)).toBe(cents(p.amount));
      expect(p.runId).toBeTruthy();
      expect(p.status).toBe('paid');
    }
    // Every paid lead is an approved lead, paid once.
    const ids = lineRows.map((l) => l.leadId);
    expect(new Set(ids).size).toBe(ids.length);
    const approved = new Set(leadRows.filter((l) => l.status === 'approved').map((l) => l.id));
    expect(ids.every((id) => id && approved.has(id))).toBe(true);
  });

  it('lets the printed accounts sign in with the printed password; blocked ones are refused', async () => {
    const signIn = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        payload: { email, password: PASSWORD },
      });
    for (const a of summary.accounts) {
      const res = await signIn(a.email);
      expect(res.statusCode, `${a.email}: ${res.body}`).toBe(a.status === 'blocked' ? 400 : 200);
    }
    expect(summary.accounts.map((a) => a.email)).toEqual(
      expect.arrayContaining([
        DEMO_ACCOUNTS.admin,
        DEMO_ACCOUNTS.publisher,
        DEMO_ACCOUNTS.pending,
        DEMO_ACCOUNTS.buyer,
      ]),
    );

    // The admin reviews a compliance submission and the media plays from its signed URL.
    const token = (await signIn(DEMO_ACCOUNTS.admin)).json().access_token as string;
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/compliance?page=1&page_size=5',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.statusCode).toBe(200);
    const media = list.json().items[0].media[0] as { name: string; url: string };
    const file = await t.app.inject({ method: 'GET', url: media.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^(audio\/mpeg|video\/mp4)/);
  });

  it('refuses to fill a database that already has publishers or offers', async () => {
    const before = await t.db.select().from(users);
    await expect(assertDemoTargetEmpty(t.db)).rejects.toThrow(DemoRefusedError);
    await expect(assertDemoTargetEmpty(t.db)).rejects.toThrow(
      /already has 8 publishers, 16 offers and 3 buyers\. npm run demo only fills an empty database/,
    );
    expect(await t.db.select().from(users)).toHaveLength(before.length);
  });
});

describe.runIf(existsSync('/proc/self/fd'))('embedded database in use', () => {
  it('names the process that has the database open, and ignores a stale postmaster.pid', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'demo-pgdata-'));
    try {
      expect(await embeddedDatabaseBusy(dir)).toBeNull();
      writeFileSync(path.join(dir, 'postmaster.pid'), '-42\n');
      writeFileSync(path.join(dir, 'relation'), 'x');
      // Another process holding a file of the directory open, as a running server does.
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `require('fs').openSync(${JSON.stringify(path.join(dir, 'relation'))}, 'r'); console.log('open'); setInterval(() => {}, 1000);`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise((resolve) => holder.stdout!.once('data', resolve));
      const busy = await embeddedDatabaseBusy(dir);
      holder.kill();
      await new Promise((resolve) => holder.once('exit', resolve));
      expect(busy).toContain(`in use by process ${holder.pid}`);
      expect(busy).toContain('stop the server');
      // The server is gone but left its postmaster.pid: PGlite recovers, so go ahead.
      expect(await embeddedDatabaseBusy(dir)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
