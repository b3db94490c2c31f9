import { ensurePgliteTemplate, ensurePostgresTemplate } from './template-db.ts';

/** vitest globalSetup: the migrated template every test file's database is copied from. */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) await ensurePostgresTemplate(url);
  else await ensurePgliteTemplate();
}
