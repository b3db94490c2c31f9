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
import { type FormEvent, useState } from 'react';

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
 * The reason of a status set by hand, for a dialog: `close` (clears it, then `onClose`),
 * `submit` (says the errors, and sends the change with the reason's body when there are none),
 * and the fields' props.
 */
export function useReasonForm(onClose: () => void) {
  const [values, setValues] = useState<ReasonValues>(emptyReason);
  const [errors, setErrors] = useState<ReturnType<typeof reasonErrors>>({});
  return {
    /** Something typed or chosen: closing asks first. */
    dirty: Boolean(values.reason || values.note),
    close() {
      setValues(emptyReason);
      setErrors({});
      onClose();
    },
    /** The dialog's submit for `change` (none open: nothing to send). */
    submit<C extends { status: LeadStatus }>(
      change: C | null,
      send: (change: C, body: ReturnType<typeof reasonBody>) => void,
    ) {
      return (e?: FormEvent) => {
        e?.preventDefault();
        if (!change) return;
        const found = reasonErrors(values, change.status);
        setErrors(found);
        if (Object.keys(found).length === 0) send(change, reasonBody(values));
      };
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
