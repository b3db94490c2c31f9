/** Campaigns: the buyer's own area (`/api/v1/buyer`) and the admin's campaigns list. */
export { buyerRoutes } from './buyer.routes.ts';
export { adminCampaignsRoutes } from './campaigns.routes.ts';
/** For the demo seeder: an admin's approval and a return's decision, as the routes make them. */
export { approveCampaign } from './lifecycle.service.ts';
export { decideReturn } from './returns.service.ts';
