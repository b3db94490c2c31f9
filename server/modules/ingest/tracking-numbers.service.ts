import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type * as integrations from '../../../contract/integrations.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { ListRead } from '../../db/list-query.ts';
import {
  countAll,
  exactCount,
  likePattern,
  listPage,
  newestFirst,
  pageOf,
} from '../../db/list-query.ts';
import { joinPublisherAndOffer } from '../../db/refs.ts';
import { deleteOneOrNotFound, groupRows, onUniqueViolation } from '../../db/rows.ts';
import { offers, trackingNumbers, users } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { AppError, conflict } from '../../errors.ts';
import { decodeCsvFile, detectDelimiter, parseCsv } from '../../storage/csv-reader.ts';
import { type AdminAction, type AdminImport, type AdminWrite, auditTrail } from '../audit/index.ts';
import { toE164 } from './phone.ts';

/**
 * Tracking numbers (issue 26, item 3): the numbers a tracker's calls arrive on, each assigned to
 * one (publisher, offer) pair, so a call whose tracker sends no publisher or offer (Twilio,
 * CallRail) still belongs to someone. Kept in E.164, read in the network's phone country.
 */

/** Rows one CSV import takes (a bigger file is split by the admin). */
export const TRACKING_IMPORT_MAX_ROWS = 10_000;
/** Bytes one CSV import takes: 10,000 rows of a number, an e-mail and a title fit in 2 MB. */
export const TRACKING_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** Errors an import answers; the rest are counted in one last line. */
const MAX_IMPORT_ERRORS = 200;
/** Rows per INSERT (4 parameters each, far under PostgreSQL's 65,535). */
const INSERT_BATCH = 2_000;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A publisher as the admin knows them: name, else e-mail. */
const publisherLabel = sql<string>`coalesce(nullif(${users.name}, ''), ${users.email})`;

const selectColumns = {
  id: trackingNumbers.id,
  number: trackingNumbers.number,
  publisherId: trackingNumbers.publisherId,
  publisherName: publisherLabel,
  offerId: trackingNumbers.offerId,
  offerTitle: offers.title,
  createdAt: trackingNumbers.createdAt,
};

type Row = {
  id: string;
  number: string;
  publisherId: string;
  publisherName: string;
  offerId: string;
  offerTitle: string;
  createdAt: Date;
};

const toTrackingNumber = (r: Row): integrations.TrackingNumber => ({
  id: r.id,
  number: r.number,
  publisher_id: r.publisherId,
  publisher_name: r.publisherName,
  offer_id: r.offerId,
  offer_title: r.offerTitle,
  created_at: r.createdAt.toISOString(),
});

/** The tracking numbers with their publisher and offer, for a WHERE and ORDER of the caller. */
const selectRows = (db: DbOrTx, sortKey: SQL<string | null> = sql<null>`null`) =>
  joinPublisherAndOffer(
    db
      .select({ ...selectColumns, sortKey })
      .from(trackingNumbers)
      .$dynamic(),
    trackingNumbers.publisherId,
    trackingNumbers.offerId,
  );

/** The country a number typed without its country code is read in (Settings), read now. */
const phoneCountry = async (db: DbOrTx): Promise<string> => (await getSettings(db)).phoneCountry;

/** "+18665551234 is already assigned to Ann Lee on Solar Inbound." */
const assignedMessage = (number: string, publisher: string, offer: string) =>
  `${number} is already assigned to ${publisher} on ${offer}.`;

const notAPhoneNumber = (raw: string, country: string) =>
  `"${raw}" is not a valid phone number (read as a ${country} number when it has no country code).`;

/**
 * `q` by its digits (any format: `(866) 555-12`, `+1 866`); a search with no digits finds the
 * publisher's name or e-mail or the offer's title instead.
 */
function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const digits = q.replace(/\D/g, '');
  if (digits) return sql`${trackingNumbers.number} like ${`%${digits}%`}`;
  const pattern = likePattern(q);
  return or(
    sql`${users.name} ilike ${pattern}`,
    sql`${users.email} ilike ${pattern}`,
    sql`${offers.title} ilike ${pattern}`,
  );
}

/** Every tracking number, newest first, searched and filtered by publisher and offer. */
export async function listTrackingNumbers(
  opts: ListRead<integrations.TrackingNumberListQuery>,
): Promise<integrations.TrackingNumberList> {
  const { db, query } = opts;
  const where = and(
    searchCondition(query.q),
    query.publisher_id ? eq(trackingNumbers.publisherId, query.publisher_id) : undefined,
    query.offer_id ? eq(trackingNumbers.offerId, query.offer_id) : undefined,
  );
  return listPage({
    query,
    // Newest first only (tracking_numbers_created_idx reads it in that order).
    keyset: newestFirst(trackingNumbers),
    rows: (w) => pageOf(selectRows(db, w.sortKey), where, w),
    // Exact: a network has hundreds or a few thousand numbers, not millions.
    count: () =>
      exactCount(
        joinPublisherAndOffer(
          db.select({ n: countAll() }).from(trackingNumbers).$dynamic(),
          trackingNumbers.publisherId,
          trackingNumbers.offerId,
        ).where(where),
      ),
    toItem: toTrackingNumber,
  });
}

/** Who holds a number now (for the 409's sentence), or undefined. */
async function holderOf(db: DbOrTx, number: string): Promise<Row | undefined> {
  const [row] = await selectRows(db).where(eq(trackingNumbers.number, number));
  return row;
}

/**
 * The audit entry `tracking_number.<what>`, kept in the history of the publisher the number
 * belongs to (none for an import of many).
 */
const auditNumber = auditTrail('publisher', 'tracking_number');

/** Assigns one number to a publisher on an offer; the number is kept in E.164. */
export async function createTrackingNumber(
  opts: AdminWrite<integrations.CreateTrackingNumber>,
): Promise<integrations.TrackingNumber> {
  const { db, input } = opts;
  const country = await phoneCountry(db);
  const number = toE164(input.number, country);
  if (!number) {
    const message = notAPhoneNumber(input.number.trim(), country);
    throw new AppError('validation_failed', message, { details: { number: [message] } });
  }
  const create = () =>
    db.transaction(async (tx) => {
      const [publisher] = await tx
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(eq(users.id, input.publisher_id));
      if (publisher?.role !== 'publisher') {
        const message = publisher
          ? 'The selected user is not a publisher.'
          : 'The selected publisher does not exist.';
        throw new AppError('validation_failed', message, { details: { publisher_id: [message] } });
      }
      const [offer] = await tx
        .select({ id: offers.id })
        .from(offers)
        .where(eq(offers.id, input.offer_id));
      if (!offer) {
        const message = 'The selected offer does not exist.';
        throw new AppError('validation_failed', message, { details: { offer_id: [message] } });
      }
      const held = await holderOf(tx, number);
      if (held) throw conflict(assignedMessage(number, held.publisherName, held.offerTitle));
      const [made] = await tx
        .insert(trackingNumbers)
        .values({
          number,
          publisherId: publisher.id,
          offerId: offer.id,
          createdBy: opts.actor.id,
        })
        .returning({ id: trackingNumbers.id });
      const [row] = await selectRows(tx).where(eq(trackingNumbers.id, made!.id));
      const result = toTrackingNumber(row!);
      // The publisher's history shows the numbers they were given.
      await auditNumber(tx, opts.actor, 'create', result.publisher_id, {
        before: null,
        after: {
          number: result.number,
          publisher_id: result.publisher_id,
          offer_id: result.offer_id,
        },
      });
      return result;
    });
  // Another admin assigned the same number a moment before.
  return onUniqueViolation(create, async () => {
    const held = await holderOf(db, number);
    return conflict(
      held
        ? assignedMessage(number, held.publisherName, held.offerTitle)
        : `${number} was assigned a moment ago by someone else.`,
    );
  });
}

/** Removes a number: calls to it are attributed by what the tracker sends from now on. */
export async function deleteTrackingNumber(opts: AdminAction): Promise<void> {
  await opts.db.transaction(async (tx) => {
    const gone = await deleteOneOrNotFound(tx, trackingNumbers, opts.id, 'Tracking number');
    await auditNumber(tx, opts.actor, 'delete', gone.publisherId, {
      before: { number: gone.number, publisher_id: gone.publisherId, offer_id: gone.offerId },
      after: null,
    });
  });
}

type LineError = { line: number; message: string };

/** The CSV's columns (case and spaces ignored), in any order; others are ignored. */
const IMPORT_COLUMNS = ['number', 'publisher', 'offer'] as const;

/** The header's index of each needed column, or a 400 naming what is missing. */
function importColumns(header: string[]): Record<(typeof IMPORT_COLUMNS)[number], number> {
  const names = header.map((h) => h.trim().toLowerCase());
  const missing = IMPORT_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length) {
    throw new AppError(
      'validation_failed',
      `The first line must name the columns number, publisher and offer (missing: ${missing.join(', ')}).`,
    );
  }
  return {
    number: names.indexOf('number'),
    publisher: names.indexOf('publisher'),
    offer: names.indexOf('offer'),
  };
}

/**
 * Assigns the numbers of a CSV file (`number,publisher,offer`; publisher an id or e-mail, offer an
 * id or exact title): every row or none. A file with a wrong row writes nothing and answers each
 * wrong line (line 1 is the header).
 */
export async function importTrackingNumbers(
  opts: AdminImport,
): Promise<integrations.TrackingNumberImport> {
  const { db } = opts;
  const text = decodeCsvFile(opts.data, opts.filename);
  const rows = parseCsv(text, detectDelimiter(text));
  const header = rows.shift();
  if (!header || header.every((h) => h.trim() === '')) {
    throw new AppError(
      'validation_failed',
      'The file is empty: its first line must be the header.',
    );
  }
  const col = importColumns(header);
  // Line numbers as a spreadsheet shows them: the header is line 1, blank lines count.
  const lines = rows
    .map((cells, i) => ({ line: i + 2, cells }))
    .filter((r) => r.cells.some((c) => c.trim() !== ''));
  if (lines.length === 0) {
    throw new AppError('validation_failed', 'The file has a header but no rows.');
  }
  if (lines.length > TRACKING_IMPORT_MAX_ROWS) {
    throw new AppError(
      'payload_too_large',
      `The file has ${lines.length.toLocaleString('en-US')} rows; one import takes at most ${TRACKING_IMPORT_MAX_ROWS.toLocaleString('en-US')}. Split it and import the parts one after another.`,
    );
  }

  const country = await phoneCountry(db);
  const cell = (cells: string[], i: number) => (cells[i] ?? '').trim();
  const parsed = lines.map(({ line, cells }) => ({
    line,
    raw: cell(cells, col.number),
    number: toE164(cell(cells, col.number), country),
    publisher: cell(cells, col.publisher),
    offer: cell(cells, col.offer),
  }));

  // Publishers by id or e-mail, offers by id or exact title: one query each for the whole file.
  const pubIds = new Set<string>();
  const emails = new Set<string>();
  const offerIds = new Set<string>();
  const titles = new Set<string>();
  for (const r of parsed) {
    if (uuidPattern.test(r.publisher)) pubIds.add(r.publisher.toLowerCase());
    else if (r.publisher) emails.add(r.publisher.toLowerCase());
    if (uuidPattern.test(r.offer)) offerIds.add(r.offer.toLowerCase());
    else if (r.offer) titles.add(r.offer);
  }
  const publishers =
    pubIds.size || emails.size
      ? await db
          .select({ id: users.id, email: users.email, name: publisherLabel })
          .from(users)
          .where(
            and(
              eq(users.role, 'publisher'),
              or(
                pubIds.size ? inArray(users.id, [...pubIds]) : undefined,
                emails.size ? inArray(sql`lower(${users.email})`, [...emails]) : undefined,
              ),
            ),
          )
      : [];
  const pubByKey = new Map<string, (typeof publishers)[number]>();
  for (const p of publishers) {
    pubByKey.set(p.id, p);
    pubByKey.set(p.email.toLowerCase(), p);
  }
  const offerRows =
    offerIds.size || titles.size
      ? await db
          .select({ id: offers.id, title: offers.title })
          .from(offers)
          .where(
            or(
              offerIds.size ? inArray(offers.id, [...offerIds]) : undefined,
              titles.size ? inArray(offers.title, [...titles]) : undefined,
            ),
          )
      : [];
  const offerById = new Map(offerRows.map((o) => [o.id, o]));
  const offersByTitle = groupRows(
    offerRows,
    (o) => o.title,
    (o) => o,
  );

  const numbers = [...new Set(parsed.flatMap((r) => (r.number ? [r.number] : [])))];
  const held = new Map<string, Row>();
  for (let i = 0; i < numbers.length; i += INSERT_BATCH) {
    const found = await selectRows(db).where(
      inArray(trackingNumbers.number, numbers.slice(i, i + INSERT_BATCH)),
    );
    for (const r of found) held.set(r.number, r);
  }

  const errors: LineError[] = [];
  const firstLineOf = new Map<string, number>();
  const values: { number: string; publisherId: string; offerId: string; createdBy: string }[] = [];
  for (const r of parsed) {
    const problems: string[] = [];
    if (!r.raw) problems.push('the number is missing');
    else if (!r.number) problems.push(notAPhoneNumber(r.raw, country));
    const publisher = r.publisher ? pubByKey.get(r.publisher.toLowerCase()) : undefined;
    if (!r.publisher) problems.push('the publisher is missing');
    else if (!publisher) problems.push(`no publisher has the id or e-mail "${r.publisher}"`);
    let offerId: string | undefined;
    if (!r.offer) problems.push('the offer is missing');
    else if (uuidPattern.test(r.offer)) {
      offerId = offerById.get(r.offer.toLowerCase())?.id;
      if (!offerId) problems.push(`no offer has the id ${r.offer}`);
    } else {
      const named = offersByTitle.get(r.offer) ?? [];
      if (named.length === 1) offerId = named[0]!.id;
      else if (named.length === 0) problems.push(`no offer is titled "${r.offer}"`);
      else problems.push(`${named.length} offers are titled "${r.offer}": use the offer's id`);
    }
    if (r.number) {
      const holder = held.get(r.number);
      const earlier = firstLineOf.get(r.number);
      if (holder) {
        problems.push(assignedMessage(r.number, holder.publisherName, holder.offerTitle));
      } else if (earlier !== undefined) {
        problems.push(`${r.number} is also on line ${earlier}`);
      } else firstLineOf.set(r.number, r.line);
    }
    if (problems.length) {
      const sentence = problems.join('; ');
      errors.push({ line: r.line, message: sentence[0]!.toUpperCase() + sentence.slice(1) });
      continue;
    }
    values.push({
      number: r.number!,
      publisherId: publisher!.id,
      offerId: offerId!,
      createdBy: opts.actor.id,
    });
  }

  if (errors.length) {
    const shown = errors.slice(0, MAX_IMPORT_ERRORS);
    const more = errors.length - shown.length;
    if (more > 0) {
      shown.push({
        line: errors[MAX_IMPORT_ERRORS]!.line,
        message: `…and ${more.toLocaleString('en-US')} more line${more === 1 ? '' : 's'} with errors from here on.`,
      });
    }
    return { created: 0, errors: shown };
  }

  const insert = () =>
    db.transaction(async (tx) => {
      for (let i = 0; i < values.length; i += INSERT_BATCH) {
        await tx.insert(trackingNumbers).values(values.slice(i, i + INSERT_BATCH));
      }
      await auditNumber(tx, opts.actor, 'import', null, {
        before: null,
        after: {
          filename: opts.filename.slice(0, 255),
          created: values.length,
          numbers: values.map((v) => v.number),
        },
      });
    });
  await onUniqueViolation(insert, () =>
    conflict(
      'Some of these numbers were assigned by someone else while the file was read. Nothing was imported: upload the file again to see which.',
    ),
  );
  return { created: values.length, errors: [] };
}
