/** The buyer's own area: `/api/v1/buyer` (their campaigns). */
export { buyerRoutes } from './buyer.routes.ts';
