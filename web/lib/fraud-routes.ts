import type {
  BlockedCaller,
  BlockedCallerImport,
  BlockedCallerList,
  BlockedCallerListQuery,
  ClearFraudFlags,
  ConfirmFraudFlags,
  CreateBlockedCaller,
  FraudFlagList,
  FraudFlagListQuery,
  FraudRule,
  FraudRuleName,
  FraudRules,
  LeadFraud,
  PublisherFraudScore,
  UpdateFraudRule,
} from '@contract/fraud.ts';
import type { Endpoint, QueryOf } from './api-routes.ts';

/**
 * The fraud endpoints (issue 32, /api/v1/admin): the blocklist, the rules, the Fraud queue, a
 * lead's flags and a publisher's score. Typed here rather than in api-routes.ts (the /login
 * bundle has no room); admin screens of three areas call them (Fraud, a lead, a publisher).
 */
const id = (v: string) => encodeURIComponent(v);
export const fraudRoutes = {
  blocked: { method: 'GET', path: 'admin/blocked-callers' } as Endpoint<
    BlockedCallerList,
    QueryOf<typeof BlockedCallerListQuery>
  >,
  block: { method: 'POST', path: 'admin/blocked-callers' } as Endpoint<
    BlockedCaller,
    undefined,
    CreateBlockedCaller
  >,
  /** Multipart, part `file`: a CSV of number or prefix, reason, expires_at. */
  importBlocked: { method: 'POST', path: 'admin/blocked-callers/import' } as Endpoint<
    BlockedCallerImport,
    undefined,
    FormData
  >,
  unblock: (blockId: string) =>
    ({ method: 'DELETE', path: `admin/blocked-callers/${id(blockId)}` }) as Endpoint<undefined>,
  rules: { method: 'GET', path: 'admin/fraud-rules' } as Endpoint<FraudRules>,
  saveRule: (rule: FraudRuleName) =>
    ({ method: 'PUT', path: `admin/fraud-rules/${rule}` }) as Endpoint<
      FraudRule,
      undefined,
      UpdateFraudRule
    >,
  flags: { method: 'GET', path: 'admin/fraud-flags' } as Endpoint<
    FraudFlagList,
    QueryOf<typeof FraudFlagListQuery>
  >,
  confirm: { method: 'POST', path: 'admin/fraud-flags/confirm' } as Endpoint<
    { changed: number },
    undefined,
    ConfirmFraudFlags
  >,
  clear: { method: 'POST', path: 'admin/fraud-flags/clear' } as Endpoint<
    { changed: number },
    undefined,
    ClearFraudFlags
  >,
  leadFraud: (leadId: string) =>
    ({ method: 'GET', path: `admin/leads/${id(leadId)}/fraud` }) as Endpoint<LeadFraud>,
  publisherScore: (publisherId: string) =>
    ({
      method: 'GET',
      path: `admin/publishers/${id(publisherId)}/fraud-score`,
    }) as Endpoint<PublisherFraudScore>,
} as const;

/** Every fraud query starts with this key (a block, a confirm or a clear refreshes them all). */
export const fraudKey = ['admin', 'fraud'] as const;

/** The rules as people read them. */
export const fraudRuleLabels: Record<FraudRuleName, string> = {
  repeat_caller: 'Repeat caller',
  publisher_velocity: 'Publisher velocity',
  short_calls: 'Short-call clustering',
  caller_anomaly: 'Caller number anomaly',
  publisher_rejects: 'Publisher duplicates / rejects',
};
