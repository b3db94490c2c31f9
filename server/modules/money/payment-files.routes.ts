import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../contract/money.ts';
import {
  PaymentFileList,
  PaymentFileParams,
  PaymentFileQuery,
} from '../../../contract/payment-files.ts';
import { adminDoc, errorReplies } from '../../http/route-helpers.ts';
import { routeKit } from '../../http/route-kit.ts';
import { buildRunFile, listRunFiles } from './payment-files/index.ts';

/**
 * Admin → Payouts → a run's payment files (issue 27): what each processor's file would carry,
 * and the files themselves. Registered inside the admin scope, whose onRequest hook lets
 * admins only through (others get 401/403 before anything is read).
 */
export const adminPaymentFilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = routeKit(app, adminDoc, errorReplies(400, 401, 403, 404, 409));
  admin.route(
    'GET',
    '/payout-runs/:id/files',
    { params: IdParams, reply: PaymentFileList },
    async (req) => listRunFiles(app.db, req.params.id),
  );

  admin.route(
    'GET',
    '/payout-runs/:id/files/:format',
    {
      description:
        'One payment file of the run: paypal (PayPal Payouts CSV), wise (Wise batch CSV), nacha (NACHA ACH file of the US bank transfers; needs odfi and company_id), csv (every payout). 409 names the publishers whose payment details the file cannot carry, unless skip_incomplete=true (then the X-Left-Out header names them).',
      params: PaymentFileParams,
      query: PaymentFileQuery,
    },
    async (req, reply) => {
      const file = await buildRunFile({
        db: app.db,
        runId: req.params.id,
        format: req.params.format,
        query: req.query,
      });
      reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-payment-file-count', String(file.count))
        .header('x-payment-file-total', file.total);
      if (file.leftOut.length) {
        reply
          .header('x-left-out-count', String(file.leftOut.length))
          .header(
            'x-left-out',
            encodeURIComponent(file.leftOut.map((l) => l.publisher_email).join(', ')),
          );
      }
      return reply.send(file.body);
    },
  );
};
