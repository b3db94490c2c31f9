/**
 * The publisher and the offer a row belongs to, as answers name them (`publisherRef` and
 * `offerRef` of contract/admin-common.ts): the columns of a select that joins the publisher's
 * `users` row and the `offers` row, and the answer's fields from what it read.
 */
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { offers, users } from './schema.ts';

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
