import { CampaignList, CampaignListQuery } from '../../../contract/admin.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { listCampaigns } from './campaigns.service.ts';

/** Every buyer's campaigns (read only for the admin). */
export const adminCampaignsRoutes = kitPlugin(adminDoc, (admin) => {
  admin.list('/campaigns', { query: CampaignListQuery, reply: CampaignList }, listCampaigns);
});
