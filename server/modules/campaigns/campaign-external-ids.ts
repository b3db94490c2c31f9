import { and, eq, inArray } from 'drizzle-orm';
import type { CampaignExternalIds, PutCampaignExternalIds } from '../../../contract/campaigns.ts';
import type { DbOrTx } from '../../db/client.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import { campaigns, integrationExternalIds, integrations } from '../../db/schema.ts';
import { invalidField } from '../../errors.ts';
import { type AdminEdit, writeAudit } from '../audit/index.ts';
import { pointExternalId } from '../ingest/index.ts';

/**
 * A campaign's tracker ids (issue 31): the ids a tracker sends for a buyer or target, kept in
 * integration_external_ids (kind `campaign`) beside the publishers' and offers', so the
 * leads_campaign_bill trigger finds them as ingest_call finds the others: on an integration of
 * the call's tracker account. PUT replaces the whole set; an id attached to another campaign on
 * the same integration moves here.
 */

const byCampaign = (campaignId: string) =>
  and(
    eq(integrationExternalIds.kind, 'campaign'),
    eq(integrationExternalIds.campaignId, campaignId),
  );

async function readIds(db: DbOrTx, campaignId: string): Promise<CampaignExternalIds> {
  const rows = await db
    .select({
      integrationId: integrationExternalIds.integrationId,
      externalId: integrationExternalIds.externalId,
      integrationName: integrations.name,
      createdAt: integrationExternalIds.createdAt,
    })
    .from(integrationExternalIds)
    .innerJoin(integrations, eq(integrations.id, integrationExternalIds.integrationId))
    .where(byCampaign(campaignId))
    .orderBy(integrations.name, integrationExternalIds.externalId);
  return {
    external_ids: rows.map((r) => ({
      integration_id: r.integrationId,
      external_id: r.externalId,
      integration_name: r.integrationName,
      created_at: r.createdAt.toISOString(),
    })),
  };
}

export async function putCampaignExternalIds(
  opts: AdminEdit<PutCampaignExternalIds>,
): Promise<CampaignExternalIds> {
  const wanted = opts.input.external_ids;
  return opts.db.transaction(async (tx) => {
    await oneOrNotFound(
      tx
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(eq(campaigns.id, opts.id))
        .for('update'),
      'Campaign',
    );
    const integrationIds = [...new Set(wanted.map((w) => w.integration_id))];
    if (integrationIds.length) {
      const found = await tx
        .select({ id: integrations.id })
        .from(integrations)
        .where(inArray(integrations.id, integrationIds));
      if (found.length !== integrationIds.length) {
        throw invalidField('external_ids', 'One of the selected integrations does not exist.');
      }
    }
    const before = await readIds(tx, opts.id);
    await tx.delete(integrationExternalIds).where(byCampaign(opts.id));
    for (const w of wanted) {
      await pointExternalId(
        tx,
        { integrationId: w.integration_id, kind: 'campaign', externalId: w.external_id },
        { campaignId: opts.id },
      );
    }
    const after = await readIds(tx, opts.id);
    await writeAudit(tx, {
      actor: opts.actor,
      action: 'campaign.external_ids',
      entityType: 'campaign',
      entityId: opts.id,
      before: before.external_ids.map(({ integration_id, external_id }) => ({
        integration_id,
        external_id,
      })),
      after: after.external_ids.map(({ integration_id, external_id }) => ({
        integration_id,
        external_id,
      })),
    });
    return after;
  });
}
