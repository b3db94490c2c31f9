import {
  AdminOffer,
  CreateOffer,
  IdParams,
  OfferList,
  OfferListQuery,
  UpdateOffer,
} from '../../../contract/admin.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { createOffer, deleteOffer, listOffers, updateOffer } from './offers.service.ts';

/** Offers CRUD; deleting a used offer is refused (make it inactive instead). */
export const adminOffersRoutes = kitPlugin(adminDoc, (admin) => {
  admin.list('/offers', { query: OfferListQuery, reply: OfferList }, listOffers);
  admin.create('/offers', { body: CreateOffer, reply: AdminOffer }, createOffer);
  const one = { params: IdParams };
  admin.change(
    'PATCH',
    '/offers/:id',
    { ...one, body: UpdateOffer, reply: AdminOffer },
    updateOffer,
  );
  admin.remove('/offers/:id', one, deleteOffer);
});
