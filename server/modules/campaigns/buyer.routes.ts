import type { FastifyError } from 'fastify';
import {
  type FastifyPluginAsyncZod,
  hasZodFastifySchemaValidationErrors,
} from 'fastify-type-provider-zod';
import { IdParams } from '../../../contract/admin-common.ts';
import {
  Campaign,
  CampaignList,
  CampaignListQuery,
  CreateCampaignBody,
  UpdateCampaignBody,
} from '../../../contract/buyer.ts';
import { currentUser, requireRole } from '../../auth/guard.ts';
import { errorHandler, sendError } from '../../http/error-handler.ts';
import { respondIdempotently } from '../../http/idempotency.ts';
import { bearerDoc, errorReplies } from '../../http/route-helpers.ts';
import { routeKit } from '../../http/route-kit.ts';
import { buyerBillingRoutes } from '../billing/index.ts';
import { buyerCallsRoutes } from './buyer-calls.routes.ts';
import { createCampaign, listCampaigns, updateCampaign } from './buyer-campaigns.service.ts';
import { asBuyer, endCampaign, pauseCampaign, resumeCampaign } from './lifecycle.service.ts';

const errors = errorReplies(400, 401, 403);
const editErrors = errorReplies(400, 401, 403, 404, 409);

/**
 * The toast's sentence names the field when the message alone does not ("Goal can be at most
 * 2000 characters.", "page: Must be a number."); the per-field details keep the form's text.
 */
function namingField(field: string, message: string | undefined): string {
  if (!message) return 'The request is not valid.';
  const label = field.replace(/_/g, ' ');
  if (message.startsWith('This field')) {
    return message.replace('This field', label.charAt(0).toUpperCase() + label.slice(1));
  }
  if (/^(Must|Required|Can |Cannot|Unknown|Has the wrong)/.test(message) && field !== '_') {
    return `${field}: ${message}`;
  }
  return message;
}

/** /api/v1/buyer/*: a buyer's own campaigns; every route is buyer-only. */
export const buyerRoutes: FastifyPluginAsyncZod = async (app) => {
  // onRequest: nobody learns anything about the routes (not even validation) without the role.
  app.addHook('onRequest', requireRole('buyer'));

  // The campaign form's messages are whole sentences: answer them as they are, without the
  // generic "field: " prefix, so the dialog can show the message in its toast.
  app.setErrorHandler(function buyerErrors(err: FastifyError, req, reply) {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details: Record<string, string[]> = {};
      for (const v of err.validation) {
        const field = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || '_';
        details[field] = [...(details[field] ?? []), v.message ?? 'Invalid value'];
      }
      const [field, messages] = Object.entries(details)[0] ?? ['_', []];
      return sendError(reply, 400, 'validation_failed', namingField(field, messages[0]), details);
    }
    return errorHandler.call(this, err, req, reply);
  });

  const mine = routeKit(app, bearerDoc('buyer'), errors);
  mine.list('/campaigns', { query: CampaignListQuery, reply: CampaignList }, (o, req) =>
    listCampaigns({ ...o, buyerId: currentUser(req).id }),
  );

  mine.route(
    'POST',
    '/campaigns',
    { body: CreateCampaignBody, reply: Campaign, status: 201 },
    async (req, reply) => {
      const user = currentUser(req);
      return respondIdempotently(req, reply, 201, (db) =>
        createCampaign({
          db,
          buyer: { id: user.id, email: user.email, name: user.name },
          input: req.body,
          publicUrl: app.config.publicUrl,
        }),
      );
    },
  );

  // The buyer's own campaign only: another buyer's id answers 404 as an unknown one.
  const edits = routeKit(app, bearerDoc('buyer'), editErrors);
  edits.route(
    'PATCH',
    '/campaigns/:id',
    { params: IdParams, body: UpdateCampaignBody, reply: Campaign },
    async (req) =>
      updateCampaign({
        db: app.db,
        buyerId: currentUser(req).id,
        campaignId: req.params.id,
        input: req.body,
      }),
  );

  // Pause, resume, end (issue 31): the buyer's own campaign; a move the status does not allow
  // is a 409 saying why (an admin's pause, a spent budget, a passed end date).
  for (const [verb, move] of [
    ['pause', pauseCampaign],
    ['resume', resumeCampaign],
    ['end', endCampaign],
  ] as const) {
    edits.route('POST', `/campaigns/:id/${verb}`, { params: IdParams, reply: Campaign }, (req) =>
      asBuyer(move({ db: app.db, id: req.params.id, who: 'buyer', buyerId: currentUser(req).id })),
    );
  }
  buyerCallsRoutes(app, edits);
  buyerBillingRoutes(app, edits);
};
