import { TAX_FORM_LABELS, taxFormStatuses } from '@contract/money.ts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { NoteDialog } from '@/components/note-dialog.tsx';
import {
  useAdminTaxForm,
  usePayoutHold,
  useReleasePayoutHold,
  useSetPayoutReview,
  useSetTaxFormStatus,
} from '@/features/admin/publishers/api/payout-hold.ts';
import { formatDate, formatDateTime } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';

type NoteAction = 'review' | 'release' | null;

/**
 * Admin → publisher → Payouts (issue 27): what holds this publisher's payouts (the conditions
 * Settings enables), their tax form with its status (only an admin sets it), putting payouts
 * under review and releasing the holds for the next run, each with a note that is audited.
 */
export function PayoutHoldCard({ publisherId }: { publisherId: string }) {
  const hold = usePayoutHold(publisherId);
  const tax = useAdminTaxForm(publisherId);
  const review = useSetPayoutReview(publisherId);
  const release = useReleasePayoutHold(publisherId);
  const setTax = useSetTaxFormStatus(publisherId);
  const [action, setAction] = useState<NoteAction>(null);
  const h = hold.data;
  const failed = failedToast;

  const submitNote = (note: string, clear: () => void) => {
    const done = () => {
      setAction(null);
      clear();
    };
    if (action === 'review') {
      review.mutate(
        { under_review: true, note },
        {
          onSuccess: () => {
            toast({ title: 'Payouts under review', description: 'Runs will hold this publisher.' });
            done();
          },
          onError: failed('Could not put the payouts under review'),
        },
      );
    } else {
      release.mutate(
        { note },
        {
          onSuccess: () => {
            toast({ title: 'Hold released', description: 'The next run pays this publisher.' });
            done();
          },
          onError: failed('Could not release the hold'),
        },
      );
    }
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label="Payout holds">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} fz="lg">
            Payout holds
          </Title>
          {h ? (
            <Badge color={h.held ? 'red' : 'teal'} variant="light" size="lg">
              {h.held ? 'Held' : h.release ? 'Released for the next run' : 'Paid in runs'}
            </Badge>
          ) : null}
        </Group>
        {hold.isError ? (
          <Text size="sm" c="red">
            Could not load the holds: {hold.error.message}
          </Text>
        ) : null}
        {h?.reasons.length ? (
          <Alert color={h.held ? 'red' : 'yellow'} variant="light" title="Held because">
            <Stack gap={2}>
              {h.reasons.map((r) => (
                <Text size="sm" key={r.condition}>
                  {r.label}
                  {r.condition === 'under_review' && h.review_note ? `: ${h.review_note}` : ''}
                </Text>
              ))}
              {h.release ? (
                <Text size="sm" mt={4}>
                  Released for the next run by {h.release.by_email ?? 'an admin'} on{' '}
                  {formatDateTime(h.release.at)}: {h.release.note}
                </Text>
              ) : null}
            </Stack>
          </Alert>
        ) : h ? (
          <Text size="sm" c="dimmed">
            Nothing holds this publisher's payouts.
          </Text>
        ) : null}
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label="Tax form status"
            w={200}
            data={taxFormStatuses.map((s) => ({ value: s, label: TAX_FORM_LABELS[s] }))}
            value={tax.data?.status ?? null}
            disabled={!tax.data || setTax.isPending}
            allowDeselect={false}
            onChange={(v) =>
              v &&
              setTax.mutate(
                { tax_form_status: v as (typeof taxFormStatuses)[number] },
                {
                  onSuccess: () =>
                    toast({
                      title: 'Tax form status saved',
                      description: `Now: ${TAX_FORM_LABELS[v as (typeof taxFormStatuses)[number]]}.`,
                    }),
                  onError: failed('Could not save the tax form status'),
                },
              )
            }
          />
          <Text size="sm" pb={6}>
            {tax.data?.file ? (
              <>
                <Anchor href={tax.data.file.url} target="_blank" rel="noopener">
                  {tax.data.file.name}
                </Anchor>
                {tax.data.uploaded_at ? ` · uploaded ${formatDate(tax.data.uploaded_at)}` : ''}
              </>
            ) : (
              <Text span c="dimmed" size="sm">
                No form uploaded
              </Text>
            )}
          </Text>
        </Group>
        <Group gap="sm">
          {h?.under_review ? (
            <Button
              variant="default"
              size="sm"
              loading={review.isPending}
              onClick={() =>
                review.mutate(
                  { under_review: false },
                  {
                    onSuccess: () => toast({ title: 'Review lifted' }),
                    onError: failed('Could not lift the review'),
                  },
                )
              }
            >
              Lift the review
            </Button>
          ) : (
            <Button variant="default" size="sm" onClick={() => setAction('review')}>
              Put payouts under review
            </Button>
          )}
          {h?.held ? (
            <Button size="sm" onClick={() => setAction('release')}>
              Release for the next run
            </Button>
          ) : null}
        </Group>
      </Stack>
      <NoteDialog
        opened={action !== null}
        title={action === 'review' ? 'Put payouts under review' : 'Release the hold'}
        note={{
          label: 'Note',
          description: 'Kept in the audit log.',
          autosize: true,
          minRows: 2,
          maxLength: 1000,
        }}
        autoFocus
        missing="Write a note: it is kept in the audit log."
        confirmLabel={action === 'review' ? 'Put under review' : 'Release'}
        pending={review.isPending || release.isPending}
        onConfirm={submitNote}
        onCancel={() => setAction(null)}
      >
        {action === 'review'
          ? 'Payout runs will list this publisher as held until you lift the review.'
          : 'The next payout run pays this publisher despite what holds them; the release is used up by that run.'}
      </NoteDialog>
    </Card>
  );
}
