import { paths } from '../../app/routes.ts';

/** Every /admin screen's path, defined once (sidebar, quick actions, links). */
export const adminPaths = {
  dashboard: paths.admin,
  publishers: `${paths.admin}/publishers`,
  publisher: (id: string) => `${paths.admin}/publishers/${encodeURIComponent(id)}`,
  buyers: `${paths.admin}/buyers`,
  offers: `${paths.admin}/offers`,
  applications: `${paths.admin}/applications`,
  compliance: `${paths.admin}/compliance`,
  campaigns: `${paths.admin}/campaigns`,
  leads: `${paths.admin}/leads`,
  payouts: `${paths.admin}/payouts`,
  settings: `${paths.admin}/settings`,
} as const;
