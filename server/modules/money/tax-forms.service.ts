import { eq } from 'drizzle-orm';
import type { SetTaxFormStatus, TaxForm } from '../../../contract/money.ts';
import { SIGNED_URL_SECONDS } from '../../../contract/publisher.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { paymentDetails, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { displayName, type Storage } from '../../storage/storage.ts';
import { type AdminWrite, auditTrail } from '../audit/index.ts';
import { lockPaymentDetails, upsertPaymentDetails } from './payment-details.service.ts';

const auditTaxForm = auditTrail('publisher', 'tax_form');

/**
 * Tax forms (issue 27). A publisher uploads their W-9/W-8 as a PDF: the form becomes
 * `submitted`. Only an admin sets its status (`approved`, or back to `not_submitted` when the
 * form is unusable); the status may hold the publisher's payouts (holds.service.ts).
 */

async function formRow(db: DbOrTx, publisherId: string) {
  const [row] = await db
    .select()
    .from(paymentDetails)
    .where(eq(paymentDetails.publisherId, publisherId));
  return row;
}

export async function getTaxForm(
  db: DbOrTx,
  storage: Storage,
  publisherId: string,
): Promise<TaxForm> {
  const row = await formRow(db, publisherId);
  return {
    status: row?.taxFormStatus ?? 'not_submitted',
    file: row?.taxFormKey
      ? {
          name: row.taxFormName ?? displayName(row.taxFormKey),
          url: storage.signedUrl(row.taxFormKey, SIGNED_URL_SECONDS),
        }
      : null,
    uploaded_at: row?.taxFormUploadedAt?.toISOString() ?? null,
    reviewed_at: row?.taxFormReviewedAt?.toISOString() ?? null,
  };
}

/**
 * The publisher's upload, stored already (storeThenWrite): the form is `submitted` and waits for
 * an admin; the replaced file's key is returned so the caller removes it after the commit.
 */
export async function saveTaxForm(opts: {
  db: Db;
  publisher: { id: string; email: string };
  key: string;
}): Promise<{ replacedKey: string | null }> {
  const { publisher, key } = opts;
  return opts.db.transaction(async (tx) => {
    const before = await lockPaymentDetails(tx, publisher.id);
    const set = {
      taxFormKey: key,
      taxFormName: displayName(key),
      taxFormUploadedAt: new Date(),
      taxFormStatus: 'submitted' as const,
      taxFormReviewedAt: null,
      taxFormReviewedBy: null,
    };
    await upsertPaymentDetails(tx, publisher.id, set);
    await auditTaxForm(tx, { id: publisher.id, email: publisher.email }, 'upload', publisher.id, {
      before: before ? { status: before.taxFormStatus, file: before.taxFormName } : null,
      after: { status: 'submitted', file: set.taxFormName },
    });
    return { replacedKey: before?.taxFormKey ?? null };
  });
}

/** An admin's decision on the form: audited with the status before and after. */
export async function setTaxFormStatus(
  opts: AdminWrite<SetTaxFormStatus> & { storage: Storage; publisherId: string },
): Promise<TaxForm> {
  const { actor, publisherId, input } = opts;
  await opts.db.transaction(async (tx) => {
    const [p] = await tx.select({ role: users.role }).from(users).where(eq(users.id, publisherId));
    if (p?.role !== 'publisher') throw notFound('Publisher');
    const before = await lockPaymentDetails(tx, publisherId);
    const set = {
      taxFormStatus: input.tax_form_status,
      taxFormReviewedAt: new Date(),
      taxFormReviewedBy: actor.id,
    };
    await upsertPaymentDetails(tx, publisherId, set);
    await auditTaxForm(tx, actor, 'status', publisherId, {
      before: { tax_form_status: before?.taxFormStatus ?? 'not_submitted' },
      after: { tax_form_status: input.tax_form_status },
    });
  });
  return getTaxForm(opts.db, opts.storage, publisherId);
}
