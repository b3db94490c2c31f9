import type { IntegrationTestRequest, IntegrationTestResult } from '@contract/integrations.ts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client.ts';
import { post } from '@/lib/api-routes.ts';

/** Outside web/lib/api-routes.ts on purpose: that file is in the /login bundle. */
const testRoute = (integrationId: string) =>
  post<IntegrationTestResult, undefined, IntegrationTestRequest>(
    `admin/integrations/${encodeURIComponent(integrationId)}/test`,
  );

/**
 * POST /api/v1/admin/integrations/:id/test: reads a request as the tracker would send it and
 * answers what it would do. Nothing is written, so no list is refreshed afterwards.
 */
export const useTestIntegration = () =>
  useMutation({
    mutationFn: ({ id, body }: { id: string; body: IntegrationTestRequest }) =>
      apiCall(testRoute(id), { body }),
  });
