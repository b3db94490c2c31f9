import type { SetupChecklist } from '@contract/admin.ts';
import { useGet, useSend } from '@/lib/api-queries.ts';
import { get, post } from '@/lib/api-routes.ts';

/**
 * The newcomer's checklist (issue 34). Typed here rather than in web/lib/api-routes.ts (the
 * /login bundle has no room left): only the admin dashboard calls these.
 */
export const setupChecklistRoutes = {
  get: get<SetupChecklist>('admin/setup-checklist'),
  dismiss: post<SetupChecklist>('admin/setup-checklist/dismiss'),
} as const;

export const setupChecklistKey = ['admin', 'setup-checklist'] as const;

/** GET /api/v1/admin/setup-checklist: each step done or not, and this admin's dismissal. */
export const useSetupChecklist = () => useGet(setupChecklistKey, setupChecklistRoutes.get);

/** "Dismiss": hidden for this admin from now on. */
export function useDismissSetupChecklist() {
  return useSend(setupChecklistRoutes.dismiss, setupChecklistKey);
}
