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

/** The role and profile from the server: route guards and greetings read it, never the JWT. */
export function useMe(userId: string | null | undefined) {
  return useQuery({
    queryKey: meKey(userId),
    queryFn: getMe,
    enabled: Boolean(userId),
    staleTime: 60_000,
  });
}
