import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CampaignList, CampaignListQuery } from '../../../contract/admin.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { routeKit } from '../../http/route-kit.ts';
import { listCampaigns } from './campaigns.service.ts';

/** Every buyer's campaigns (read only for the admin). */
export const adminCampaignsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = routeKit(app, adminDoc);
  admin.list('/campaigns', { query: CampaignListQuery, reply: CampaignList }, listCampaigns);
};
