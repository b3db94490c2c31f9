import { and, count, eq, ilike, isNotNull, type SQL, sql } from 'drizzle-orm';
import {
  type IoSort,
  type PublisherDocuments,
  type PublisherIoList,
  SIGNED_URL_SECONDS,
  type SignedFile,
  type SortOrder,
} from '../../../contract/publisher.ts';
import type { DbOrTx } from '../../db/client.ts';
import { likePattern, orderBy } from '../../db/list-query.ts';
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
export async function listPublisherIos(opts: {
  db: DbOrTx;
  storage: Storage;
  publisherId: string;
  page: number;
  pageSize: number;
  q?: string;
  sort?: IoSort;
  order?: SortOrder;
}): Promise<PublisherIoList> {
  const { db, storage, publisherId, page, pageSize, sort = 'created_at', order = 'desc' } = opts;
  const filters: SQL[] = [
    eq(offerApplications.publisherId, publisherId),
    eq(offerApplications.status, 'approved'),
    isNotNull(offerApplications.ioDocumentUrl),
  ];
  if (opts.q) filters.push(ilike(offers.title, likePattern(opts.q)));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: offerApplications.id,
        offerId: offerApplications.offerId,
        title: offers.title,
        key: offerApplications.ioDocumentUrl,
        createdAt: offerApplications.createdAt,
      })
      .from(offerApplications)
      .innerJoin(offers, eq(offers.id, offerApplications.offerId))
      .where(where)
      .orderBy(...orderBy(ioSortColumns[sort], order, offerApplications.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ n: count() })
      .from(offerApplications)
      .innerJoin(offers, eq(offers.id, offerApplications.offerId))
      .where(where),
  ]);
  const now = Date.now();
  return {
    items: rows.map((r) => ({
      application_id: r.id,
      offer_id: r.offerId,
      offer_title: r.title,
      status: 'approved' as const,
      applied_at: r.createdAt.toISOString(),
      file: signFile(storage, r.key!, now),
    })),
    total: total?.n ?? 0,
    page,
    page_size: pageSize,
  };
}
