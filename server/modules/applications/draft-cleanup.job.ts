import type { FastifyInstance } from 'fastify';
import { registerJob } from '../../jobs/runtime.ts';
import { deleteStaleDrafts } from './publisher-applications.service.ts';

/** How often abandoned drafts are swept; a draft lives at most 24 h plus this. */
export const DRAFT_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Sweeps stale drafts once per interval across all instances (one of them wins each period). */
export function registerDraftCleanup(app: FastifyInstance): void {
  registerJob(app, {
    name: 'stale-draft-cleanup',
    scope: 'cluster',
    everyMs: DRAFT_SWEEP_INTERVAL_MS,
    run: ({ db }) => deleteStaleDrafts({ db }),
  });
}
