import type { AdminLeadDetail, LeadDispute } from '@contract/lead-detail.ts';
import { hasUploadType, uploadRules } from '@contract/uploads.ts';
import { Anchor, Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCheck, IconMessage, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { FileUploadButton } from '@/components/file-upload-button.tsx';
import {
  DisputeMessageField,
  useDisputeMessage,
} from '@/components/lead-detail/dispute-message.tsx';
import {
  useDecideDispute,
  useReplyDispute,
  useUploadRecording,
} from '@/components/lead-detail/disputes-api.ts';
import { Field, Section } from '@/components/lead-detail/lead-detail-parts.tsx';
import { LeadDetailScreen, useRouteLead } from '@/components/lead-detail/lead-detail-screen.tsx';
import { LeadPayout } from '@/components/lead-detail/lead-payout.tsx';
import { useLead } from '@/features/admin/leads/api/get-lead.ts';
import { formatMoney } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';
import { formatPhone } from '@/lib/phone-format.ts';
import { LeadFraudSection } from './lead-fraud-section.tsx';

/** The two answers to an open dispute, each with its button's look. */
const disputeDecisions = [
  {
    decision: 'accept',
    label: 'Accept dispute',
    color: 'green',
    variant: undefined,
    Icon: IconCheck,
  },
  { decision: 'decline', label: 'Decline dispute', color: 'red', variant: 'light', Icon: IconX },
] as const;

/** The admin's answer box under an open dispute: reply, accept or decline. */
function DisputeActions({ dispute }: { dispute: LeadDispute }) {
  const box = useDisputeMessage();
  const reply = useReplyDispute();
  const decide = useDecideDispute();
  const busy = reply.isPending || decide.isPending;
  const text = box.message.trim();

  const fail = (err: Error) => failedToast('Update failed')(err);
  const handleReply = () => {
    if (!text) return box.setError('Please write a message.');
    reply.mutate(
      { id: dispute.id, message: text },
      {
        onSuccess: () => {
          box.setMessage('');
          toast({ title: 'Reply sent', description: 'The publisher gets it by e-mail.' });
        },
        onError: fail,
      },
    );
  };
  const handleDecide = (decision: 'accept' | 'decline') => {
    if (decision === 'decline' && !text) {
      return box.setError('Tell the publisher why the dispute is declined.');
    }
    // mutateAsync, not mutate's callbacks: the decided dispute is no longer open, so this box
    // unmounts as soon as the lead is read again, and TanStack Query skips the callbacks of a
    // mutate whose component is gone (the toast then never showed when the read came first).
    decide.mutateAsync({ id: dispute.id, decision, message: text }).then(() => {
      box.setMessage('');
      toast({
        title: decision === 'accept' ? 'Dispute accepted' : 'Dispute declined',
        description:
          decision === 'accept'
            ? 'The lead is now approved and payable.'
            : 'The publisher has been told.',
      });
    }, fail);
  };

  return (
    <Stack gap="xs">
      <DisputeMessageField
        state={box}
        label="Answer"
        placeholder="Write to the publisher (required to decline)"
      />
      <Group gap="xs" wrap="wrap">
        <Button
          size="sm"
          variant="default"
          leftSection={<IconMessage size={16} />}
          onClick={handleReply}
          loading={reply.isPending}
          disabled={busy}
        >
          Reply
        </Button>
        {disputeDecisions.map((d) => (
          <Button
            key={d.decision}
            size="sm"
            color={d.color}
            variant={d.variant}
            leftSection={<d.Icon size={16} />}
            onClick={() => handleDecide(d.decision)}
            loading={decide.isPending && decide.variables?.decision === d.decision}
            disabled={busy}
          >
            {d.label}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

function RecordingUpload({ lead }: { lead: AdminLeadDetail }) {
  const upload = useUploadRecording();
  return (
    <FileUploadButton
      label={lead.recording?.stored ? 'Replace recording' : 'Upload recording'}
      ariaLabel="Upload the call recording (MP3)"
      accept=".mp3,audio/mpeg"
      isAllowed={(name) => hasUploadType(uploadRules.recording.file, name)}
      wrongType={{ title: 'Upload Failed', description: 'The recording must be an MP3 file.' }}
      upload={upload}
      vars={(file) => ({ id: lead.id, file })}
      done={{ title: 'Recording uploaded' }}
      failTitle="Upload Failed"
    />
  );
}

/** The Money card's content: payout and revenue, which publishers never see. */
function LeadMoney({ lead }: { lead: AdminLeadDetail }) {
  return (
    <>
      <SimpleGrid cols={2} spacing="sm">
        <Field label="Payout">
          <Text fz={22} fw={700} data-testid="lead-payout">
            <LeadPayout payout={lead.payout} status={lead.status} />
          </Text>
        </Field>
        <Field label="Revenue">
          <Text fz={22} fw={700}>
            {formatMoney(lead.revenue)}
          </Text>
        </Field>
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="xs">
        Revenue is what the buyer paid; publishers never see it.
      </Text>
      <Text size="sm" mt="xs" data-testid="lead-campaign">
        {lead.campaign
          ? `Campaign: ${lead.campaign.name} (${lead.campaign.buyer_email}) · ${
              lead.campaign.billed === null
                ? `not billed: ${lead.campaign.bill_reason ?? 'not judged yet'}`
                : `billed ${formatMoney(lead.campaign.billed)}`
            }`
          : 'No buyer campaign'}
      </Text>
    </>
  );
}

/** The tracker's extra parameters of the call. */
function LeadTags({ tags }: { tags: AdminLeadDetail['tags'] }) {
  const entries = Object.entries(tags ?? {});
  return (
    <Section title="Tags">
      {entries.length ? (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          {entries.map(([k, v]) => (
            <Field key={k} label={k}>
              <Code>{typeof v === 'string' ? v : JSON.stringify(v)}</Code>
            </Field>
          ))}
        </SimpleGrid>
      ) : (
        <Text size="sm" c="dimmed">
          The tracker sent no extra parameters.
        </Text>
      )}
    </Section>
  );
}

/** /admin/leads/:id: one call with its timeline, recording, money, disputes and history. */
export function LeadDetailPage() {
  const query = useRouteLead(useLead);
  return (
    <LeadDetailScreen
      query={query}
      back={{ to: adminPaths.leads, label: 'All leads' }}
      parts={(l) => ({
        subtitle: (
          <Anchor
            component={Link}
            to={adminPaths.publisher(l.publisher_id)}
            size="sm"
            underline="always"
          >
            {l.publisher_name || l.publisher_email}
          </Anchor>
        ),
        caller: l.caller ? formatPhone(l.caller) : null,
        trackingNumber: l.tracking_number ? formatPhone(l.tracking_number) : null,
        moreCallFields: (
          <>
            <Field label="Integration">{l.integration_name ?? 'Recorded by hand'}</Field>
            <Field label="Tracker call id">{l.external_call_id}</Field>
            <Field label="Script version">
              {l.script_version === null
                ? 'No script'
                : `Version ${l.script_version}${l.script_unacknowledged ? ' (not acknowledged in time)' : ''}`}
            </Field>
          </>
        ),
        moneyTitle: 'Money',
        money: <LeadMoney lead={l} />,
        recordingActions: <RecordingUpload lead={l} />,
        disputes: {
          title: 'Disputes',
          show: l.disputes.length > 0,
          openFooter: (d) => <DisputeActions dispute={d} />,
        },
        moreSections: (
          <>
            <LeadFraudSection leadId={l.id} />
            <LeadTags tags={l.tags} />
          </>
        ),
      })}
    />
  );
}
