import { z } from 'zod';
import {
  AdminCampaign,
  ApproveCampaign,
  CampaignExternalIds,
  CampaignList,
  CampaignListQuery,
  IdParams,
  PauseCampaign,
  PutCampaignExternalIds,
  RejectCampaign,
} from '../../../contract/admin.ts';
import {
  CallReturn,
  DecideReturn,
  ReturnList,
  ReturnListQuery,
} from '../../../contract/buyer-calls.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { putCampaignExternalIds } from './campaign-external-ids.ts';
import { registerCampaignChecks } from './campaigns.job.ts';
import { listCampaigns } from './campaigns.service.ts';
import {
  adminMover,
  approveCampaign,
  asAdmin,
  endCampaign,
  pauseCampaign,
  rejectCampaign,
  resumeCampaign,
} from './lifecycle.service.ts';
import { decideReturn, listReturns } from './returns.service.ts';

/** Every buyer's campaigns; the admin approves, rejects, pauses, resumes and ends them. */
export const adminCampaignsRoutes = kitPlugin(adminDoc, (admin, app) => {
  const publicUrl = app.config.publicUrl;
  registerCampaignChecks(app);
  admin.list('/campaigns', { query: CampaignListQuery, reply: CampaignList }, listCampaigns);
  const one = { params: IdParams, reply: AdminCampaign };
  admin.change('POST', '/campaigns/:id/approve', { ...one, body: ApproveCampaign }, (o) =>
    approveCampaign({ ...o, publicUrl }),
  );
  admin.change('POST', '/campaigns/:id/reject', { ...one, body: RejectCampaign }, (o) =>
    rejectCampaign({ ...o, publicUrl }),
  );
  admin.change('POST', '/campaigns/:id/pause', { ...one, body: PauseCampaign }, (o) =>
    asAdmin(o.db, pauseCampaign(adminMover(o))),
  );
  const noBody = z.object({}).strict();
  admin.change('POST', '/campaigns/:id/resume', { ...one, body: noBody.optional() }, (o) =>
    asAdmin(o.db, resumeCampaign(adminMover({ ...o, input: {} }))),
  );
  admin.change('POST', '/campaigns/:id/end', { ...one, body: noBody.optional() }, (o) =>
    asAdmin(o.db, endCampaign(adminMover({ ...o, input: {} }))),
  );
  admin.change(
    'PUT',
    '/campaigns/:id/external-ids',
    { params: IdParams, body: PutCampaignExternalIds, reply: CampaignExternalIds },
    putCampaignExternalIds,
  );

  // Admin → Returns: the buyers' returns of calls, accepted (credited) or declined.
  admin.list('/returns', { query: ReturnListQuery, reply: ReturnList }, listReturns);
  for (const [verb, accept] of [
    ['accept', true],
    ['decline', false],
  ] as const) {
    admin.change(
      'POST',
      `/returns/:id/${verb}`,
      { params: IdParams, body: DecideReturn, reply: CallReturn },
      (o) => decideReturn({ ...o, accept, publicUrl }),
    );
  }
});
