import type {
  CreateTrackingNumber,
  TrackingNumber,
  TrackingNumberImport,
  TrackingNumberList,
  TrackingNumberListQuery,
} from '@contract/integrations.ts';
import type { Endpoint, QueryOf } from '@/lib/api-routes.ts';

/**
 * The tracking numbers' endpoints (/api/v1/admin/tracking-numbers). Typed here rather than in
 * web/lib/api-routes.ts: that file is in the /login bundle, which has no room to spare, and only
 * this admin screen calls them.
 */
export const trackingNumberRoutes = {
  list: { method: 'GET', path: 'admin/tracking-numbers' } as Endpoint<
    TrackingNumberList,
    QueryOf<typeof TrackingNumberListQuery>
  >,
  create: { method: 'POST', path: 'admin/tracking-numbers' } as Endpoint<
    TrackingNumber,
    undefined,
    CreateTrackingNumber
  >,
  remove: (id: string) =>
    ({
      method: 'DELETE',
      path: `admin/tracking-numbers/${encodeURIComponent(id)}`,
    }) as Endpoint<undefined>,
  /** Multipart, part `file`: a CSV with the columns number, publisher, offer. */
  import: { method: 'POST', path: 'admin/tracking-numbers/import' } as Endpoint<
    TrackingNumberImport,
    undefined,
    FormData
  >,
} as const;

/** Every tracking-numbers query starts with this key: a write refreshes them all. */
export const trackingNumbersKey = ['admin', 'tracking-numbers'] as const;
