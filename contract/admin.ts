/**
 * Every admin schema, by capability: this file only gathers them (the web's API routes read
 * `admin.X`); each lives in its capability's contract file.
 */

export * from './accounts.ts';
export * from './admin-common.ts';
export * from './admin-settings.ts';
export * from './applications.ts';
export * from './audit.ts';
export * from './campaigns.ts';
export * from './dashboard.ts';
export * from './leads.ts';
export * from './offers.ts';
export * from './payouts.ts';
export * from './scripts.ts';
