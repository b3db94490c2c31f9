import type { MeProfile } from '@contract/auth.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from './api-client.ts';
import { apiRoutes } from './api-routes.ts';

/** The signed-in user's profile as GET /api/v1/me answers it. */
export type Me = MeProfile;

export const meKey = (userId: string | null | undefined) => ['me', userId ?? null] as const;

export function getMe(): Promise<Me> {
  return apiCall(apiRoutes.me);
}

/** How often a publisher waiting for approval asks again (issue 16: live state). */
export const PENDING_RECHECK_MS = 15_000;

/**
 * The role and profile from the server: route guards and greetings read it, never the JWT.
 * While the account waits for approval it is asked again every PENDING_RECHECK_MS (and when
 * the window regains focus), so an approval shows without a reload (AreaShell then refreshes
 * the area's other data).
 */
export function useMe(userId: string | null | undefined) {
  return useQuery({
    queryKey: meKey(userId),
    queryFn: getMe,
    enabled: Boolean(userId),
    staleTime: 60_000,
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? PENDING_RECHECK_MS : false),
  });
}
