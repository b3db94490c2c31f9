import type { BulkLeadStatus, LeadFilter } from '@contract/lead-actions.ts';
import { Alert, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormModal } from '@/components/form-modal.tsx';
import { countBulkLeadStatus, useBulkLeadStatus } from '@/features/admin/leads/api/lead-actions.ts';
import { formatCount } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';
import { ReasonFields, useReasonForm } from './reason-fields.tsx';

/** The leads a bulk action is about: the picked rows, or every lead matching the filter. */
export type BulkTarget = { ids: string[] } | { filter: LeadFilter };

export type BulkRequest = { status: 'approved' | 'rejected'; target: BulkTarget };

const leadsWord = (n: number) => `${formatCount(n)} lead${n === 1 ? '' : 's'}`;

/**
 * Approves or rejects many leads with one reason. Before the button is offered, the server
 * counts (a dry run) how many leads the action changes; leads that have the status already
 * stay as they are.
 */
export function BulkStatusModal({
  request,
  onClose,
  onDone,
}: {
  request: BulkRequest | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const mutation = useBulkLeadStatus();
  const reason = useReasonForm(onClose);
  const verb = request?.status === 'rejected' ? 'Reject' : 'Approve';
  const body = (r: BulkRequest): BulkLeadStatus => ({
    status: r.status,
    reason: 'other',
    note: 'count',
    ...r.target,
  });
  const count = useQuery({
    queryKey: ['admin', 'leads', 'bulk-count', request],
    queryFn: () => countBulkLeadStatus(body(request!)),
    enabled: request !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const changed = count.data?.changed;

  const submit = reason.submit(request, (r, why) =>
    mutation.mutate(
      { status: r.status, ...why, ...r.target },
      {
        onSuccess: (res) => {
          toast({
            title: 'Leads Updated',
            description: `${leadsWord(res.changed)} ${res.changed === 1 ? 'is' : 'are'} now ${r.status}.`,
          });
          reason.close();
          onDone();
        },
        onError: failedToast('Update failed'),
      },
    ),
  );

  const picked = request && 'ids' in request.target ? request.target.ids.length : null;
  return (
    <FormModal
      opened={request !== null}
      onClose={reason.close}
      title={`${verb} Leads`}
      size="md"
      dirty={reason.dirty}
      pending={mutation.isPending}
      submitDisabled={!changed}
      submitColor={request?.status === 'rejected' ? 'red' : undefined}
      submitLabel={changed ? `${verb} ${leadsWord(changed)}` : verb}
      onSubmit={submit}
    >
      {count.isPending ? (
        <Text size="sm" role="status">
          <Loader size="xs" mr="xs" aria-hidden />
          Counting the leads…
        </Text>
      ) : count.error ? (
        <Alert color="red" title="The leads cannot be counted">
          {count.error.message}
        </Alert>
      ) : (
        <Text size="sm" role="status">
          {changed
            ? `${leadsWord(changed)} will be ${request?.status}`
            : `No lead changes: ${picked === null ? 'every matching lead' : 'every selected lead'} is ${request?.status} already.`}
          {changed && picked !== null && picked > changed
            ? ` (${leadsWord(picked - changed)} of the ${formatCount(picked)} selected ${picked - changed === 1 ? 'is' : 'are'} ${request?.status} already and stay${picked - changed === 1 ? 's' : ''} as ${picked - changed === 1 ? 'it is' : 'they are'}).`
            : changed
              ? '.'
              : ''}{' '}
          The reason is kept on each lead and in the audit log, and later tracker events no longer
          change their status.
        </Text>
      )}
      <ReasonFields status={request?.status ?? 'approved'} {...reason.fields} />
    </FormModal>
  );
}
