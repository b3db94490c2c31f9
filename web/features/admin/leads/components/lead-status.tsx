import type { AdminLead } from '@contract/admin.ts';
import type { LeadStatus } from '@contract/roles.ts';
import { ColorSwatch, Select, Text } from '@mantine/core';
import { FormModal } from '@/components/form-modal.tsx';
import { useUpdateLeadStatus } from '@/features/admin/leads/api/update-lead-status.ts';
import { failedToast, toast } from '@/lib/notify.ts';
import { ReasonFields, useReasonForm } from './reason-fields.tsx';

export const leadStatusOptions: { value: LeadStatus; label: string }[] = [
  { value: 'approved', label: 'Approved' },
  { value: 'pending', label: 'Pending' },
  { value: 'rejected', label: 'Rejected' },
];

export const leadStatusColors: Record<LeadStatus, string> = {
  approved: 'green',
  pending: 'yellow',
  rejected: 'red',
};

export const statusLabel = (s: LeadStatus) => leadStatusOptions.find((o) => o.value === s)!.label;

/** A status change the admin picked and still has to give a reason for. */
export type StatusChange = { lead: AdminLead; status: LeadStatus };

/**
 * One lead's status in its row. Picking another status does not save it: it asks the page
 * (`onPick`) to open the reason dialog.
 */
export function LeadStatusSelect({
  lead,
  onPick,
}: {
  lead: AdminLead;
  onPick: (change: StatusChange) => void;
}) {
  const who = lead.publisher_name || lead.publisher_email;
  return (
    <Select
      size="xs"
      w={124}
      data={leadStatusOptions}
      value={lead.status}
      allowDeselect={false}
      aria-label={`Status of the lead of ${who} for ${lead.offer_title}`}
      onClick={(e) => e.stopPropagation()}
      onChange={(picked) => {
        if (picked && picked !== lead.status) onPick({ lead, status: picked as LeadStatus });
      }}
      leftSection={
        <ColorSwatch color={`var(--mantine-color-${leadStatusColors[lead.status]}-6)`} size={10} />
      }
      leftSectionPointerEvents="none"
    />
  );
}

/**
 * Sets one lead's status by hand with a reason (kept on the lead and in the audit log; later
 * tracker events leave the status alone).
 */
export function StatusChangeModal({
  change,
  onClose,
}: {
  change: StatusChange | null;
  onClose: () => void;
}) {
  const mutation = useUpdateLeadStatus();
  const reason = useReasonForm(onClose);

  const submit = reason.submit(change, ({ lead: { id }, status }, why) =>
    mutation.mutate(
      { id, status, ...why },
      {
        onSuccess: () => {
          toast({ title: 'Lead Updated', description: `The lead is now ${status}.` });
          reason.close();
        },
        onError: failedToast('Update failed'),
      },
    ),
  );

  const lead = change?.lead;
  return (
    <FormModal
      opened={change !== null}
      onClose={reason.close}
      title="Change Lead Status"
      size="md"
      dirty={reason.dirty}
      pending={mutation.isPending}
      submitLabel={change ? `Set to ${statusLabel(change.status)}` : 'Save'}
      submitColor={change?.status === 'rejected' ? 'red' : undefined}
      onSubmit={submit}
    >
      {lead && change ? (
        <Text size="sm">
          {`The lead of ${lead.publisher_name || lead.publisher_email} for ${lead.offer_title} goes from ${statusLabel(lead.status)} to ${statusLabel(change.status)}. `}
          The reason is kept on the lead, and later tracker events no longer change its status.
        </Text>
      ) : null}
      <ReasonFields status={change?.status ?? 'pending'} {...reason.fields} />
    </FormModal>
  );
}
