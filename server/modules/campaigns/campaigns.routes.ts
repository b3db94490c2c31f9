import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CampaignList, CampaignListQuery } from '../../../contract/admin.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { listCampaigns } from './campaigns.service.ts';

/** Every buyer's campaigns (read only for the admin). */
export const adminCampaignsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/campaigns',
    { schema: { ...adminDoc, querystring: CampaignListQuery, response: { 200: CampaignList } } },
    async (req) => listCampaigns({ db: app.db, query: req.query }),
  );
};
