import { and, eq, sql } from 'drizzle-orm';
import type { Campaign } from '../../../contract/buyer.ts';
import type {
  AdminCampaign,
  ApproveCampaign,
  PauseCampaign,
  RejectCampaign,
} from '../../../contract/campaigns.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { fromMoney, toMoney } from '../../db/money.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import { campaigns, offers } from '../../db/schema.ts';
import { conflict, invalidField } from '../../errors.ts';
import { type Actor, type AdminEdit, writeAudit } from '../audit/index.ts';
import { rulesColumns } from '../offers/index.ts';
import { tellBuyer } from './buyer-notify.ts';
import {
  type CampaignState,
  refuseDecision,
  refuseEnd,
  refusePause,
  refuseResume,
  type Who,
} from './campaign.policy.ts';
import {
  type CampaignRow,
  selectAdminCampaigns,
  toAdminCampaign,
  toCampaign,
} from './campaign-row.ts';

/**
 * A campaign's lifecycle (issue 31): the admin approves (offer and terms) or rejects a pending
 * campaign; the buyer or an admin pauses, resumes and ends it. Each move locks the row, checks
 * campaign.policy.ts, writes the change, the admin's audit entry and the buyer's notice in one
 * transaction.
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const stateOf = (c: CampaignRow): CampaignState => ({
  status: c.status,
  pausedBy: c.pausedBy,
  budget: c.budget === null ? null : toMoney(c.budget),
  spent: toMoney(c.spent),
  pricePerCall: c.pricePerCall === null ? null : toMoney(c.pricePerCall),
  endDate: c.endDate,
});

/** Today in the network's time zone, as the database sees it. */
async function networkToday(tx: DbOrTx): Promise<string> {
  const r = (await tx.execute(
    sql`select (now() at time zone coalesce((select timezone from settings where id = 1), 'UTC'))::date::text as d`,
  )) as unknown as { rows: { d: string }[] };
  return r.rows[0]!.d;
}

/** The campaign locked for the change; `buyerId` limits it to that buyer's own (else 404). */
async function lockCampaign(tx: Tx, id: string, buyerId?: string): Promise<CampaignRow> {
  return oneOrNotFound(
    tx
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.id, id), buyerId ? eq(campaigns.buyerId, buyerId) : undefined))
      .for('update'),
    'Campaign',
  );
}

const refuse = (message: string | null) => {
  if (message) throw conflict(message);
};

async function adminView(tx: DbOrTx, id: string): Promise<AdminCampaign> {
  const [r] = await selectAdminCampaigns(tx).where(eq(campaigns.id, id));
  const { c, ...joined } = r!;
  return toAdminCampaign(c, joined);
}

/** Writes the admin's audit entry of a campaign change. */
const audit = (tx: DbOrTx, actor: Actor, action: string, before: CampaignRow, after: CampaignRow) =>
  writeAudit(tx, {
    actor,
    action: `campaign.${action}`,
    entityType: 'campaign',
    entityId: before.id,
    before: toCampaign(before),
    after: toCampaign(after),
  });

type AdminMove<I> = AdminEdit<I> & { publicUrl: string };

/** pending → active with the offer it buys and its terms. */
export async function approveCampaign(opts: AdminMove<ApproveCampaign>): Promise<AdminCampaign> {
  const { input } = opts;
  return opts.db.transaction(async (tx) => {
    const before = await lockCampaign(tx, opts.id);
    refuse(refuseDecision(before));
    const [offer] = await tx
      .select({ id: offers.id, title: offers.title })
      .from(offers)
      .where(eq(offers.id, input.offer_id));
    if (!offer) throw invalidField('offer_id', 'The selected offer does not exist.');
    const rules = rulesColumns(input);
    const [after] = await tx
      .update(campaigns)
      .set({
        status: 'active',
        statusReason: null,
        pausedBy: null,
        pausedAt: null,
        offerId: offer.id,
        pricePerCall: fromMoney(input.price_per_call),
        bufferSeconds: rules.bufferSeconds,
        dailyCap: rules.dailyCap,
        allowedStates: rules.allowedStates,
        hoursTimeZone: rules.hoursTimeZone,
        openDays: rules.openDays,
        openFrom: rules.openFrom,
        openTo: rules.openTo,
        approvedAt: new Date(),
      })
      .where(eq(campaigns.id, opts.id))
      .returning();
    await audit(tx, opts.actor, 'approve', before, after!);
    await tellBuyer(tx, before.buyerId, {
      kind: 'campaign_approved',
      title: `Campaign approved: ${before.name}`,
      body: `Your campaign ${before.name} is active: it buys calls of ${offer.title} at ${input.price_per_call.toFixed(2)} per billable call.`,
      publicUrl: opts.publicUrl,
    });
    return adminView(tx, opts.id);
  });
}

/** pending → rejected with the reason the buyer reads. */
export async function rejectCampaign(opts: AdminMove<RejectCampaign>): Promise<AdminCampaign> {
  return opts.db.transaction(async (tx) => {
    const before = await lockCampaign(tx, opts.id);
    refuse(refuseDecision(before));
    const [after] = await tx
      .update(campaigns)
      .set({ status: 'rejected', statusReason: opts.input.reason })
      .where(eq(campaigns.id, opts.id))
      .returning();
    await audit(tx, opts.actor, 'reject', before, after!);
    await tellBuyer(tx, before.buyerId, {
      kind: 'campaign_rejected',
      title: `Campaign not approved: ${before.name}`,
      body: `Your campaign ${before.name} was not approved: ${opts.input.reason}`,
      publicUrl: opts.publicUrl,
    });
    return adminView(tx, opts.id);
  });
}

/** Who moves the campaign: the buyer (their own only) or an admin (audited). */
type Mover = { db: Db; id: string } & (
  | { who: 'buyer'; buyerId: string }
  | { who: 'admin'; actor: Actor; reason?: string | undefined }
);

async function move(
  m: Mover,
  check: (c: CampaignRow, today: string) => string | null,
  set: (c: CampaignRow) => Partial<typeof campaigns.$inferInsert>,
  action: string,
): Promise<CampaignRow> {
  return m.db.transaction(async (tx) => {
    const before = await lockCampaign(tx, m.id, m.who === 'buyer' ? m.buyerId : undefined);
    refuse(check(before, await networkToday(tx)));
    const [after] = await tx
      .update(campaigns)
      .set(set(before))
      .where(eq(campaigns.id, m.id))
      .returning();
    if (m.who === 'admin') await audit(tx, m.actor, action, before, after!);
    return after!;
  });
}

const pauseOf = (m: Mover) => ({
  status: 'paused' as const,
  pausedBy: m.who,
  pausedAt: new Date(),
  statusReason:
    m.who === 'admin'
      ? `Paused by an administrator${m.reason ? `: ${m.reason}` : '.'}`
      : 'Paused by the buyer.',
});

export const pauseCampaign = (m: Mover) =>
  move(
    m,
    (c) => refusePause(c),
    () => pauseOf(m),
    'pause',
  );

export const resumeCampaign = (m: Mover) =>
  move(
    m,
    (c, today) => refuseResume(stateOf(c), m.who as Who, today),
    () => ({ status: 'active', pausedBy: null, pausedAt: null, statusReason: null }),
    'resume',
  );

export const endCampaign = (m: Mover) =>
  move(
    m,
    (c) => refuseEnd(c),
    () => ({
      status: 'ended',
      pausedBy: null,
      statusReason: m.who === 'admin' ? 'Ended by an administrator.' : 'Ended by the buyer.',
    }),
    'end',
  );

/** The routes' answers: the buyer's view or the admin's. */
export const asBuyer = async (row: Promise<CampaignRow>): Promise<Campaign> =>
  toCampaign(await row);
export async function asAdmin(db: DbOrTx, row: Promise<CampaignRow>): Promise<AdminCampaign> {
  return adminView(db, (await row).id);
}

/** For an admin's pause, resume or end: the route's options as a Mover. */
export const adminMover = (o: AdminEdit<PauseCampaign | Record<string, never>>): Mover => ({
  db: o.db,
  id: o.id,
  who: 'admin',
  actor: o.actor,
  reason: 'reason' in o.input ? o.input.reason : undefined,
});
