import {
  NOTE_MAX,
  NOTE_REQUIRED,
  type OverrideReason,
  overrideReasonKeys,
  overrideReasons,
  REASON_REQUIRED,
} from '@contract/lead-actions.ts';
import { Select, Textarea } from '@mantine/core';

export type ReasonValues = { reason: OverrideReason | ''; note: string };

export const emptyReason: ReasonValues = { reason: '', note: '' };

const reasonOptions = overrideReasonKeys.map((k) => ({ value: k, label: overrideReasons[k] }));

/** The sentences the server would answer, said before sending. */
export function reasonErrors(v: ReasonValues): Partial<Record<keyof ReasonValues, string>> {
  const errors: Partial<Record<keyof ReasonValues, string>> = {};
  if (!v.reason) errors.reason = REASON_REQUIRED;
  else if (v.reason === 'other' && !v.note.trim()) errors.note = NOTE_REQUIRED;
  if (v.note.length > NOTE_MAX) errors.note = `The note can be at most ${NOTE_MAX} characters.`;
  return errors;
}

/** The body fields of a status set by hand. */
export const reasonBody = (v: ReasonValues) => ({
  reason: v.reason as OverrideReason,
  ...(v.note.trim() ? { note: v.note.trim() } : {}),
});

/** A reason (choices) and a note (free text, required for "Other") of a status set by hand. */
export function ReasonFields({
  values,
  errors,
  onChange,
}: {
  values: ReasonValues;
  errors: Partial<Record<keyof ReasonValues, string>>;
  onChange: (v: ReasonValues) => void;
}) {
  return (
    <>
      <Select
        label="Reason"
        placeholder="Choose a reason"
        withAsterisk
        data={reasonOptions}
        value={values.reason || null}
        onChange={(r) => onChange({ ...values, reason: (r ?? '') as OverrideReason | '' })}
        error={errors.reason}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      <Textarea
        label="Note"
        description={
          values.reason === 'other'
            ? 'Required for "Other": kept as the reason.'
            : 'Optional: added to the reason.'
        }
        withAsterisk={values.reason === 'other'}
        value={values.note}
        onChange={(e) => onChange({ ...values, note: e.currentTarget.value })}
        error={errors.note}
        autosize
        minRows={2}
        maxLength={NOTE_MAX}
      />
    </>
  );
}
