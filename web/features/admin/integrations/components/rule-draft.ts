import type { CallField, FieldFormat, FieldRule, Mapping } from '@contract/ingest-mapping.ts';
import { normalRule, sameRule } from './rule-words.ts';

/**
 * One field's rule while it is edited: the value map as rows (a row may be half typed), texts
 * blank rather than missing. `ruleOf` turns it back into the contract's FieldRule.
 */
export type RuleDraft = {
  names: string[];
  const: string;
  default: string;
  map: { from: string; to: string }[];
  format: FieldFormat | null;
  split: { delimiter: string; index: number } | null;
};

export const draftOf = (rule: FieldRule | undefined): RuleDraft => ({
  names: [...(rule?.names ?? [])],
  const: rule?.const ?? '',
  default: rule?.default ?? '',
  map: Object.entries(rule?.map ?? {}).map(([from, to]) => ({ from, to })),
  format: rule?.format ?? null,
  split: rule?.split ? { ...rule.split } : null,
});

/** The rule a draft stands for; value-map rows without a tracker value are left out. */
export function ruleOf(d: RuleDraft): FieldRule {
  const map = Object.fromEntries(
    d.map.filter((row) => row.from.trim() !== '').map((row) => [row.from.trim(), row.to]),
  );
  return normalRule({
    names: d.names.map((n) => n.trim()).filter(Boolean),
    const: d.const,
    default: d.default,
    map,
    ...(d.format ? { format: d.format } : {}),
    ...(d.split ? { split: d.split } : {}),
  });
}

/** Per field: a draft being edited, or null for "back to the preset's rule on save". */
export type MappingEdits = Partial<Record<CallField, RuleDraft | null>>;

/** The preset's rule of a field: a field the preset leaves out is read by its own name. */
export const presetRuleOf = (preset: Mapping, field: CallField): FieldRule =>
  preset[field] ?? { names: [field] };

/** The rule a field will have after saving: its edit, the preset's, or today's. */
export function effectiveRule(
  field: CallField,
  edits: MappingEdits,
  current: Record<string, FieldRule>,
  preset: Mapping,
): FieldRule {
  const edit = edits[field];
  if (edit === null) return presetRuleOf(preset, field);
  if (edit) return ruleOf(edit);
  return current[field] ?? presetRuleOf(preset, field);
}

/**
 * The `field_map` of a PATCH: a changed rule whole, null for a field put back to the preset's,
 * nothing for a field whose edit reads as it does today.
 */
export function fieldMapPatch(
  edits: MappingEdits,
  current: Record<string, FieldRule>,
): Partial<Record<CallField, FieldRule | null>> {
  const out: Partial<Record<CallField, FieldRule | null>> = {};
  for (const [f, edit] of Object.entries(edits) as [CallField, RuleDraft | null | undefined][]) {
    if (edit === undefined) continue;
    if (edit === null) out[f] = null;
    else if (!sameRule(f, ruleOf(edit), current[f])) out[f] = ruleOf(edit);
  }
  return out;
}
