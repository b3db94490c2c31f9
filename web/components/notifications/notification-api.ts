import type {
  MarkedRead,
  Notification,
  NotificationList,
  NotificationListQuery,
  UnreadCount,
} from '@contract/notifications.ts';
import {
  type InfiniteData,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { useGet } from '@/lib/api-queries.ts';
import { get, post, type QueryOf } from '@/lib/api-routes.ts';

/**
 * The bell's endpoints (/api/v1/me/notifications). Defined here rather than in
 * web/lib/api-routes.ts: that file is in the /login bundle, which has no room to spare, and only
 * the signed-in shell calls these.
 */
export const notificationRoutes = {
  list: get<NotificationList, QueryOf<typeof NotificationListQuery>>('me/notifications'),
  unreadCount: get<UnreadCount>('me/notifications/unread-count'),
  markRead: (id: string) => post<Notification>(`me/notifications/${encodeURIComponent(id)}/read`),
  markAllRead: post<MarkedRead>('me/notifications/read-all'),
} as const;

/** Everything the bell reads: invalidate it to read the count and the list again. */
export const notificationsKey = ['notifications'] as const;
export const countKey = [...notificationsKey, 'unread-count'] as const;
export const notificationListKey = [...notificationsKey, 'list'] as const;

/** How often an open portal asks for the unread count (and whenever the tab regains focus). */
export const UNREAD_REFRESH_MS = 30_000;

/** The badge's number: read every 30 s and on window focus. */
export const useUnreadCount = () =>
  useGet(countKey, notificationRoutes.unreadCount, {
    refetchInterval: UNREAD_REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
  });

/** The latest notifications, 10 at a time ("Show older" reads the next page by its cursor). */
export function useNotificationList(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: notificationListKey,
    queryFn: ({ pageParam, signal }) =>
      apiCall(notificationRoutes.list, {
        query: pageParam ? { after: pageParam } : {},
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled,
    staleTime: 0,
  });
}

type ListData = InfiniteData<NotificationList, string | null>;

/** Marks one read: shown read at once, the count drops, both re-read from the server. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall(notificationRoutes.markRead(id)),
    onMutate: (id) => {
      const now = new Date().toISOString();
      queryClient.setQueryData<ListData>(notificationListKey, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((p) => ({
                ...p,
                items: p.items.map((n) => (n.id === id && !n.read_at ? { ...n, read_at: now } : n)),
              })),
            }
          : data,
      );
      queryClient.setQueryData<UnreadCount>(countKey, (c) =>
        c ? { ...c, unread: Math.max(0, c.unread - 1) } : c,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}

/** "Mark all read". */
export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(notificationRoutes.markAllRead),
    onSuccess: () => {
      queryClient.setQueryData<UnreadCount>(countKey, { unread: 0, exact: true });
      return queryClient.invalidateQueries({ queryKey: notificationsKey });
    },
  });
}
