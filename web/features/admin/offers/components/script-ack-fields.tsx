import { type ScriptAckMode, scriptAckModeLabels } from '@contract/scripts.ts';
import { Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { DaysInput } from '@/components/forms/days-input.tsx';
import { LabeledSegmentedControl } from '@/components/forms/labeled-segmented-control.tsx';

/** The form values these fields edit. */
export type ScriptAckValues = { script_ack_mode: ScriptAckMode; script_ack_days: number | string };

/**
 * What happens to calls of a publisher who has not acknowledged a new script version in time
 * (issue 33): flagged only, or held as pending for an admin.
 */
export function ScriptAckFields<V extends ScriptAckValues>({
  form,
}: {
  form: UseFormReturnType<V>;
}) {
  return (
    <Stack gap={4}>
      <LabeledSegmentedControl
        id="offer-script-ack-label"
        label="Publishers late to acknowledge a new script"
        note={`${scriptAckModeLabels[form.getValues().script_ack_mode]}.`}
        data={[
          { value: 'flag', label: 'Flag their calls' },
          { value: 'hold', label: 'Hold their calls' },
        ]}
        {...form.getInputProps('script_ack_mode')}
      />
      <DaysInput
        label="Days to acknowledge"
        description="After a new script version, publishers have this many days to read and acknowledge it."
        {...form.getInputProps('script_ack_days')}
      />
    </Stack>
  );
}
