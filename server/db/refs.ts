/**
 * The publisher and the offer a row belongs to, as answers name them (`publisherRef` and
 * `offerRef` of contract/admin-common.ts): the columns of a select that joins the publisher's
 * `users` row and the `offers` row, the answer's fields from what it read, and those joins
 * (`joinPublisherAndOffer`; `joinLeadAndOffer` for a row that belongs to a lead).
 */
import { eq } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import { leads, offers, users } from './schema.ts';

/** The row's publisher: its id column, and name and e-mail from the joined `users` row. */
export const publisherRefColumns = <C extends AnyPgColumn>(publisherId: C) => ({
  publisherId,
  publisherName: users.name,
  publisherEmail: users.email,
});
export type PublisherRefRow = {
  publisherId: string;
  publisherName: string | null;
  publisherEmail: string;
};
export const toPublisherRef = (r: PublisherRefRow) => ({
  publisher_id: r.publisherId,
  publisher_name: r.publisherName,
  publisher_email: r.publisherEmail,
});

/** The row's offer: its id column, and the title from the joined `offers` row. */
export const offerRefColumns = <C extends AnyPgColumn>(offerId: C) => ({
  offerId,
  offerTitle: offers.title,
});
export type OfferRefRow = { offerId: string; offerTitle: string };
export const toOfferRef = (r: OfferRefRow) => ({ offer_id: r.offerId, offer_title: r.offerTitle });

/**
 * Joins what publisherRefColumns and offerRefColumns read: the row's publisher's `users` row
 * and its `offers` row (a `$dynamic()` select; inner joins: both always exist).
 */
export const joinPublisherAndOffer = <Q extends PgSelect>(
  select: Q,
  publisherId: AnyPgColumn,
  offerId: AnyPgColumn,
) => select.innerJoin(users, eq(users.id, publisherId)).innerJoin(offers, eq(offers.id, offerId));

/**
 * Joins the lead a row belongs to and that lead's offer (`offers.title`, offerRefColumns of
 * `leads.offerId`), for a `$dynamic()` select of disputes or payout lines.
 */
export const joinLeadAndOffer = <Q extends PgSelect>(select: Q, leadId: AnyPgColumn) =>
  select.innerJoin(leads, eq(leads.id, leadId)).innerJoin(offers, eq(offers.id, leads.offerId));
