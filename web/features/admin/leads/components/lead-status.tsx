import type { AdminLead } from '@contract/admin.ts';
import type { LeadStatus } from '@contract/roles.ts';
import { ColorSwatch, Select } from '@mantine/core';
import { useUpdateLeadStatus } from '@/features/admin/leads/api/update-lead-status.ts';
import { toast } from '@/lib/notify.ts';

export const leadStatusOptions: { value: LeadStatus; label: string }[] = [
  { value: 'approved', label: 'Approved' },
  { value: 'pending', label: 'Pending' },
  { value: 'rejected', label: 'Rejected' },
];

const colors: Record<LeadStatus, string> = {
  approved: 'green',
  pending: 'yellow',
  rejected: 'red',
};

/** Changes one lead's status in place (approved, pending, rejected). */
export function LeadStatusSelect({ lead }: { lead: AdminLead }) {
  const mutation = useUpdateLeadStatus();
  const value = mutation.isPending && mutation.variables ? mutation.variables.status : lead.status;
  return (
    <Select
      size="xs"
      w={124}
      data={leadStatusOptions}
      value={value}
      allowDeselect={false}
      disabled={mutation.isPending}
      aria-label={`Status of the lead of ${lead.publisher_name || lead.publisher_email} for ${lead.offer_title}`}
      onClick={(e) => e.stopPropagation()}
      onChange={(next) => {
        if (!next || next === lead.status) return;
        mutation.mutate(
          { id: lead.id, status: next as LeadStatus },
          {
            onSuccess: () =>
              toast({ title: 'Lead Updated', description: `The lead is now ${next}.` }),
            onError: (err) =>
              toast({ title: 'Update failed', description: err.message, variant: 'destructive' }),
          },
        );
      }}
      leftSection={<ColorSwatch color={`var(--mantine-color-${colors[value]}-6)`} size={10} />}
      leftSectionPointerEvents="none"
    />
  );
}
