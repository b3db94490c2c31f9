import { eq, sql } from 'drizzle-orm';
import {
  defaultFraudRules,
  type FraudRule,
  type FraudRuleName,
  type FraudRules,
  fraudRuleNames,
  type UpdateFraudRule,
} from '../../../contract/fraud.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { fraudConfig, fraudRules } from '../../db/schema.ts';
import { type Actor, type AdminEdit, type AuditChange, auditTrail } from '../audit/index.ts';
import { phoneCountryOf } from '../ingest/index.ts';

/**
 * The fraud rules' settings (issue 32 item 4): a row per rule the admin changed, defaults for
 * the others (contract/fraud.ts). The evaluation reads them from memory: each instance keeps
 * its copy with the `fraud_config.version` it read, checks the version at most once a second
 * and reads the rules again when it moved (any instance's change bumps it; this instance's
 * change also drops its copy at once).
 */

/** Every rule, defaults merged under the admin's settings. */
export async function readRules(db: DbOrTx): Promise<FraudRule[]> {
  const rows = await db.select().from(fraudRules);
  const byName = new Map(rows.map((r) => [r.rule, r]));
  return fraudRuleNames.map((rule) => {
    const d = defaultFraudRules[rule];
    const row = byName.get(rule);
    return {
      rule,
      enabled: row?.enabled ?? d.enabled,
      action: row?.action ?? d.action,
      params: { ...d.params, ...(row?.params ?? {}) },
    };
  });
}

const auditSettings = auditTrail('settings');

/**
 * Every change to the fraud settings (a rule, the blocklist), in its transaction: bumps the
 * version every instance compares its copy with, and writes the audit row `settings.<what>`.
 */
export async function fraudSettingsChanged(
  tx: DbOrTx,
  actor: Actor,
  what: string,
  entityId: string | null,
  change: AuditChange,
): Promise<void> {
  await tx
    .update(fraudConfig)
    .set({ version: sql`${fraudConfig.version} + 1` })
    .where(eq(fraudConfig.id, 1));
  await auditSettings(tx, actor, what, entityId, change);
}

/** What the evaluation needs, kept per database. */
export type RulesSnapshot = {
  version: number;
  /** `{rule: {enabled, action, params}}` as fraud_evaluate reads it. */
  rules: Record<FraudRuleName, Omit<FraudRule, 'rule'>>;
  phoneCountry: string;
  checkedAt: number;
};

const VERSION_CHECK_MS = 1000;
const snapshots = new WeakMap<object, RulesSnapshot>();

/** The rules from memory, read again when another instance (or this one) changed them. */
export async function currentRules(db: Db): Promise<RulesSnapshot> {
  const hit = snapshots.get(db);
  if (hit && Date.now() - hit.checkedAt < VERSION_CHECK_MS) return hit;
  const [row] = await db
    .select({ version: fraudConfig.version })
    .from(fraudConfig)
    .where(eq(fraudConfig.id, 1));
  const version = row?.version ?? 0;
  const phoneCountry = await phoneCountryOf(db);
  if (hit && hit.version === version) {
    const fresh = { ...hit, phoneCountry, checkedAt: Date.now() };
    snapshots.set(db, fresh);
    return fresh;
  }
  const list = await readRules(db);
  const rules = Object.fromEntries(
    list.map(({ rule, ...r }) => [rule, r]),
  ) as RulesSnapshot['rules'];
  const snap = { version, rules, phoneCountry, checkedAt: Date.now() };
  snapshots.set(db, snap);
  return snap;
}

/** Drops this instance's copy (after a change made here). */
export function forgetRules(db: DbOrTx): void {
  snapshots.delete(db);
}

export async function listRules(opts: { db: DbOrTx }): Promise<FraudRules> {
  return { rules: await readRules(opts.db) };
}

/** Changes one rule (on/off, flag or hold, thresholds); audited; every instance re-reads. */
export async function updateRule(
  opts: Omit<AdminEdit<UpdateFraudRule>, 'id'> & { rule: FraudRuleName },
): Promise<FraudRule> {
  const { db, input, rule } = opts;
  const result = await db.transaction(async (tx) => {
    const before = (await readRules(tx)).find((r) => r.rule === rule)!;
    const after: FraudRule = {
      rule,
      enabled: input.enabled ?? before.enabled,
      action: input.action ?? before.action,
      params: { ...before.params, ...(input.params ?? {}) },
    };
    const values = { enabled: after.enabled, action: after.action, params: after.params };
    await tx
      .insert(fraudRules)
      .values({ rule, ...values })
      .onConflictDoUpdate({ target: fraudRules.rule, set: { ...values, updatedAt: sql`now()` } });
    await fraudSettingsChanged(tx, opts.actor, 'fraud_rule', rule, { before, after });
    return after;
  });
  forgetRules(db);
  return result;
}
