import { useQuery } from '@tanstack/react-query';
import type { Role, UserStatus } from '../../contract/roles.ts';
import { api } from './api-client.ts';

/** The signed-in user's profile as GET /api/v1/me answers it. */
export type Me = {
  id: string;
  email: string;
  role: Role;
  status: UserStatus;
  name: string | null;
  business_legal_name: string | null;
  phone_number: string | null;
  whatsapp_number: string | null;
  ms_teams_id: string | null;
  address: string | null;
  created_at: string;
};

export const meKey = (userId: string | null | undefined) => ['me', userId ?? null] as const;

export function getMe(): Promise<Me> {
  return api<Me>('me');
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
