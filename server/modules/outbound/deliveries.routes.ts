import type { FastifyRequest } from 'fastify';
import { IdParams } from '../../../contract/admin-common.ts';
import { DeliveryDetail, DeliveryList, DeliveryListQuery } from '../../../contract/outbound.ts';
import type { Db } from '../../db/client.ts';
import { errorReplies } from '../../http/route-helpers.ts';
import type { RouteKit } from '../../http/route-kit.ts';
import {
  type DeliveryOwner,
  getDelivery,
  listDeliveries,
  replayDelivery,
} from './deliveries.service.ts';

/**
 * One delivery of a log under `base` (`/webhook-deliveries`, `/postback-deliveries`): GET it
 * with its attempts, POST `…/replay` to send it again. `ownerOf` keeps a caller to their own
 * deliveries (a publisher's); without it (the admin) any delivery is found.
 */
export function deliveryRoutes(
  kit: RouteKit,
  db: Db,
  base: string,
  ownerOf?: (req: FastifyRequest) => DeliveryOwner,
) {
  const parts = { params: IdParams, reply: DeliveryDetail, errors: errorReplies(404) };
  kit.route('GET', `${base}/:id`, parts, async (req) =>
    getDelivery({ db, id: req.params.id, owner: ownerOf?.(req) }),
  );
  kit.route('POST', `${base}/:id/replay`, parts, async (req) =>
    replayDelivery({ db, id: req.params.id, owner: ownerOf?.(req) }),
  );
}

/**
 * GET `url` (with an `:id`): the delivery log of the record `:id` names for the admin (an
 * endpoint's, a publisher's postbacks'), keyset-paged.
 */
export function deliveryListRoute(
  kit: RouteKit,
  db: Db,
  url: string,
  ownerOf: (id: string) => DeliveryOwner,
) {
  kit.route(
    'GET',
    url,
    { params: IdParams, query: DeliveryListQuery, reply: DeliveryList },
    async (req) => listDeliveries({ db, owner: ownerOf(req.params.id), query: req.query }),
  );
}
