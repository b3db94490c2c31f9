import type {
  CreateTrackingNumber,
  TrackingNumber,
  TrackingNumberImport,
  TrackingNumberList,
  TrackingNumberListQuery,
} from '@contract/integrations.ts';
import { del, get, post, type QueryOf } from '@/lib/api-routes.ts';

/**
 * The tracking numbers' endpoints (/api/v1/admin/tracking-numbers). Typed here rather than in
 * web/lib/api-routes.ts: that file is in the /login bundle, which has no room to spare, and only
 * this admin screen calls them.
 */
export const trackingNumberRoutes = {
  list: get<TrackingNumberList, QueryOf<typeof TrackingNumberListQuery>>('admin/tracking-numbers'),
  create: post<TrackingNumber, undefined, CreateTrackingNumber>('admin/tracking-numbers'),
  remove: (id: string) => del<undefined>(`admin/tracking-numbers/${encodeURIComponent(id)}`),
  /** Multipart, part `file`: a CSV with the columns number, publisher, offer. */
  import: post<TrackingNumberImport, undefined, FormData>('admin/tracking-numbers/import'),
} as const;

/** Every tracking-numbers query starts with this key: a write refreshes them all. */
export const trackingNumbersKey = ['admin', 'tracking-numbers'] as const;
