import {
  AdminOffer,
  AdminOfferScript,
  CreateOffer,
  IdParams,
  OfferList,
  OfferListQuery,
  UpdateOffer,
} from '../../../contract/admin.ts';
import { adminDoc, errorReplies } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { getAdminOfferScript } from '../scripts/index.ts';
import { createOffer, deleteOffer, listOffers, updateOffer } from './offers.service.ts';

/**
 * Offers CRUD; deleting a used offer is refused (make it inactive instead). A changed script
 * is a new version (issue 33), whose e-mails link to the portal's address.
 */
export const adminOffersRoutes = kitPlugin(adminDoc, (admin, app) => {
  const { publicUrl } = app.config;
  admin.list('/offers', { query: OfferListQuery, reply: OfferList }, listOffers);
  admin.create('/offers', { body: CreateOffer, reply: AdminOffer }, (o) =>
    createOffer({ ...o, publicUrl }),
  );
  const one = { params: IdParams };
  admin.change('PATCH', '/offers/:id', { ...one, body: UpdateOffer, reply: AdminOffer }, (o) =>
    updateOffer({ ...o, publicUrl }),
  );
  // The script's versions and who acknowledged which (issue 33).
  admin.route(
    'GET',
    '/offers/:id/script',
    { ...one, reply: AdminOfferScript, errors: errorReplies(404) },
    async (req) => getAdminOfferScript({ db: app.db, offerId: req.params.id }),
  );
  admin.remove('/offers/:id', one, deleteOffer);
});
