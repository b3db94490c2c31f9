import { and, asc, eq, isNull } from 'drizzle-orm';
import type {
  PostbackSettings,
  PostbackTemplates,
  PutPostbackTemplates,
  TestPostback,
  TestPostbackAnswer,
} from '../../../contract/outbound.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { offers, postbackTargets, postbackTemplates } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { AppError } from '../../errors.ts';
import { type Actor, type AdminWrite, auditTrail } from '../audit/index.ts';
import { saveSettingsSection } from '../settings/index.ts';
import { renderPostback, sampleFacts, unknownTokensOf } from './postback-template.ts';
import { type OutboundPolicy, sendOutbound, testAnswerOf } from './safe-http.ts';

/** A publisher's postback templates: their own (Profile → Postbacks) and the admin's per offer. */

const auditPostbacks = auditTrail('publisher', 'postbacks');
const badRequest = (message: string) => new AppError('validation_failed', message, { status: 400 });

/** The templates (offer-specific ones with `offer_id`), the pause, the passable tags. */
export async function getPostbacks(opts: {
  db: DbOrTx;
  publisherId: string;
}): Promise<PostbackTemplates> {
  const rows = await opts.db
    .select({
      event: postbackTemplates.event,
      method: postbackTemplates.method,
      url: postbackTemplates.url,
      body: postbackTemplates.body,
      offerId: postbackTemplates.offerId,
      offerTitle: offers.title,
    })
    .from(postbackTemplates)
    .leftJoin(offers, eq(offers.id, postbackTemplates.offerId))
    .where(eq(postbackTemplates.publisherId, opts.publisherId))
    .orderBy(asc(offers.title), asc(postbackTemplates.offerId), asc(postbackTemplates.event));
  const [target] = await opts.db
    .select()
    .from(postbackTargets)
    .where(eq(postbackTargets.publisherId, opts.publisherId));
  const { postbackTags } = await getSettings(opts.db);
  return {
    templates: rows.map((r) => ({
      event: r.event as PostbackTemplates['templates'][number]['event'],
      method: r.method as 'GET' | 'POST',
      url: r.url,
      body: r.body,
      offer_id: r.offerId,
      offer_title: r.offerTitle,
    })),
    paused_at: target?.pausedAt?.toISOString() ?? null,
    passable_tags: postbackTags,
  };
}

/** The 400 a template's unknown token (or a tag not passable) gets, or nothing. */
function checkTokens(t: { url: string; body: string | null }, passable: readonly string[]) {
  for (const text of [t.url, t.body ?? '']) {
    const bad = unknownTokensOf(text, passable);
    if (bad) throw badRequest(bad);
  }
}

/**
 * Replaces the templates in one transaction: the publisher's own (offer_id null) when the
 * publisher saves, every one when an admin does (`actor` set, audited on the publisher). One
 * template per event (and offer). A save also resumes paused postbacks.
 */
export async function putPostbacks(opts: {
  db: Db;
  publisherId: string;
  input: PutPostbackTemplates;
  actor?: Actor;
}): Promise<PostbackTemplates> {
  const { input, publisherId, actor } = opts;
  const { postbackTags } = await getSettings(opts.db);
  const seen = new Set<string>();
  for (const t of input.templates) {
    if (!actor && t.offer_id) {
      throw badRequest('Only the network sets a postback for one offer; leave offer_id out.');
    }
    const key = `${t.event}:${t.offer_id ?? ''}`;
    if (seen.has(key)) {
      throw badRequest(
        `Two templates for ${t.event}${t.offer_id ? ' on the same offer' : ''}: keep one per event.`,
      );
    }
    seen.add(key);
    if (t.method === 'GET' && t.body) throw badRequest('A GET postback has no body; use POST.');
    checkTokens(t, postbackTags);
  }
  return opts.db.transaction(async (tx) => {
    const offerIds = [...new Set(input.templates.map((t) => t.offer_id).filter((o) => o !== null))];
    for (const offerId of offerIds) {
      const [offer] = await tx.select({ id: offers.id }).from(offers).where(eq(offers.id, offerId));
      if (!offer) throw badRequest('A template names an offer that does not exist.');
    }
    const before = actor ? await getPostbacks({ db: tx, publisherId }) : null;
    await tx
      .delete(postbackTemplates)
      .where(
        and(
          eq(postbackTemplates.publisherId, publisherId),
          actor ? undefined : isNull(postbackTemplates.offerId),
        ),
      );
    if (input.templates.length) {
      await tx.insert(postbackTemplates).values(
        input.templates.map((t) => ({
          publisherId,
          offerId: t.offer_id,
          event: t.event,
          method: t.method,
          url: t.url,
          body: t.method === 'POST' ? t.body : null,
        })),
      );
    }
    await tx
      .update(postbackTargets)
      .set({ pausedAt: null, failingSince: null })
      .where(eq(postbackTargets.publisherId, publisherId));
    const after = await getPostbacks({ db: tx, publisherId });
    if (actor) {
      await auditPostbacks(tx, actor, 'update', publisherId, {
        before: before?.templates,
        after: after.templates,
      });
    }
    return after;
  });
}

/** Fires a template with a sample call and answers what the receiver said. */
export async function testPostback(opts: {
  db: DbOrTx;
  input: TestPostback;
  policy: OutboundPolicy;
}): Promise<TestPostbackAnswer> {
  const { postbackTags, currency } = await getSettings(opts.db);
  const t = { ...opts.input, body: opts.input.method === 'POST' ? opts.input.body : null };
  checkTokens(t, postbackTags);
  const request = renderPostback(t, sampleFacts(t.event, currency), postbackTags);
  const answer = await sendOutbound(
    {
      ...request,
      headers: request.body === null ? {} : { 'content-type': 'application/json' },
    },
    opts.policy,
  );
  return testAnswerOf(request, answer);
}

export async function getPostbackSettings(opts: { db: DbOrTx }): Promise<PostbackSettings> {
  return { passable_tags: (await getSettings(opts.db)).postbackTags };
}

/** The tracker tags publishers' postbacks may pass as `{tag:name}` (audited). */
export function putPostbackSettings(opts: AdminWrite<PostbackSettings>): Promise<PostbackSettings> {
  return saveSettingsSection({
    ...opts,
    what: 'postback_tags',
    read: (tx) => getPostbackSettings({ db: tx }),
    set: { postbackTags: opts.input.passable_tags },
    after: opts.input,
  });
}
