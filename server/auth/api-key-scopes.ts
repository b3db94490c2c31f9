import type { ApiKeyScope } from '../../contract/api-keys.ts';

/**
 * The one table of what a personal API key may reach on /api/v1: each route (method and route
 * pattern, as Fastify registered it) → the scope a key needs there, or `any` for every key.
 * A route not listed refuses every key with 403 `api_key_not_allowed` (sign-in only: key
 * management, profile and settings changes, uploads, notifications…). The key still acts as
 * its user: the role guard and the services' `where` clauses apply after this table.
 */
export const API_KEY_ROUTES: Readonly<Record<string, ApiKeyScope | 'any'>> = {
  'GET /api/v1/me': 'any',

  // leads:read: the lead lists and details, disputes.
  'GET /api/v1/publisher/leads': 'leads:read',
  'GET /api/v1/publisher/leads/:id': 'leads:read',
  'GET /api/v1/admin/leads': 'leads:read',
  'GET /api/v1/admin/leads.csv': 'leads:read',
  'GET /api/v1/admin/leads/totals': 'leads:read',
  'GET /api/v1/admin/leads/:id': 'leads:read',
  'GET /api/v1/admin/disputes': 'leads:read',

  // leads:write (admins): lead statuses, manual leads, CSV imports, dispute decisions.
  'POST /api/v1/admin/leads': 'leads:write',
  'PATCH /api/v1/admin/leads/:id': 'leads:write',
  'POST /api/v1/admin/leads/bulk-status': 'leads:write',
  'POST /api/v1/admin/lead-imports': 'leads:write',
  'GET /api/v1/admin/lead-imports/:id': 'leads:write',
  'POST /api/v1/admin/lead-imports/:id/check': 'leads:write',
  'POST /api/v1/admin/lead-imports/:id/import': 'leads:write',
  'POST /api/v1/admin/disputes/:id/messages': 'leads:write',
  'POST /api/v1/admin/disputes/:id/accept': 'leads:write',
  'POST /api/v1/admin/disputes/:id/decline': 'leads:write',

  // payouts:read: balances, payouts, runs and statements.
  'GET /api/v1/publisher/money': 'payouts:read',
  'GET /api/v1/publisher/payouts': 'payouts:read',
  'GET /api/v1/publisher/payouts/:id': 'payouts:read',
  'GET /api/v1/publisher/payouts/:id/leads': 'payouts:read',
  'GET /api/v1/publisher/payouts/:id/statement': 'payouts:read',
  'GET /api/v1/publisher/payouts/:id/statement.csv': 'payouts:read',
  'GET /api/v1/publisher/payouts/:id/statement.pdf': 'payouts:read',
  'GET /api/v1/admin/balances': 'payouts:read',
  'GET /api/v1/admin/payouts': 'payouts:read',
  'GET /api/v1/admin/payouts.csv': 'payouts:read',
  'GET /api/v1/admin/payouts/:id': 'payouts:read',
  'GET /api/v1/admin/payouts/:id/leads': 'payouts:read',
  'GET /api/v1/admin/payouts/:id/statement': 'payouts:read',
  'GET /api/v1/admin/payouts/:id/statement.csv': 'payouts:read',
  'GET /api/v1/admin/payouts/:id/statement.pdf': 'payouts:read',
  'GET /api/v1/admin/payout-runs': 'payouts:read',
  'GET /api/v1/admin/payout-runs/:id': 'payouts:read',
  'GET /api/v1/admin/payout-runs/:id/export.csv': 'payouts:read',
  'GET /api/v1/admin/payout-runs/:id/files': 'payouts:read',
  'GET /api/v1/admin/payout-runs/:id/files/:format': 'payouts:read',

  // payouts:write (admins): payouts, adjustments, runs (preview, confirm, paid, void).
  'POST /api/v1/admin/payouts': 'payouts:write',
  'POST /api/v1/admin/publishers/:id/adjustments': 'payouts:write',
  'POST /api/v1/admin/payout-runs': 'payouts:write',
  'POST /api/v1/admin/payout-runs/preview': 'payouts:write',
  'POST /api/v1/admin/payout-runs/:id/paid': 'payouts:write',
  'POST /api/v1/admin/payout-runs/:id/void': 'payouts:write',

  // reports:read: reports and the dashboards' figures.
  'GET /api/v1/publisher/overview': 'reports:read',
  'GET /api/v1/publisher/overview/range': 'reports:read',
  'GET /api/v1/publisher/reports': 'reports:read',
  'GET /api/v1/publisher/reports.csv': 'reports:read',
  'GET /api/v1/admin/stats': 'reports:read',
  'GET /api/v1/admin/stats/daily': 'reports:read',
  'GET /api/v1/admin/stats/range': 'reports:read',
  'GET /api/v1/admin/reports': 'reports:read',
  'GET /api/v1/admin/reports.csv': 'reports:read',

  // campaigns:read: the buyer's campaigns, the admin's campaigns list.
  'GET /api/v1/buyer/campaigns': 'campaigns:read',
  'GET /api/v1/admin/campaigns': 'campaigns:read',
};

/**
 * The scope a key needs on a route (`any`: every key), or null when keys may not use it.
 * HEAD is answered by the GET route.
 */
export function scopeForRoute(method: string, routeUrl: string): ApiKeyScope | 'any' | null {
  const m = method === 'HEAD' ? 'GET' : method;
  return API_KEY_ROUTES[`${m} ${routeUrl}`] ?? null;
}
