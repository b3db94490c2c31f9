import type { LeadDispute, PublisherLeadDetail } from '@contract/lead-detail.ts';
import { checkUpload, uploadRules } from '@contract/uploads.ts';
import { Button, FileInput, Stack, Text, Textarea } from '@mantine/core';
import { IconFlag, IconMessage, IconPaperclip } from '@tabler/icons-react';
import { useState } from 'react';
import { publisherPaths } from '@/app/routes.ts';
import {
  DisputeMessageField,
  useDisputeMessage,
} from '@/components/lead-detail/dispute-message.tsx';
import { LeadDetailScreen, useRouteLead } from '@/components/lead-detail/lead-detail-screen.tsx';
import { LeadPayout } from '@/components/lead-detail/lead-payout.tsx';
import { useLead, useOpenDispute, useReplyDispute } from '@/features/publisher/api/lead-detail.ts';
import { failedToast, toast } from '@/lib/notify.ts';

const DISPUTE_ACCEPT = '.pdf,.png,.jpg,.jpeg,.mp3';

/** The form that opens a dispute: a message and an optional proof. */
function DisputeForm({ lead }: { lead: PublisherLeadDetail }) {
  const [message, setMessage] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<{ message?: string; file?: string }>({});
  const open = useOpenDispute();

  const handleSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    const text = message.trim();
    if (!text) return setError({ message: 'Please write a message.' });
    if (file && checkUpload(uploadRules.dispute, { file: [file] })) {
      return setError({ file: 'Attach a PDF, PNG, JPG or MP3 file.' });
    }
    open.mutate(
      { id: lead.id, message: text, file },
      {
        onSuccess: () => {
          setMessage('');
          setFile(null);
          toast({
            title: 'Dispute sent',
            description: 'The network team will answer here and by e-mail.',
          });
        },
        onError: failedToast('Submission Failed'),
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Think this call should pay? Tell the network team why; they answer here and by e-mail.
        </Text>
        <Textarea
          label="Why should this lead pay?"
          required
          autosize
          minRows={3}
          maxRows={10}
          value={message}
          error={error.message}
          onChange={(e) => {
            setMessage(e.currentTarget.value);
            setError({});
          }}
        />
        <FileInput
          label="Proof (optional)"
          description="PDF, PNG, JPG or MP3"
          placeholder="Choose a file"
          accept={DISPUTE_ACCEPT}
          clearable
          value={file}
          onChange={(f) => {
            setFile(f);
            setError({});
          }}
          error={error.file}
          leftSection={<IconPaperclip size={16} />}
        />
        <Button
          type="submit"
          leftSection={<IconFlag size={16} />}
          loading={open.isPending}
          style={{ alignSelf: 'flex-start' }}
        >
          Dispute this lead
        </Button>
      </Stack>
    </form>
  );
}

/** The publisher's reply box under their open dispute. */
function ReplyBox({ dispute }: { dispute: LeadDispute }) {
  const box = useDisputeMessage();
  const reply = useReplyDispute();
  const handleSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    const text = box.message.trim();
    if (!text) return box.setError('Please write a message.');
    reply.mutate(
      { id: dispute.id, message: text },
      {
        onSuccess: () => {
          box.setMessage('');
          toast({ title: 'Reply sent' });
        },
        onError: failedToast('Submission Failed'),
      },
    );
  };
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="xs">
        <DisputeMessageField state={box} label="Add a message" />
        <Button
          type="submit"
          variant="default"
          leftSection={<IconMessage size={16} />}
          loading={reply.isPending}
          style={{ alignSelf: 'flex-start' }}
        >
          Send
        </Button>
      </Stack>
    </form>
  );
}

/** /dashboard/leads/:id: one of the publisher's own calls, with its status and any dispute. */
export function LeadDetailPage() {
  const query = useRouteLead(useLead);
  return (
    <LeadDetailScreen
      query={query}
      back={{ to: publisherPaths.leads, label: 'My Leads' }}
      parts={(l) => ({
        caller: l.caller,
        trackingNumber: l.tracking_number,
        moneyTitle: 'Payout',
        money: (
          <Text fz={28} fw={700} lh={1.1} data-testid="lead-payout">
            <LeadPayout payout={l.payout} status={l.status} />
          </Text>
        ),
        disputes: {
          title: 'Dispute',
          show: l.disputes.length > 0 || l.can_dispute,
          openFooter: (d) => <ReplyBox dispute={d} />,
          after: l.can_dispute ? <DisputeForm lead={l} /> : null,
        },
      })}
    />
  );
}
