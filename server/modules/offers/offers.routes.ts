import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminOffer,
  CreateOffer,
  IdParams,
  OfferList,
  OfferListQuery,
  UpdateOffer,
} from '../../../contract/admin.ts';
import { respondIdempotently } from '../../http/idempotency.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { createOffer, deleteOffer, listOffers, updateOffer } from './offers.service.ts';

/** Offers CRUD; deleting a used offer is refused (make it inactive instead). */
export const adminOffersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/offers',
    { schema: { ...adminDoc, querystring: OfferListQuery, response: { 200: OfferList } } },
    async (req) => listOffers({ db: app.db, query: req.query }),
  );

  app.post(
    '/offers',
    { schema: { ...adminDoc, body: CreateOffer, response: { 201: AdminOffer } } },
    async (req, reply) =>
      respondIdempotently(req, reply, 201, (db) =>
        createOffer({ db, actor: actorOf(req), input: req.body }),
      ),
  );

  app.patch(
    '/offers/:id',
    { schema: { ...adminDoc, params: IdParams, body: UpdateOffer, response: { 200: AdminOffer } } },
    async (req) =>
      updateOffer({ db: app.db, actor: actorOf(req), id: req.params.id, input: req.body }),
  );

  app.delete(
    '/offers/:id',
    { schema: { ...adminDoc, params: IdParams, response: { 204: z.null() } } },
    async (req, reply) => {
      await deleteOffer({ db: app.db, actor: actorOf(req), id: req.params.id });
      return reply.status(204).send(null);
    },
  );
};
