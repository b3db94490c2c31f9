import { api } from '../../../lib/api-client.ts';

/** Drops a draft the publisher walked away from (spec §4); the server sweeps any it misses. */
export function deleteDraftApplication(applicationId: string): Promise<void> {
  return api<void>(`publisher/applications/${encodeURIComponent(applicationId)}`, {
    method: 'DELETE',
  });
}
