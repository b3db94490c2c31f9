import {
  isLeadReasonOf,
  type LeadReason,
  leadReasons,
  NOTE_MAX,
  NOTE_REQUIRED,
  REASON_REQUIRED,
} from '@contract/lead-actions.ts';
import type { LeadStatus } from '@contract/roles.ts';
import { Select, Textarea } from '@mantine/core';
import { useState } from 'react';

export type ReasonValues = { reason: LeadReason | ''; note: string };

export const emptyReason: ReasonValues = { reason: '', note: '' };

/** The choices of setting a lead to `status`: approving and rejecting have their own (issue 27). */
export const reasonOptions = (status: LeadStatus) =>
  Object.entries(leadReasons[status]).map(([value, label]) => ({ value, label }));

/** The sentences the server would answer, said before sending. */
export function reasonErrors(
  v: ReasonValues,
  status: LeadStatus,
): Partial<Record<keyof ReasonValues, string>> {
  const errors: Partial<Record<keyof ReasonValues, string>> = {};
  if (!v.reason || !isLeadReasonOf(status, v.reason)) errors.reason = REASON_REQUIRED;
  else if (v.reason === 'other' && !v.note.trim()) errors.note = NOTE_REQUIRED;
  if (v.note.length > NOTE_MAX) errors.note = `The note can be at most ${NOTE_MAX} characters.`;
  return errors;
}

/** The body fields of a status set by hand. */
export const reasonBody = (v: ReasonValues) => ({
  reason: v.reason as LeadReason,
  ...(v.note.trim() ? { note: v.note.trim() } : {}),
});

/**
 * A reason (the choices of the status set) and a note (free text, required for "Other") of a
 * status set by hand.
 */
export function ReasonFields({
  status,
  values,
  errors,
  onChange,
}: {
  /** The status the lead is set to: only its reasons are offered. */
  status: LeadStatus;
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
        data={reasonOptions(status)}
        value={values.reason && isLeadReasonOf(status, values.reason) ? values.reason : null}
        onChange={(r) => onChange({ ...values, reason: (r ?? '') as LeadReason | '' })}
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

/**
 * The reason of a status set by hand, for a dialog: the values and their errors, `check` (says
 * the errors, true when there are none), `reset` on closing, and the fields' props.
 */
export function useReasonForm() {
  const [values, setValues] = useState<ReasonValues>(emptyReason);
  const [errors, setErrors] = useState<ReturnType<typeof reasonErrors>>({});
  return {
    /** Something typed or chosen: closing asks first. */
    dirty: Boolean(values.reason || values.note),
    body: () => reasonBody(values),
    check(status: LeadStatus) {
      const found = reasonErrors(values, status);
      setErrors(found);
      return Object.keys(found).length === 0;
    },
    reset() {
      setValues(emptyReason);
      setErrors({});
    },
    fields: {
      values,
      errors,
      onChange: (v: ReasonValues) => {
        setValues(v);
        setErrors({});
      },
    },
  };
}
