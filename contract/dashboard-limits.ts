// The dashboard's limits without zod: the admin dashboard's first screen needs the number, not
// the schema library (scripts/bundle-report.ts holds that screen to its budget).

/** The refused calls of the last 24 h are counted up to here (a flood is "1,000+"). */
export const REFUSED_CALLS_CAP = 1000;
