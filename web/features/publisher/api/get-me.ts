import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@/lib/auth.tsx';
import { getMe, meKey } from '@/lib/me.ts';

/**
 * The signed-in publisher's profile, re-read whenever a publisher screen mounts: an approval
 * made by an admin a minute ago must unlock Apply Now without a reload.
 */
export function usePublisherMe() {
  const { user } = useAuth();
  return useQuery({
    queryKey: meKey(user?.id),
    queryFn: getMe,
    enabled: Boolean(user?.id),
    staleTime: 0,
  });
}
