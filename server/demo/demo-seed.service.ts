import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_SETTINGS } from '../../contract/settings.ts';
import { hashPassword, PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from '../auth/password.ts';
import type { Db } from '../db/client.ts';
import { groupRows } from '../db/rows.ts';
import {
  auditLog,
  campaigns,
  complianceQuestionnaires,
  leads,
  offerApplications,
  offers,
  paymentDetails,
  payoutLines,
  payoutRuns,
  payouts,
  settings,
  users,
} from '../db/schema.ts';
import { ensureSettings, getSettings } from '../db/settings.ts';
import type { BucketName, FileType, Storage } from '../storage/index.ts';
import { seedDemoBuyerBilling } from './demo-billing.ts';
import {
  BUYERS,
  COMPANY_NAMES,
  companyDomain,
  FIRST_NAMES,
  LAST_NAMES,
  MEDIA_NAMES,
  OFFERS,
  type OfferSpec,
  PAYOUT_METHODS,
  PLACES,
  STREETS,
  TRAFFIC_SOURCES,
} from './demo-catalog.ts';
import { makeDocx, makeMp3, makeMp4, makePdf } from './demo-files.ts';
import { type DemoIntegrationSummary, seedIntegrationCalls } from './demo-integration.ts';
import { createRandom, type Random } from './random.ts';

/** How much to make. Offers are a fixed catalog of 16 across 8 verticals. */
export type DemoSize = { publishers: number; buyers: number; leads: number };
export const DEFAULT_DEMO_SIZE: DemoSize = { publishers: 48, buyers: 7, leads: 5000 };

/** The sign-ins printed at the end; every demo account shares one password. */
export const DEMO_ACCOUNTS = {
  admin: 'admin@demo.example',
  publisher: 'publisher@demo.example',
  pending: 'pending@demo.example',
  blocked: 'blocked@demo.example',
  buyer: 'buyer@demo.example',
} as const;

export type DemoAccount = { what: string; role: string; status: string; email: string };

export type DemoSummary = {
  accounts: DemoAccount[];
  publishers: Record<'pending' | 'approved' | 'active' | 'blocked', number>;
  buyers: Record<'active' | 'blocked', number>;
  offers: Record<'active' | 'inactive', number>;
  verticals: number;
  applications: Record<'draft' | 'pending' | 'approved' | 'rejected', number>;
  applicationsWithIo: number;
  complianceSubmissions: number;
  agreements: number;
  leads: Record<'approved' | 'pending' | 'rejected', number>;
  payouts: { count: number; total: number };
  campaigns: number;
  /** The demo buyer's approved campaigns, their billed calls and invoices (issue 31). */
  buyerBilling: { campaigns: number; billed: number; invoices: number };
  auditEntries: number;
  files: { count: number; bytes: number };
  /** The call tracker and the calls that came through it (counted in `leads` too). */
  integration: DemoIntegrationSummary;
};

/** The database is not one the demo may fill; the message says why and what to do. */
export class DemoRefusedError extends Error {}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LEAD_WINDOW_DAYS = 90;
const LEAD_BATCH = 500;

/**
 * Refuses unless the database is empty of publishers, offers and buyers (admins may exist, e.g.
 * the first-start admin) and none of the demo e-mail addresses is taken.
 */
export async function assertDemoTargetEmpty(db: Db): Promise<void> {
  const [[pubs], [offerCount], [buyerCount], taken] = await Promise.all([
    db.select({ n: count() }).from(users).where(eq(users.role, 'publisher')),
    db.select({ n: count() }).from(offers),
    db.select({ n: count() }).from(users).where(eq(users.role, 'buyer')),
    db
      .select({ email: users.email })
      .from(users)
      .where(inArray(sql`lower(${users.email})`, Object.values(DEMO_ACCOUNTS))),
  ]);
  const found: string[] = [];
  const plural = (n: number, one: string) =>
    `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;
  if (pubs!.n > 0) found.push(plural(pubs!.n, 'publisher'));
  if (offerCount!.n > 0) found.push(plural(offerCount!.n, 'offer'));
  if (buyerCount!.n > 0) found.push(plural(buyerCount!.n, 'buyer'));
  if (found.length > 0) {
    throw new DemoRefusedError(
      `This database already has ${found.length > 1 ? `${found.slice(0, -1).join(', ')} and ${found.at(-1)}` : found[0]}. npm run demo only fills an empty database, ` +
        'so nothing was changed. Use a new DATA_DIR (e.g. DATA_DIR=./data-demo npm run demo) or ' +
        'point DATABASE_URL at an empty database.',
    );
  }
  if (taken.length > 0) {
    throw new DemoRefusedError(
      `The demo e-mail address ${taken[0]!.email} is already in use, so nothing was changed. ` +
        'Run npm run demo on an empty database.',
    );
  }
}

type UserRow = typeof users.$inferInsert & { id: string; createdAt: Date };
type OfferRow = typeof offers.$inferInsert & { id: string; createdAt: Date };
type ApplicationRow = typeof offerApplications.$inferInsert & { id: string; createdAt: Date };
type AuditRow = typeof auditLog.$inferInsert & { createdAt: Date };

/** One publisher in the plan, with the dates that bound what they could do. */
type PlannedPublisher = {
  row: UserRow;
  company: string;
  phone: string;
  approvedAt: Date | null;
  blockedAt: Date | null;
  /** How much traffic they send compared with the others. */
  scale: number;
};

type PlannedOffer = { row: OfferRow; spec: OfferSpec; deactivatedAt: Date | null };

/** A file to store before the rows that point at it are inserted. */
type PendingFile = {
  bucket: BucketName;
  owner: string;
  filename: string;
  accept: readonly FileType[];
  bytes: Buffer;
  assign(key: string): void;
};

/** Approved (or pending) work a lead can come from. */
type LeadSource = {
  publisher: PlannedPublisher;
  offer: PlannedOffer;
  from: number;
  to: number;
  weight: number;
};

const dayLabel = (d: Date) =>
  d.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const money = (cents: number) => (cents / 100).toFixed(2);
const usd = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The demo network's name, support e-mail and postal address (printed on statements). */
export const DEMO_NETWORK = {
  companyName: 'Harborline Call Network',
  supportEmail: 'support@harborline-calls.example',
  companyAddress:
    'Harborline Media LLC\n1200 Harbor Drive, Suite 400\nSan Diego, CA 92101\nUnited States',
} as const;

/**
 * Gives the network the demo's name, support e-mail and postal address, each only while it is
 * still the default (or empty): what an admin already set is kept.
 */
async function brandDemoNetwork(db: Db): Promise<void> {
  await ensureSettings(db);
  const row = await getSettings(db);
  await db
    .update(settings)
    .set({
      ...(row.companyName === DEFAULT_SETTINGS.company_name && {
        companyName: DEMO_NETWORK.companyName,
      }),
      ...(row.supportEmail === DEFAULT_SETTINGS.support_email && {
        supportEmail: DEMO_NETWORK.supportEmail,
      }),
      ...(!row.companyAddress?.trim() && { companyAddress: DEMO_NETWORK.companyAddress }),
      updatedAt: new Date(),
    })
    .where(eq(settings.id, 1));
}

/**
 * Fills an empty database with a believable network: publishers in every status, offers in
 * several verticals, applications with real stored compliance files, leads over the last 90
 * days (inserted in batches, one transaction each), payouts, buyers with campaigns and the
 * admin's audit trail. Call assertDemoTargetEmpty first.
 */
export async function seedDemoData(opts: {
  db: Db;
  storage: Storage;
  password: string;
  size?: Partial<DemoSize>;
  now?: Date;
  seed?: number;
  onProgress?: (line: string) => void;
  /** The portal's address, in the demo buyer's notices (campaign approved, return accepted). */
  publicUrl?: string;
}): Promise<DemoSummary> {
  const { db, storage } = opts;
  const size = { ...DEFAULT_DEMO_SIZE, ...opts.size };
  if (size.publishers < 4) throw new DemoRefusedError('The demo needs at least 4 publishers.');
  if (size.buyers < 2) throw new DemoRefusedError('The demo needs at least 2 buyers.');
  if (size.leads < 0) throw new DemoRefusedError('The number of leads cannot be negative.');
  if (
    [...opts.password].length < PASSWORD_MIN_LENGTH ||
    Buffer.byteLength(opts.password) > PASSWORD_MAX_BYTES
  ) {
    throw new DemoRefusedError(
      `The demo password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_BYTES} characters long.`,
    );
  }
  const progress = opts.onProgress ?? (() => {});
  await brandDemoNetwork(db);
  const plan = startPlan({
    seed: opts.seed ?? 20_240_601,
    now: (opts.now ?? new Date()).getTime(),
    network: (await getSettings(db)).companyName,
    passwordHash: await hashPassword(opts.password),
  });
  const plannedOffers = planOffers(plan);
  const publishers = planPublishers(plan, size.publishers);
  const canWork = publishers.filter((p) => p.approvedAt);
  const featuredPublisher = publishers.find((p) => p.row.email === DEMO_ACCOUNTS.publisher)!;
  const agreements = planAgreements(plan, canWork, featuredPublisher);
  const apps = planApplications(plan, { offers: plannedOffers, canWork, featuredPublisher });
  // About 6% of the leads (at most 300) arrive through the call tracker, event by event.
  const trackerCalls = Math.min(300, Math.round(size.leads * 0.06));
  const { leadRows, approvedCents } = planLeads(plan, apps.sources, size.leads - trackerCalls);
  const { payoutRows, links } = planPayouts(plan, canWork, approvedCents);
  const { buyerRows, campaignRows } = planBuyers(plan, size.buyers);

  progress(`Storing ${plan.files.length} compliance, IO and agreement files...`);
  const { stored, bytes } = await storeFilesAndInsert(db, storage, plan, progress, {
    users: [plan.admin, ...publishers.map((p) => p.row), ...buyerRows],
    offers: plannedOffers.map((o) => o.row),
    applications: apps.applications,
    questionnaires: apps.questionnaires,
    payouts: payoutRows,
    campaigns: campaignRows,
  });
  await insertLeads(db, leadRows, progress);
  progress('Payout runs, their leads and payment details...');
  await linkPayouts(db, plan, links, canWork);
  progress('Calls through the "Ringba production" integration...');
  const tracker = await seedIntegrationCalls({
    db,
    rand: plan.rand,
    now: plan.now,
    admin: { id: plan.admin.id, email: plan.admin.email },
    sources: apps.sources.map((s) => ({
      publisherId: s.publisher.row.id,
      offerId: s.offer.row.id,
      from: s.from,
      to: s.to,
      weight: s.weight,
    })),
    calls: trackerCalls,
    onProgress: progress,
  });

  progress("The demo buyer's approved campaigns, billed calls, a return and an invoice...");
  const buyerBilling = await seedDemoBuyerBilling({
    db,
    now: plan.now,
    admin: { id: plan.admin.id, email: plan.admin.email },
    buyerId: buyerRows[0]!.id,
    prepaidBuyerId: buyerRows.find((b, i) => i > 0 && b.status === 'active')?.id,
    offerIds: [...new Set(apps.sources.map((s) => s.offer.row.id))].slice(0, 2),
    publicUrl: opts.publicUrl ?? 'http://localhost:3000',
  });

  // Statistics for the planner: the tables were filled in bulk, and PGlite has no autovacuum to
  // notice (without them a big publisher's leads by payout read every one of their rows).
  progress('Statistics for the query planner...');
  await db.execute(sql`analyze`);

  const { admin, audits } = plan;
  const { applications, questionnaires, ioCount } = apps;
  const tally = <K extends string>(keys: readonly K[], values: readonly (string | undefined)[]) =>
    Object.fromEntries(keys.map((k) => [k, values.filter((v) => v === k).length])) as Record<
      K,
      number
    >;
  const pending = publishers.find((p) => p.row.email === DEMO_ACCOUNTS.pending)!;
  return {
    accounts: [
      { what: 'Admin', role: 'admin', status: 'active', email: admin.email },
      {
        what: `Approved publisher (${featuredPublisher.row.name})`,
        role: 'publisher',
        status: 'approved',
        email: featuredPublisher.row.email,
      },
      {
        what: `Pending publisher (${pending.row.name})`,
        role: 'publisher',
        status: 'pending',
        email: pending.row.email,
      },
      {
        what: `Buyer (${buyerRows[0]!.name})`,
        role: 'buyer',
        status: 'active',
        email: buyerRows[0]!.email,
      },
      {
        what: 'Blocked publisher (sign-in refused)',
        role: 'publisher',
        status: 'blocked',
        email: DEMO_ACCOUNTS.blocked,
      },
    ],
    publishers: tally(
      ['pending', 'approved', 'active', 'blocked'],
      publishers.map((p) => p.row.status),
    ),
    buyers: tally(
      ['active', 'blocked'],
      buyerRows.map((b) => b.status),
    ),
    offers: tally(
      ['active', 'inactive'],
      plannedOffers.map((o) => o.row.status),
    ),
    verticals: new Set(plannedOffers.map((o) => o.spec.vertical)).size,
    applications: tally(
      ['draft', 'pending', 'approved', 'rejected'],
      applications.map((a) => a.status),
    ),
    applicationsWithIo: ioCount,
    complianceSubmissions: questionnaires.length,
    agreements,
    leads: (() => {
      const byHand = tally(
        ['approved', 'pending', 'rejected'],
        leadRows.map((l) => l.status),
      );
      return {
        approved: byHand.approved + tracker.leads.approved,
        pending: byHand.pending + tracker.leads.pending,
        rejected: byHand.rejected + tracker.leads.rejected,
      };
    })(),
    payouts: {
      count: payoutRows.length,
      total: payoutRows.reduce((s, p) => s + Math.round(Number(p.amount) * 100), 0) / 100,
    },
    campaigns: campaignRows.length,
    buyerBilling,
    auditEntries: audits.length,
    files: { count: stored.length, bytes },
    integration: tracker,
  };
}

/** What every section of the plan shares: the dice, the clock, the admin and what is collected. */
type Plan = {
  rand: Random;
  now: number;
  network: string;
  passwordHash: string;
  /** A date no later than now. */
  at: (t: number) => Date;
  /** A random date between a and b (no later than now). */
  between: (a: number, b: number) => Date;
  admin: UserRow;
  /** Files to store before the rows that point at them are inserted. */
  files: PendingFile[];
  audits: AuditRow[];
  /** Records an audit entry by the admin. */
  audit: (
    when: Date,
    action: string,
    entityType: string,
    entityId: string,
    before: unknown,
    after: unknown,
  ) => void;
};

/** The admin account, the dice and the clock every section of the plan uses. */
function startPlan(o: { seed: number; now: number; network: string; passwordHash: string }): Plan {
  const { now, passwordHash } = o;
  const rand = createRandom(o.seed);
  const at = (t: number) => new Date(Math.min(Math.round(t), now));
  const between = (a: number, b: number) => at(a + rand.next() * Math.max(0, b - a));
  const audits: AuditRow[] = [];
  const admin: UserRow = {
    id: randomUUID(),
    email: DEMO_ACCOUNTS.admin,
    passwordHash,
    role: 'admin',
    status: 'active',
    name: 'Alex Morgan',
    emailConfirmedAt: new Date(now - 420 * DAY),
    createdAt: new Date(now - 420 * DAY),
    updatedAt: new Date(now - 420 * DAY),
    lastSignInAt: new Date(now - 2 * HOUR),
    userMetadata: { email_verified: true },
  };
  const audit: Plan['audit'] = (when, action, entityType, entityId, before, after) => {
    audits.push({
      actorId: admin.id,
      actorEmail: admin.email,
      action,
      entityType,
      entityId,
      before,
      after,
      createdAt: when,
    });
  };
  return {
    rand,
    now,
    network: o.network,
    passwordHash,
    at,
    between,
    admin,
    files: [],
    audits,
    audit,
  };
}

/** The offers in several verticals, some deactivated, with their audit entries. */
function planOffers(plan: Plan): PlannedOffer[] {
  const { rand, now, audit } = plan;
  return OFFERS.map((spec, i) => {
    // Two newer offers; the rest have been around for months.
    const ageDays = i === 10 || i === 14 ? rand.int(28, 50) : rand.int(110, 240);
    const createdAt = new Date(now - ageDays * DAY - rand.int(0, 8) * HOUR);
    const deactivatedAt =
      spec.status === 'inactive'
        ? new Date(now - rand.int(12, 70) * DAY - rand.int(0, 9) * HOUR)
        : null;
    const row: OfferRow = {
      id: randomUUID(),
      title: spec.title,
      vertical: spec.vertical,
      payout: money(spec.payoutCents),
      scriptInstructions: spec.script,
      // The rule the card shows and the ingestion judges by (no free text restates it).
      bufferSeconds: spec.bufferMinutes * 60,
      status: spec.status,
      createdAt,
      updatedAt: deactivatedAt ?? createdAt,
    };
    audit(createdAt, 'offer.create', 'offer', row.id, null, {
      title: row.title,
      vertical: row.vertical,
      payout: spec.payoutCents / 100,
      status: 'active',
    });
    if (deactivatedAt) {
      audit(
        deactivatedAt,
        'offer.update',
        'offer',
        row.id,
        { status: 'active' },
        { status: 'inactive' },
      );
    }
    return { row, spec, deactivatedAt };
  });
}

/** True when the offer was live at time t. */
const activeAt = (o: PlannedOffer, t: number) =>
  o.row.createdAt.getTime() <= t && (!o.deactivatedAt || t < o.deactivatedAt.getTime());

/** Publishers in every status (approved, legacy active, pending, blocked, rejected). */
function planPublishers(plan: Plan, count: number): PlannedPublisher[] {
  const { rand, now, between, audit, passwordHash } = plan;
  const nPending = Math.max(1, Math.round(count * 0.15));
  const nLegacy = Math.max(1, Math.round(count * 0.12));
  const nBlocked = Math.max(1, Math.round(count * 0.08));
  const nApproved = count - nPending - nLegacy - nBlocked;
  if (nApproved < 1) throw new DemoRefusedError('The demo needs at least 4 publishers.');
  const people = rand.shuffle(FIRST_NAMES.flatMap((f) => LAST_NAMES.map((l) => [f, l] as const)));
  const companies = rand.shuffle(COMPANY_NAMES);
  if (count > Math.min(people.length, companies.length)) {
    throw new DemoRefusedError(`The demo can make at most ${companies.length} publishers.`);
  }
  const usedPhones = new Set<string>();
  const phoneIn = (area: string) => {
    for (;;) {
      const p = `+1 (${area}) 555-01${String(rand.int(0, 99)).padStart(2, '0')}`;
      if (!usedPhones.has(p)) {
        usedPhones.add(p);
        return p;
      }
    }
  };

  type Kind = 'approved' | 'legacy' | 'pending' | 'rejected' | 'blocked';
  const kinds: Kind[] = [
    ...Array<Kind>(nApproved).fill('approved'),
    ...Array<Kind>(nLegacy).fill('legacy'),
    ...Array<Kind>(nPending).fill('pending'),
    // The first blocked publisher was blocked after months of work; others were rejected at sign-up.
    'blocked',
    ...Array<Kind>(nBlocked - 1).fill('rejected'),
  ];
  const firstOfKind = new Set<Kind>();
  return kinds.map((kind, i) => {
    const [first, last] = people[i]!;
    const name = `${first} ${last}`;
    const company = companies[i]!;
    const place = rand.pick(PLACES);
    const phone = phoneIn(place.area);
    const featured = !firstOfKind.has(kind);
    firstOfKind.add(kind);
    let email = `${first}.${last}@${companyDomain(company)}`.toLowerCase();
    if (featured && kind === 'approved') email = DEMO_ACCOUNTS.publisher;
    if (featured && kind === 'pending') email = DEMO_ACCOUNTS.pending;
    if (featured && kind === 'blocked') email = DEMO_ACCOUNTS.blocked;

    let createdAt: Date;
    let approvedAt: Date | null = null;
    let blockedAt: Date | null = null;
    if (kind === 'legacy') {
      createdAt = new Date(now - rand.int(300, 520) * DAY);
      approvedAt = new Date(createdAt.getTime() + rand.int(2, 48) * HOUR);
    } else if (kind === 'approved') {
      createdAt = new Date(
        now - (featured ? 160 : rand.int(20, 210)) * DAY - rand.int(0, 20) * HOUR,
      );
      approvedAt = new Date(createdAt.getTime() + rand.int(2, 72) * HOUR);
    } else if (kind === 'blocked') {
      createdAt = new Date(now - rand.int(130, 200) * DAY);
      approvedAt = new Date(createdAt.getTime() + rand.int(4, 60) * HOUR);
      blockedAt = new Date(now - rand.int(12, 35) * DAY - rand.int(0, 9) * HOUR);
    } else if (kind === 'rejected') {
      createdAt = new Date(now - rand.int(5, 80) * DAY);
      blockedAt = new Date(createdAt.getTime() + rand.int(3, 60) * HOUR);
    } else {
      createdAt = new Date(now - rand.int(0, 12) * DAY - rand.int(1, 20) * HOUR);
    }
    const status =
      kind === 'approved'
        ? 'approved'
        : kind === 'legacy'
          ? 'active'
          : kind === 'pending'
            ? 'pending'
            : 'blocked';
    const seenUntil = blockedAt?.getTime() ?? now;
    const address = `${rand.int(100, 9899)} ${rand.pick(STREETS)}${rand.chance(0.4) ? `, Suite ${rand.int(1, 9)}${rand.int(0, 2)}0` : ''}, ${place.city}, ${place.state} ${place.zip}`;
    const whatsapp = rand.chance(0.7) ? phone : phoneIn(place.area);
    const teams = rand.chance(0.6)
      ? email
      : `live:.cid.${rand.int(0x10000000, 0x7fffffff).toString(16)}`;
    const row: UserRow = {
      id: randomUUID(),
      email,
      passwordHash,
      role: 'publisher',
      status,
      name,
      businessLegalName: company,
      phoneNumber: phone,
      whatsappNumber: whatsapp,
      msTeamsId: teams,
      address,
      userMetadata: {
        full_legal_name: name,
        business_legal_name: company,
        address,
        phone_number: phone,
        whatsapp_number: whatsapp,
        ms_teams_id: teams,
        email_verified: true,
      },
      emailConfirmedAt: createdAt,
      createdAt,
      updatedAt: blockedAt ?? approvedAt ?? createdAt,
      lastSignInAt:
        kind === 'rejected'
          ? null
          : between(Math.max(createdAt.getTime(), seenUntil - 6 * DAY), seenUntil - HOUR),
    };
    if (kind === 'approved' || kind === 'blocked') {
      audit(
        approvedAt!,
        'publisher.approve',
        'publisher',
        row.id,
        { status: 'pending' },
        { status: 'approved' },
      );
    }
    if (kind === 'blocked') {
      audit(
        blockedAt!,
        'publisher.block',
        'publisher',
        row.id,
        { status: 'approved' },
        { status: 'blocked' },
      );
    }
    if (kind === 'rejected') {
      audit(
        blockedAt!,
        'publisher.reject',
        'publisher',
        row.id,
        { status: 'pending' },
        { status: 'blocked' },
      );
    }
    // A few big partners send most calls; the featured publisher is one of them.
    const scale = featured && kind === 'approved' ? 3.2 : 0.25 + rand.next() ** 2 * 2.6;
    return { row, company, phone, approvedAt, blockedAt, scale };
  });
}

/** Marketing agreements for most publishers who may work (always the featured one). */
function planAgreements(
  plan: Plan,
  canWork: PlannedPublisher[],
  featuredPublisher: PlannedPublisher,
): number {
  const { rand, now, between, audit, network, files } = plan;
  let agreements = 0;
  for (const p of canWork) {
    if (p !== featuredPublisher && !rand.chance(0.65)) continue;
    const start = Math.max(p.approvedAt!.getTime(), now - 300 * DAY);
    const end = p.blockedAt?.getTime() ?? now;
    const when = between(start + 6 * HOUR, Math.min(end, start + 20 * DAY));
    const lines = agreementLines({ network, publisher: p, when });
    const docx = rand.chance(0.25);
    files.push({
      bucket: 'marketing_agreements',
      owner: p.row.id,
      filename: `marketing-agreement-${slug(p.company)}.${docx ? 'docx' : 'pdf'}`,
      accept: ['pdf', 'doc', 'docx'],
      bytes: docx
        ? makeDocx({ title: 'Marketing Agreement', lines })
        : makePdf({ title: 'Marketing Agreement', lines }),
      assign: (key) => {
        p.row.marketingAgreementUrl = key;
        audit(
          when,
          'publisher.agreement',
          'publisher',
          p.row.id,
          { marketing_agreement_url: null },
          { marketing_agreement_url: key },
        );
      },
    });
    agreements++;
  }
  return agreements;
}

/**
 * Applications with their compliance submissions (real stored files), decisions and IOs: the
 * featured publisher in every state, the others on a few offers each, a review backlog and
 * drafts. Approved work becomes a source of leads.
 */
function planApplications(
  plan: Plan,
  o: { offers: PlannedOffer[]; canWork: PlannedPublisher[]; featuredPublisher: PlannedPublisher },
) {
  const { rand, now, between, audit, network, files, admin } = plan;
  const { offers: plannedOffers, canWork, featuredPublisher } = o;
  const applications: ApplicationRow[] = [];
  const questionnaires: (typeof complianceQuestionnaires.$inferInsert)[] = [];
  const sources: LeadSource[] = [];
  let ioCount = 0;
  let ioSeq = 1040;
  const mediaCache = new Map<string, Buffer>();
  const media = (type: 'mp3' | 'mp4', seconds: number, artist: string) => {
    const cacheKey = `${type}:${seconds}:${type === 'mp3' ? artist : ''}`;
    let bytes = mediaCache.get(cacheKey);
    if (!bytes) {
      bytes =
        type === 'mp3'
          ? makeMp3({ seconds, title: 'Sample call recording', artist })
          : makeMp4({ seconds });
      mediaCache.set(cacheKey, bytes);
    }
    return bytes;
  };

  type Decision = 'pending' | 'approved' | 'approved-io' | 'approved-no-io' | 'rejected' | 'auto';
  const apply = (p: PlannedPublisher, o: PlannedOffer, createdAt: Date, decision: Decision) => {
    const blockedAt = p.blockedAt?.getTime() ?? Number.POSITIVE_INFINITY;
    let status: 'pending' | 'approved' | 'rejected' = 'pending';
    let decidedAt: Date | null = null;
    if (decision !== 'pending') {
      const t = Math.min(
        createdAt.getTime() + rand.int(3, 70) * HOUR,
        blockedAt - HOUR,
        now - HOUR,
      );
      const recent = now - createdAt.getTime() < 4 * DAY;
      const decide =
        decision !== 'auto' || (t > createdAt.getTime() && !(recent && rand.chance(0.6)));
      if (decide) {
        decidedAt = new Date(Math.max(t, createdAt.getTime() + 30 * 60_000));
        status =
          decision === 'rejected' || (decision === 'auto' && rand.chance(0.2))
            ? 'rejected'
            : 'approved';
      }
    }
    // A rejection carries its reason, as the review screens ask for one (issue 16).
    const rejection =
      status === 'rejected'
        ? {
            reviewReason: 'recordings_incomplete',
            reviewNote: 'The second recording stops before the caller gives consent.',
          }
        : { reviewReason: null, reviewNote: null };
    const row: ApplicationRow = {
      id: randomUUID(),
      offerId: o.row.id,
      publisherId: p.row.id,
      status,
      ...rejection,
      createdAt,
      updatedAt: decidedAt ?? createdAt,
    };
    applications.push(row);
    if (decidedAt) {
      audit(
        decidedAt,
        status === 'approved' ? 'application.approve' : 'application.reject',
        'application',
        row.id,
        { status: 'pending' },
        status === 'rejected'
          ? { status, reason: rejection.reviewReason, note: rejection.reviewNote }
          : { status },
      );
    }

    // The compliance submission that moved the draft to pending.
    const q: typeof complianceQuestionnaires.$inferInsert = {
      id: randomUUID(),
      publisherId: p.row.id,
      offerId: o.row.id,
      applicationId: row.id,
      fileUrls: [],
      documentUrl: '',
      decision: decidedAt ? (status as 'approved' | 'rejected') : null,
      ...rejection,
      decidedAt,
      createdAt,
    };
    questionnaires.push(q);
    const nMedia = rand.weighted([
      [1, 5],
      [2, 3.5],
      [3, 1.5],
    ] as const);
    const mediaKeys: string[] = [];
    for (let m = 0; m < nMedia; m++) {
      const type = rand.chance(0.72) ? 'mp3' : 'mp4';
      const base = rand.pick(MEDIA_NAMES[type]);
      files.push({
        bucket: 'compliance-questionnaires',
        owner: p.row.id,
        filename: `${base}-${isoDate(createdAt)}${m > 0 ? `-${m + 1}` : ''}.${type}`,
        accept: ['mp3', 'mp4'],
        bytes: media(type, rand.pick([3, 5, 8]), p.company),
        assign: (key) => {
          mediaKeys[m] = key;
          q.fileUrls = mediaKeys;
        },
      });
    }
    const docx = rand.chance(0.3);
    const qLines = questionnaireLines({ rand, publisher: p, offer: o, when: createdAt });
    const title = 'Compliance Questionnaire';
    files.push({
      bucket: 'compliance-questionnaires',
      owner: p.row.id,
      filename: `compliance-questionnaire-${slug(p.company)}.${docx ? 'docx' : 'pdf'}`,
      accept: ['pdf', 'doc', 'docx'],
      bytes: docx ? makeDocx({ title, lines: qLines }) : makePdf({ title, lines: qLines }),
      assign: (key) => {
        q.documentUrl = key;
      },
    });

    if (status === 'approved' && decidedAt) {
      const wantsIo =
        decision === 'approved-io' || (decision !== 'approved-no-io' && rand.chance(0.7));
      const ioAt = decidedAt.getTime() + rand.int(2, 96) * HOUR;
      if (wantsIo && ioAt < Math.min(now, blockedAt)) {
        const number = `IO-${new Date(ioAt).getUTCFullYear()}-${ioSeq++}`;
        const ioLines = ioDocumentLines({
          network,
          number,
          publisher: p,
          offer: o,
          when: new Date(ioAt),
          admin: admin.name!,
        });
        files.push({
          bucket: 'io_documents',
          owner: p.row.id,
          filename: `${number}-${slug(o.spec.title)}.pdf`,
          accept: ['pdf', 'jpg', 'jpeg', 'png'],
          bytes: makePdf({ title: `Insertion Order ${number}`, lines: ioLines }),
          assign: (key) => {
            row.ioDocumentUrl = key;
            row.updatedAt = new Date(ioAt);
            audit(
              new Date(ioAt),
              'application.io',
              'application',
              row.id,
              { io_document_url: null },
              { io_document_url: key },
            );
          },
        });
        ioCount++;
      }
      const from = Math.max(decidedAt.getTime(), now - LEAD_WINDOW_DAYS * DAY);
      const to = Math.min(now, blockedAt, o.deactivatedAt?.getTime() ?? Number.POSITIVE_INFINITY);
      if (to - from > 6 * HOUR) {
        sources.push({
          publisher: p,
          offer: o,
          from,
          to,
          weight: p.scale * o.spec.volume * ((to - from) / DAY),
        });
      }
    }
    return row;
  };

  // The featured publisher shows every state: approved with and without IO, pending, rejected.
  {
    const p = featuredPublisher;
    const open = rand.shuffle(
      plannedOffers.filter(
        (o) => o.row.status === 'active' && o.row.createdAt.getTime() < now - 60 * DAY,
      ),
    );
    const plan: Decision[] = [
      'approved-io',
      'approved-io',
      'approved-no-io',
      'rejected',
      'pending',
    ];
    plan.forEach((decision, i) => {
      const o = open[i];
      if (!o) return;
      const createdAt =
        decision === 'pending'
          ? new Date(now - rand.int(6, 40) * HOUR)
          : between(
              Math.max(p.approvedAt!.getTime(), o.row.createdAt.getTime()) + HOUR,
              Math.max(p.approvedAt!.getTime(), o.row.createdAt.getTime()) + 20 * DAY,
            );
      apply(p, o, createdAt, decision);
    });
  }
  for (const p of canWork) {
    if (p === featuredPublisher) continue;
    const lo = p.approvedAt!.getTime() + HOUR;
    const hi = Math.min(now, p.blockedAt?.getTime() ?? now) - HOUR;
    const wanted = rand.int(2, 5);
    const chosen = new Set<PlannedOffer>();
    for (let tries = 0; chosen.size < wanted && tries < 40; tries++) {
      // Big offers attract more applications, but niche ones get some too.
      const o = rand.weighted(plannedOffers.map((x) => [x, 1 + Math.sqrt(x.spec.volume)] as const));
      if (chosen.has(o)) continue;
      // Applications cluster soon after approval (or after the offer went live), some come later.
      const from = Math.max(lo, o.row.createdAt.getTime() + rand.int(2, 120) * HOUR);
      const until = Math.min(hi, (o.deactivatedAt?.getTime() ?? hi) - HOUR);
      if (until <= from) continue;
      const t = from + (until - from) * rand.next() ** 1.8;
      if (!activeAt(o, t)) continue;
      chosen.add(o);
      apply(p, o, new Date(t), 'auto');
    }
  }
  // A review backlog for the admin (recent submissions waiting for a decision), and every
  // state present even in a tiny demo.
  const statusCount = (st: string) => applications.filter((a) => a.status === st).length;
  const active = canWork.filter((x) => !x.blockedAt);
  const wantPending = Math.max(2, Math.round(canWork.length * 0.2));
  const wantRejected = 1;
  for (let tries = 0; tries < 200; tries++) {
    const st =
      statusCount('pending') < wantPending
        ? 'pending'
        : statusCount('rejected') < wantRejected
          ? 'rejected'
          : null;
    if (!st) break;
    const p = rand.pick(active);
    const taken = new Set(
      applications.filter((a) => a.publisherId === p.row.id).map((a) => a.offerId),
    );
    const o = rand.pick(plannedOffers);
    const when = now - rand.int(2, 110) * HOUR;
    if (taken.has(o.row.id) || !activeAt(o, when) || when < p.approvedAt!.getTime()) continue;
    apply(p, o, new Date(when), st);
  }

  // Drafts: a publisher opened the compliance dialog moments ago and has not submitted yet.
  const nDrafts = Math.max(1, Math.round(canWork.length * 0.06));
  for (let d = 0, tries = 0; d < nDrafts && tries < 50; tries++) {
    const p = rand.pick(canWork.filter((x) => !x.blockedAt));
    const taken = new Set(
      applications.filter((a) => a.publisherId === p.row.id).map((a) => a.offerId),
    );
    const o = rand.pick(plannedOffers.filter((x) => x.row.status === 'active'));
    if (taken.has(o.row.id)) continue;
    const createdAt = new Date(now - rand.int(5, 240) * 60_000);
    applications.push({
      id: randomUUID(),
      offerId: o.row.id,
      publisherId: p.row.id,
      status: 'draft',
      createdAt,
      updatedAt: createdAt,
    });
    d++;
  }
  return { applications, questionnaires, sources, ioCount };
}

/** Leads over the last days, weighted by the sources, newest statuses still pending. */
function planLeads(plan: Plan, sources: LeadSource[], count: number) {
  const { rand, now } = plan;
  const leadRows: (typeof leads.$inferInsert)[] = [];
  const approvedCents = new Map<string, { t: number; cents: number; id: string }[]>();
  if (sources.length > 0) {
    const weighted = sources.map((s) => [s, s.weight] as const);
    for (let i = 0; i < count; i++) {
      const s = rand.weighted(weighted);
      const t = leadTime(rand, s.from, s.to, now);
      const age = now - t;
      const status = rand.weighted(
        age < 3 * DAY
          ? ([
              ['pending', 70],
              ['approved', 25],
              ['rejected', 5],
            ] as const)
          : age < 10 * DAY
            ? ([
                ['pending', 18],
                ['approved', 72],
                ['rejected', 10],
              ] as const)
            : ([
                ['approved', 86],
                ['rejected', 12],
                ['pending', 2],
              ] as const),
      );
      const spec = s.offer.spec;
      const natural = Math.round(
        spec.typicalMinutes * Math.exp((rand.next() + rand.next() + rand.next() - 1.5) * 0.9),
      );
      const duration =
        status === 'approved'
          ? Math.max(spec.bufferMinutes, natural)
          : status === 'rejected' && rand.chance(0.7)
            ? rand.int(0, Math.max(0, spec.bufferMinutes - 1))
            : Math.max(0, natural);
      // A rejected call earns nothing, so totals and earnings stay honest.
      const cents = status === 'rejected' ? 0 : spec.payoutCents;
      const leadId = randomUUID();
      leadRows.push({
        id: leadId,
        publisherId: s.publisher.row.id,
        offerId: s.offer.row.id,
        payout: money(cents),
        status,
        ...(status === 'rejected' && rejectionOf(duration, spec.bufferMinutes)),
        callDuration: duration,
        timestamp: new Date(t),
        createdAt: new Date(Math.min(now, t + rand.int(1, 30) * 60_000)),
      });
      if (status === 'approved') {
        const list = approvedCents.get(s.publisher.row.id) ?? [];
        list.push({ t, cents, id: leadId });
        approvedCents.set(s.publisher.row.id, list);
      }
    }
  }
  leadRows.sort((a, b) => a.timestamp!.getTime() - b.timestamp!.getTime());
  return { leadRows, approvedCents };
}

/**
 * Why a demo call was rejected, as the ingestion words it: under the offer's buffer (the rule),
 * or refused by the network after review.
 */
function rejectionOf(minutes: number, bufferMinutes: number) {
  return minutes < bufferMinutes
    ? {
        statusReason: `Duration ${minutes * 60} s under the ${bufferMinutes * 60} s buffer`,
        ruleOutcome: 'short' as const,
      }
    : { statusReason: 'Rejected after review: the caller did not qualify for the offer.' };
}

/** Semi-monthly payouts of the approved earnings, with their audit entries. */
function planPayouts(
  plan: Plan,
  canWork: PlannedPublisher[],
  approvedCents: Map<string, { t: number; cents: number; id: string }[]>,
) {
  const { rand, now, audit, admin } = plan;
  // Semi-monthly, net 15: the 1st-15th is paid on the 1st of the next month, the rest on the 16th.
  const payoutRows: (typeof payouts.$inferInsert)[] = [];
  // Issue 14: each payout pays the leads of its period; payouts of one pay day form one run.
  const links: PayoutLink[] = [];
  for (const p of canWork) {
    const earned = approvedCents.get(p.row.id);
    if (!earned) continue;
    const byPeriod = new Map<
      string,
      { start: Date; end: Date; pay: Date; cents: number; leads: { id: string; cents: number }[] }
    >();
    for (const e of earned) {
      const d = new Date(e.t);
      const y = d.getUTCFullYear();
      const m = d.getUTCMonth();
      const firstHalf = d.getUTCDate() <= 15;
      const start = new Date(Date.UTC(y, m, firstHalf ? 1 : 16));
      const end = firstHalf ? new Date(Date.UTC(y, m, 15)) : new Date(Date.UTC(y, m + 1, 0));
      const pay = new Date(Date.UTC(y, m + 1, firstHalf ? 1 : 16, 15, rand.int(0, 59)));
      const k = isoDate(start);
      const period = byPeriod.get(k) ?? { start, end, pay, cents: 0, leads: [] };
      period.cents += e.cents;
      period.leads.push({ id: e.id, cents: e.cents });
      byPeriod.set(k, period);
    }
    for (const period of byPeriod.values()) {
      const t = period.pay.getTime();
      if (t > now || t >= (p.blockedAt?.getTime() ?? Number.POSITIVE_INFINITY) || period.cents <= 0)
        continue;
      const method = rand.pick(PAYOUT_METHODS);
      const row: typeof payouts.$inferInsert = {
        id: randomUUID(),
        publisherId: p.row.id,
        amount: money(period.cents),
        notes: `Net-15 payout for ${dayLabel(period.start).replace(/, \d{4}$/, '')} - ${dayLabel(period.end)}, ${method} ref ${rand.int(100000, 999999)}`,
        date: period.pay,
        createdBy: admin.id,
      };
      payoutRows.push(row);
      links.push({
        payoutId: row.id!,
        publisherId: p.row.id,
        cents: period.cents,
        pay: period.pay,
        periodFrom: isoDate(period.start),
        periodTo: isoDate(period.end),
        reference: `${method} ${row.notes!.split(' ref ')[1]}`,
        leads: period.leads,
      });
      audit(period.pay, 'payout.create', 'payout', row.id!, null, {
        publisher_id: p.row.id,
        amount: period.cents / 100,
        notes: row.notes,
      });
    }
  }
  // Statement numbers (issue 27): per publisher and year, in the order the payouts were made.
  const seqs = new Map<string, number>();
  for (const row of [...payoutRows].sort((a, b) => a.date!.getTime() - b.date!.getTime())) {
    const year = row.date!.getUTCFullYear();
    const k = `${row.publisherId}:${year}`;
    const seq = (seqs.get(k) ?? 0) + 1;
    seqs.set(k, seq);
    row.statementYear = year;
    row.statementSeq = seq;
  }
  return { payoutRows, links };
}

type PayoutLink = {
  payoutId: string;
  publisherId: string;
  cents: number;
  pay: Date;
  periodFrom: string;
  periodTo: string;
  reference: string;
  leads: { id: string; cents: number }[];
};

/**
 * The demo's payouts as the ledger keeps them (issue 14): the payouts of one pay day are one
 * paid run, each payout's lines are the approved leads of its period (so its amount is their
 * sum), and the approved publishers have payment details. Owed = earned − paid then holds for
 * every publisher, and what is owed is exactly the leads no run has paid yet.
 */
async function linkPayouts(db: Db, plan: Plan, links: PayoutLink[], canWork: PlannedPublisher[]) {
  await db.transaction(async (tx) => {
    const byDay = groupRows(
      links,
      (l) => l.pay.toISOString().slice(0, 10),
      (l) => l,
    );
    for (const [day, group] of [...byDay].sort(([a], [b]) => a.localeCompare(b))) {
      const runId = randomUUID();
      const pay = new Date(Math.min(...group.map((l) => l.pay.getTime())));
      await tx.insert(payoutRuns).values({
        id: runId,
        kind: 'run',
        status: 'paid',
        periodFrom: group[0]!.periodFrom,
        periodTo: group[0]!.periodTo,
        total: money(group.reduce((s, l) => s + l.cents, 0)),
        payouts: group.length,
        reference: `NET15-${day}`,
        note: `Net-15 run of ${day}`,
        createdBy: plan.admin.id,
        createdAt: pay,
        paidAt: pay,
      });
      for (const l of group) {
        await tx
          .update(payouts)
          .set({
            runId,
            status: 'paid',
            reference: l.reference,
            periodFrom: l.periodFrom,
            periodTo: l.periodTo,
          })
          .where(eq(payouts.id, l.payoutId));
        await insertChunks(
          tx,
          payoutLines,
          l.leads.map((lead) => ({
            payoutId: l.payoutId,
            publisherId: l.publisherId,
            kind: 'lead',
            leadId: lead.id,
            seq: 1,
            amount: money(lead.cents),
          })),
        );
      }
    }
    const methods = ['bank_transfer', 'paypal', 'wise', 'bank_transfer', 'check'] as const;
    // Most forms approved, one waiting for review, one never sent: the first run holds some.
    const taxes = ['approved', 'approved', 'submitted', 'approved', 'not_submitted'] as const;
    // Real-looking ABA routing numbers (their check digit holds) for the ACH file.
    const routing = ['021000021', '011000138', '121000358', '026009593', '122105155'];
    await insertChunks(
      tx,
      paymentDetails,
      canWork.map((p, i) => {
        const method = methods[i % methods.length]!;
        const bank = method === 'bank_transfer';
        return {
          publisherId: p.row.id,
          method,
          holderName: p.row.businessLegalName ?? p.row.name ?? p.row.email,
          account:
            method === 'paypal' || method === 'wise'
              ? p.row.email
              : method === 'check'
                ? `Mail to: ${p.row.address ?? 'office address'}`
                : String(4_000_000_000 + i * 7919),
          routingNumber: bank ? routing[i % routing.length]! : null,
          accountType: bank ? (i % 2 ? ('savings' as const) : ('checking' as const)) : null,
          taxFormStatus: taxes[i % taxes.length]!,
          taxFormReviewedAt: taxes[i % taxes.length] === 'approved' ? new Date(plan.now) : null,
        };
      }),
    );
    await tx.execute(sql`
      insert into statement_counters (publisher_id, year, last)
      select publisher_id, statement_year, max(statement_seq) from payouts
      where statement_year is not null group by 1, 2
      on conflict (publisher_id, year) do update set last = greatest(statement_counters.last, excluded.last)`);
  });
}

/** Buyers (the last one blocked) with their campaigns. */
function planBuyers(plan: Plan, count: number) {
  const { rand, now, at, between, audit, passwordHash } = plan;
  const buyerSpecs = [
    ...BUYERS.slice(0, Math.min(count, BUYERS.length) - 1),
    BUYERS[BUYERS.length - 1]!,
  ];
  const buyerRows: UserRow[] = [];
  const campaignRows: (typeof campaigns.$inferInsert)[] = [];
  buyerSpecs.forEach((b, i) => {
    const blocked = i === buyerSpecs.length - 1;
    const createdAt = new Date(
      now - (i === 0 ? 140 : rand.int(25, 200)) * DAY - rand.int(0, 20) * HOUR,
    );
    const [first, last] = b.name.toLowerCase().split(' ');
    const row: UserRow = {
      id: randomUUID(),
      email: i === 0 ? DEMO_ACCOUNTS.buyer : `${first}.${last}@${companyDomain(b.company)}`,
      passwordHash,
      role: 'buyer',
      status: blocked ? 'blocked' : 'active',
      name: b.name,
      businessLegalName: b.company,
      userMetadata: {
        full_name: b.name,
        company_name: b.company,
        role: 'buyer',
        email_verified: true,
      },
      emailConfirmedAt: new Date(createdAt.getTime() + rand.int(2, 50) * 60_000),
      confirmationSentAt: createdAt,
      createdAt,
      updatedAt: createdAt,
      lastSignInAt: between(now - 9 * DAY, now - HOUR),
    };
    buyerRows.push(row);
    let lastCampaign = createdAt.getTime() + rand.int(1, 72) * HOUR;
    for (const c of b.campaigns) {
      const created = at(lastCampaign);
      lastCampaign += rand.int(3, 30) * DAY;
      const dated = rand.chance(0.88);
      const start = new Date(created.getTime() + rand.int(0, 14) * DAY);
      const end = new Date(start.getTime() + rand.int(30, 120) * DAY);
      campaignRows.push({
        id: randomUUID(),
        buyerId: row.id,
        name: c.name,
        goal: c.goal,
        targetAudience: c.target,
        location: c.location,
        budget: c.budget === null ? null : money(c.budget * 100),
        startDate: dated ? isoDate(start) : null,
        endDate: dated && rand.chance(0.8) ? isoDate(end) : null,
        createdAt: created,
      });
    }
    if (blocked) {
      const when = between(createdAt.getTime() + 10 * DAY, now - 3 * DAY);
      row.updatedAt = when;
      row.lastSignInAt = new Date(when.getTime() - rand.int(2, 48) * HOUR);
      audit(when, 'buyer.block', 'buyer', row.id, { status: 'active' }, { status: 'blocked' });
    }
  });
  return { buyerRows, campaignRows };
}

/**
 * Stores every planned file, then writes all rows but the leads in one transaction; when that
 * fails, the stored files are removed again.
 */
async function storeFilesAndInsert(
  db: Db,
  storage: Storage,
  plan: Plan,
  progress: (line: string) => void,
  rows: {
    users: UserRow[];
    offers: OfferRow[];
    applications: ApplicationRow[];
    questionnaires: (typeof complianceQuestionnaires.$inferInsert)[];
    payouts: (typeof payouts.$inferInsert)[];
    campaigns: (typeof campaigns.$inferInsert)[];
  },
): Promise<{ stored: string[]; bytes: number }> {
  const { files, audits } = plan;
  const stored: string[] = [];
  let bytes = 0;
  try {
    for (const f of files) {
      const put = await storage.putFile({
        bucket: f.bucket,
        owner: f.owner,
        filename: f.filename,
        stream: Readable.from([f.bytes]),
        accept: f.accept,
      });
      stored.push(put.key);
      bytes += put.size;
      f.assign(put.key);
    }

    // All rows but the leads in one transaction.
    progress('Writing accounts, offers, applications, payouts, campaigns and the audit trail...');
    audits.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    await db.transaction(async (tx) => {
      await insertChunks(tx, users, rows.users);
      await insertChunks(tx, offers, rows.offers);
      await insertChunks(tx, offerApplications, rows.applications);
      await insertChunks(tx, complianceQuestionnaires, rows.questionnaires);
      await insertChunks(tx, payouts, rows.payouts);
      await insertChunks(tx, campaigns, rows.campaigns);
      await insertChunks(tx, auditLog, audits);
    });
  } catch (err) {
    // Nothing points at the files now: take them away again.
    await Promise.allSettled(stored.map((k) => storage.delete(k)));
    throw err;
  }
  return { stored, bytes };
}

/** The leads in batches of LEAD_BATCH, one transaction each, reporting progress. */
async function insertLeads(
  db: Db,
  leadRows: (typeof leads.$inferInsert)[],
  progress: (line: string) => void,
): Promise<void> {
  for (let i = 0; i < leadRows.length; i += LEAD_BATCH) {
    const batch = leadRows.slice(i, i + LEAD_BATCH);
    await db.transaction(async (tx) => {
      await tx.insert(leads).values(batch);
    });
    progress(
      `Leads: ${Math.min(i + LEAD_BATCH, leadRows.length).toLocaleString('en-US')} of ${leadRows.length.toLocaleString('en-US')}`,
    );
  }
}

/** Inserts rows in chunks small enough for any driver's parameter limit. */
async function insertChunks(
  tx: Parameters<Parameters<Db['transaction']>[0]>[0],
  table: Parameters<Db['insert']>[0],
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 400) {
    await tx.insert(table).values(rows.slice(i, i + 400) as never);
  }
}

// Calls follow US business hours (Eastern, UTC-5) and are fewer at weekends; volume grows a little
// over the 90 days, as a healthy network's would.
const HOUR_WEIGHTS = [
  [8, 2],
  [9, 6],
  [10, 9],
  [11, 10],
  [12, 8],
  [13, 9],
  [14, 10],
  [15, 9],
  [16, 8],
  [17, 6],
  [18, 4],
  [19, 3],
  [20, 2],
] as const;

function leadTime(rand: Random, from: number, to: number, now: number): number {
  for (let tries = 0; tries < 40; tries++) {
    const t = from + rand.next() * (to - from);
    const day = new Date(t);
    const recency = 1 - Math.min(1, (now - t) / (LEAD_WINDOW_DAYS * DAY));
    const dow = day.getUTCDay();
    const weekday = dow === 0 ? 0.35 : dow === 6 ? 0.55 : 1;
    if (rand.next() > (0.75 + 0.25 * recency) * weekday) continue;
    const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
    const ts = midnight + (rand.weighted(HOUR_WEIGHTS) + 5) * HOUR + rand.int(0, 3599) * 1000;
    if (ts >= from && ts <= to) return ts;
  }
  return from + rand.next() * (to - from);
}

function agreementLines(o: { network: string; publisher: PlannedPublisher; when: Date }): string[] {
  const p = o.publisher;
  return [
    `This Marketing Agreement is made on ${dayLabel(o.when)} between ${o.network} ("Network") and ${p.company} ("Publisher"), ${p.row.address}.`,
    '',
    '1. Services. Publisher promotes the offers it is approved for and delivers inbound phone calls from consumers who asked to be contacted.',
    '2. Payment. Network pays for qualified calls at the payout shown for each offer, semi-monthly, net 15 days, by ACH or wire.',
    "3. Compliance. Publisher follows the TCPA, the Telemarketing Sales Rule, CMS marketing rules where they apply, and every offer's script instructions. No robocalls, no prerecorded messages, no incentivized traffic.",
    '4. Recordings. Publisher keeps call recordings and consent records for at least 3 years and hands them over within 2 business days when asked.',
    "5. Term. This agreement runs for 12 months and renews itself; either party may end it with 15 days' written notice.",
    '6. Confidentiality. Payouts, buyer names and call data are confidential.',
    '',
    `For the Network: Alex Morgan, Network Operations          For the Publisher: ${p.row.name}, Owner`,
    `Publisher contact: ${p.row.email}, ${p.phone}`,
  ];
}

function questionnaireLines(o: {
  rand: Random;
  publisher: PlannedPublisher;
  offer: PlannedOffer;
  when: Date;
}): string[] {
  const { rand, publisher: p, offer } = o;
  const sources = rand.shuffle(TRAFFIC_SOURCES).slice(0, rand.int(1, 3));
  return [
    `Publisher: ${p.company} (${p.row.name})`,
    `Offer: ${offer.spec.title} - ${offer.spec.vertical}`,
    `Submitted: ${dayLabel(o.when)}`,
    '',
    `1. Traffic sources: ${sources.join('; ')}.`,
    '2. Are calls made with autodialers or prerecorded messages? No. Every call is placed by the consumer.',
    '3. Incentivized, sweepstakes or co-registration traffic? No.',
    `4. Consent language shown next to the phone number: Yes, reviewed on ${dayLabel(new Date(o.when.getTime() - rand.int(2, 20) * DAY))}.`,
    `5. Call recordings kept for: ${rand.pick(['3 years', '5 years', '3 years'])}.`,
    `6. Sub-publishers: ${rand.chance(0.7) ? 'None.' : `${rand.int(2, 4)} vetted sub-affiliates, listed in Appendix A.`}`,
    `7. States excluded: ${rand.pick(['None', 'None', 'NY, VT', 'CA', 'WA, OR'])}.`,
    `8. Script instructions read and accepted: Yes (buffer ${offer.spec.bufferMinutes} min).`,
    `9. Compliance contact: ${p.row.name}, ${p.phone}, ${p.row.email}`,
    '',
    `Attached: ${rand.int(1, 3)} sample recording(s) of live calls and creatives.`,
    `Signed: ${p.row.name}`,
  ];
}

function ioDocumentLines(o: {
  network: string;
  number: string;
  publisher: PlannedPublisher;
  offer: PlannedOffer;
  when: Date;
  admin: string;
}): string[] {
  const { publisher: p, offer } = o;
  return [
    `Insertion order ${o.number}, issued ${dayLabel(o.when)} by ${o.network}.`,
    '',
    `Publisher: ${p.company} (${p.row.name}, ${p.row.email})`,
    `Offer: ${offer.spec.title}`,
    `Vertical: ${offer.spec.vertical}`,
    `Payout per qualified call: ${usd(offer.spec.payoutCents)}`,
    `Qualifying call length (buffer): ${offer.spec.bufferMinutes} minute${offer.spec.bufferMinutes === 1 ? '' : 's'}`,
    `Daily cap: ${[25, 40, 50, 75, 100][offer.spec.volume % 5]} calls; hours Monday-Friday 9am-8pm Eastern`,
    `Start date: ${dayLabel(o.when)}`,
    'Payment terms: semi-monthly, net 15',
    '',
    'Script instructions:',
    offer.spec.script,
    '',
    `Approved by: ${o.admin}, Network Operations`,
  ];
}
