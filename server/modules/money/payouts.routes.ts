import {
  AdminPayout,
  CreatePayout,
  PayoutCsvQuery,
  PayoutList,
  PayoutListQuery,
} from '../../../contract/admin.ts';
import { adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import { createPayout, listPayouts, payoutsCsv } from './payouts.service.ts';

/** Payouts: the list with publisher names, its CSV export, recording one for an approved publisher. */
export const adminPayoutsRoutes = kitPlugin(adminDoc, (admin) => {
  const lists = { query: PayoutListQuery, csv: PayoutCsvQuery, reply: PayoutList };
  admin.listWithCsv('/payouts', lists, listPayouts, payoutsCsv);
  admin.create('/payouts', { body: CreatePayout, reply: AdminPayout }, createPayout);
});
