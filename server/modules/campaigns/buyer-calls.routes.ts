import { IdParams } from '../../../contract/admin-common.ts';
import {
  BuyerCallCsvQuery,
  BuyerCallList,
  BuyerCallListQuery,
  BuyerDashboard,
  CallReturn,
  ReturnCallBody,
} from '../../../contract/buyer-calls.ts';
import { currentUser } from '../../auth/guard.ts';
import type { RouteKit, ZodApp } from '../../http/route-kit.ts';
import { buyerCallsCsv, buyerDashboard, listBuyerCalls } from './buyer-calls.service.ts';
import { returnCall } from './returns.service.ts';

/**
 * The buyer's calls, dashboard and returns (issue 31), declared on the buyer area's kit (the
 * buyer role is checked by buyer.routes.ts's hook): `GET /calls` (+ `/calls.csv`),
 * `GET /dashboard`, `POST /calls/:id/return`.
 */
export function buyerCallsRoutes(app: ZodApp, kit: RouteKit): void {
  const sign = (key: string) => app.storage.signedUrl(key);
  kit.list('/calls', { query: BuyerCallListQuery, reply: BuyerCallList }, (o, req) =>
    listBuyerCalls({ ...o, buyerId: currentUser(req).id, sign }),
  );
  kit.csv('/calls.csv', BuyerCallCsvQuery, (query, req) => ({
    name: 'calls',
    lines: buyerCallsCsv({ db: app.db, query, buyerId: currentUser(req).id, sign }),
  }));
  kit.route('GET', '/dashboard', { reply: BuyerDashboard }, (req) =>
    buyerDashboard({ db: app.db, buyerId: currentUser(req).id }),
  );
  kit.route(
    'POST',
    '/calls/:id/return',
    { params: IdParams, body: ReturnCallBody, reply: CallReturn, status: 201 },
    async (req, reply) =>
      reply.code(201).send(
        await returnCall({
          db: app.db,
          buyerId: currentUser(req).id,
          leadId: req.params.id,
          input: req.body,
        }),
      ),
  );
}
