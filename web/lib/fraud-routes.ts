import type * as fraud from '@contract/fraud.ts';
import { del, get, post, put, type QueryOf } from './api-routes.ts';

/**
 * The fraud endpoints (issue 32, /api/v1/admin): the blocklist, the rules, the Fraud queue, a
 * lead's flags and a publisher's score. Typed here rather than in api-routes.ts (the /login
 * bundle has no room); admin screens of three areas call them (Fraud, a lead, a publisher).
 */
const id = (v: string) => encodeURIComponent(v);
export const fraudRoutes = {
  blocked: get<fraud.BlockedCallerList, QueryOf<typeof fraud.BlockedCallerListQuery>>(
    'admin/blocked-callers',
  ),
  block: post<fraud.BlockedCaller, undefined, fraud.CreateBlockedCaller>('admin/blocked-callers'),
  /** Multipart, part `file`: a CSV of number or prefix, reason, expires_at. */
  importBlocked: post<fraud.BlockedCallerImport, undefined, FormData>(
    'admin/blocked-callers/import',
  ),
  unblock: (blockId: string) => del<undefined>(`admin/blocked-callers/${id(blockId)}`),
  rules: get<fraud.FraudRules>('admin/fraud-rules'),
  saveRule: (rule: fraud.FraudRuleName) =>
    put<fraud.FraudRule, undefined, fraud.UpdateFraudRule>(`admin/fraud-rules/${rule}`),
  flags: get<fraud.FraudFlagList, QueryOf<typeof fraud.FraudFlagListQuery>>('admin/fraud-flags'),
  confirm: post<fraud.FraudFlagsChanged, undefined, fraud.ConfirmFraudFlags>(
    'admin/fraud-flags/confirm',
  ),
  clear: post<fraud.FraudFlagsChanged, undefined, fraud.ClearFraudFlags>('admin/fraud-flags/clear'),
  leadFraud: (leadId: string) => get<fraud.LeadFraud>(`admin/leads/${id(leadId)}/fraud`),
  publisherScore: (publisherId: string) =>
    get<fraud.PublisherFraudScore>(`admin/publishers/${id(publisherId)}/fraud-score`),
} as const;

/** Every fraud query starts with this key (a block, a confirm or a clear refreshes them all). */
export const fraudKey = ['admin', 'fraud'] as const;

/** The rules as people read them. */
export const fraudRuleLabels: Record<fraud.FraudRuleName, string> = {
  repeat_caller: 'Repeat caller',
  publisher_velocity: 'Publisher velocity',
  short_calls: 'Short-call clustering',
  caller_anomaly: 'Caller number anomaly',
  publisher_rejects: 'Publisher duplicates / rejects',
};
