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
import { del, get, post, put, type QueryOf } from './api-routes.ts';

/**
 * The fraud endpoints (issue 32, /api/v1/admin): the blocklist, the rules, the Fraud queue, a
 * lead's flags and a publisher's score. Typed here rather than in api-routes.ts (the /login
 * bundle has no room); admin screens of three areas call them (Fraud, a lead, a publisher).
 */
const id = (v: string) => encodeURIComponent(v);
export const fraudRoutes = {
  blocked: get<BlockedCallerList, QueryOf<typeof BlockedCallerListQuery>>('admin/blocked-callers'),
  block: post<BlockedCaller, undefined, CreateBlockedCaller>('admin/blocked-callers'),
  /** Multipart, part `file`: a CSV of number or prefix, reason, expires_at. */
  importBlocked: post<BlockedCallerImport, undefined, FormData>('admin/blocked-callers/import'),
  unblock: (blockId: string) => del<undefined>(`admin/blocked-callers/${id(blockId)}`),
  rules: get<FraudRules>('admin/fraud-rules'),
  saveRule: (rule: FraudRuleName) =>
    put<FraudRule, undefined, UpdateFraudRule>(`admin/fraud-rules/${rule}`),
  flags: get<FraudFlagList, QueryOf<typeof FraudFlagListQuery>>('admin/fraud-flags'),
  confirm: post<{ changed: number }, undefined, ConfirmFraudFlags>('admin/fraud-flags/confirm'),
  clear: post<{ changed: number }, undefined, ClearFraudFlags>('admin/fraud-flags/clear'),
  leadFraud: (leadId: string) => get<LeadFraud>(`admin/leads/${id(leadId)}/fraud`),
  publisherScore: (publisherId: string) =>
    get<PublisherFraudScore>(`admin/publishers/${id(publisherId)}/fraud-score`),
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
