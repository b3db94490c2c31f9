/** Campaigns: the buyer's own area (`/api/v1/buyer`) and the admin's campaigns list. */
export { buyerRoutes } from './buyer.routes.ts';
export { adminCampaignsRoutes } from './campaigns.routes.ts';
