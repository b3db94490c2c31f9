/** The publisher's own area: `/api/v1/publisher`. */
export { publisherRoutes } from './publisher.routes.ts';
