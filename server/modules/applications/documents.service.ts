import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type PublisherDocuments,
  type PublisherIoList,
  type PublisherIosQuery,
  SIGNED_URL_SECONDS,
  type SignedFile,
} from '../../../contract/publisher.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { ListRead } from '../../db/list-query.ts';
import {
  countAll,
  exactCount,
  keysetOf,
  listPage,
  pageOf,
  searchAny,
} from '../../db/list-query.ts';
import { offerApplications, offers, users } from '../../db/schema.ts';
import { displayName, type Storage } from '../../storage/storage.ts';

/** A signed, expiring URL for a private file the caller has already been allowed to read. */
export function signFile(storage: Storage, key: string, now = Date.now()): SignedFile {
  return {
    file_name: displayName(key),
    url: storage.signedUrl(key, SIGNED_URL_SECONDS),
    expires_at: new Date(now + SIGNED_URL_SECONDS * 1000).toISOString(),
  };
}

/** The publisher's own marketing agreement as a signed URL, or null when none was uploaded. */
export async function getPublisherDocuments(opts: {
  db: DbOrTx;
  storage: Storage;
  publisherId: string;
}): Promise<PublisherDocuments> {
  const [row] = await opts.db
    .select({ key: users.marketingAgreementUrl })
    .from(users)
    .where(eq(users.id, opts.publisherId));
  return { agreement: row?.key ? signFile(opts.storage, row.key) : null };
}

const ioSortColumns = {
  created_at: offerApplications.createdAt,
  offer: sql`lower(${offers.title})`,
} as const;

/**
 * IOs of the publisher's own approved applications as signed URLs, searched by offer title,
 * newest application first unless sorted otherwise.
 */
export function listPublisherIos(
  opts: ListRead<z.output<typeof PublisherIosQuery>> & { storage: Storage; publisherId: string },
): Promise<PublisherIoList> {
  const { db, storage, publisherId, query } = opts;
  const where = and(
    eq(offerApplications.publisherId, publisherId),
    eq(offerApplications.status, 'approved'),
    isNotNull(offerApplications.ioDocumentUrl),
    searchAny(query.q, offers.title),
  );
  const now = Date.now();
  return listPage({
    query,
    keyset: keysetOf(ioSortColumns, query, offerApplications.id),
    rows: (w) =>
      pageOf(
        db
          .select({
            sortKey: w.sortKey,
            id: offerApplications.id,
            offerId: offerApplications.offerId,
            title: offers.title,
            key: offerApplications.ioDocumentUrl,
            createdAt: offerApplications.createdAt,
          })
          .from(offerApplications)
          .innerJoin(offers, eq(offers.id, offerApplications.offerId))
          .$dynamic(),
        where,
        w,
      ),
    // Exact total: one publisher's approved IOs are a handful.
    count: () =>
      exactCount(
        db
          .select({ n: countAll() })
          .from(offerApplications)
          .innerJoin(offers, eq(offers.id, offerApplications.offerId))
          .where(where),
      ),
    toItem: (r) => ({
      application_id: r.id,
      offer_id: r.offerId,
      offer_title: r.title,
      status: 'approved' as const,
      applied_at: r.createdAt.toISOString(),
      file: signFile(storage, r.key!, now),
    }),
  });
}
