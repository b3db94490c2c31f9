import type { AdminCampaign } from '@contract/admin.ts';
import { Menu, NumberInput, type NumberInputProps, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { FormModal } from '@/components/form-modal.tsx';
import { MoreMenu } from '@/components/more-menu.tsx';
import { OfferSelect } from '@/components/search-select.tsx';
import {
  useApproveCampaign,
  useCampaignMove,
  useRejectCampaign,
} from '@/features/admin/campaigns/api/campaign-actions.ts';
import { failedToast, toast } from '@/lib/notify.ts';

/**
 * A campaign row's actions (issue 31): approve (the offer it buys, its price per billable call,
 * billable duration and daily cap) or reject with a reason while pending; pause with a reason,
 * resume or end once approved.
 */
export function CampaignActions({ c }: { c: AdminCampaign }) {
  const [dialog, setDialog] = useState<'approve' | 'reject' | 'pause' | null>(null);
  return (
    <>
      <MoreMenu label={`Actions for ${c.name}`}>
        {c.status === 'pending' ? (
          <>
            <Menu.Item onClick={() => setDialog('approve')}>Approve…</Menu.Item>
            <Menu.Item color="red" onClick={() => setDialog('reject')}>
              Reject…
            </Menu.Item>
          </>
        ) : null}
        {c.status === 'active' ? (
          <Menu.Item onClick={() => setDialog('pause')}>Pause…</Menu.Item>
        ) : null}
        {c.status === 'paused' ? <MoveItem c={c} move="resume" done="resumed" /> : null}
        {c.status === 'active' || c.status === 'paused' ? (
          <MoveItem c={c} move="end" done="ended" color="red" />
        ) : null}
      </MoreMenu>
      <ApproveDialog c={c} opened={dialog === 'approve'} onClose={() => setDialog(null)} />
      <ReasonModal
        c={c}
        kind={dialog === 'reject' ? 'reject' : 'pause'}
        opened={dialog === 'reject' || dialog === 'pause'}
        onClose={() => setDialog(null)}
      />
    </>
  );
}

/** Resume or end: one click, the toast says what happened or why not. */
function MoveItem(props: {
  c: AdminCampaign;
  move: 'resume' | 'end';
  done: string;
  color?: string;
}) {
  const m = useCampaignMove(props.move);
  const label = props.move === 'end' ? 'End' : 'Resume';
  return (
    <Menu.Item
      color={props.color}
      onClick={() =>
        m.mutate(
          { id: props.c.id },
          {
            onSuccess: () => toast({ title: `Campaign ${props.done}` }),
            onError: failedToast(`Could not ${props.move}`),
          },
        )
      }
    >
      {label}
    </Menu.Item>
  );
}

/** An optional term of the campaign counted in whole units, at least one (seconds, calls). */
function CountInput(props: NumberInputProps) {
  return <NumberInput min={1} allowDecimal={false} {...props} />;
}

function ApproveDialog({
  c,
  opened,
  onClose,
}: {
  c: AdminCampaign;
  opened: boolean;
  onClose: () => void;
}) {
  const approve = useApproveCampaign();
  const [offerId, setOfferId] = useState<string | null>(null);
  const [price, setPrice] = useState<number | string>('');
  const [buffer, setBuffer] = useState<number | string>('');
  const [cap, setCap] = useState<number | string>('');
  const num = (v: number | string) => (v === '' ? null : Number(v));
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={`Approve ${c.name}`}
      dirty={offerId !== null || price !== ''}
      pending={approve.isPending}
      submitLabel="Approve"
      submitDisabled={!offerId || price === ''}
      onSubmit={(e) => {
        e?.preventDefault();
        if (!offerId) return;
        approve.mutate(
          {
            id: c.id,
            offer_id: offerId,
            price_per_call: Number(price),
            buffer_seconds: num(buffer),
            daily_cap: num(cap),
          },
          {
            onSuccess: () => {
              toast({ title: 'Campaign approved' });
              onClose();
            },
            onError: failedToast('Could not approve'),
          },
        );
      }}
    >
      <Stack>
        <Text size="sm">
          {c.buyer_name || c.buyer_email} · budget {c.budget ?? 'none'}
        </Text>
        <OfferSelect
          label="Offer it buys"
          required
          value={offerId}
          onChange={(v) => setOfferId(v)}
        />
        <NumberInput
          label="Price per billable call"
          required
          min={0.01}
          decimalScale={2}
          value={price}
          onChange={setPrice}
        />
        <CountInput label="Billable duration (seconds)" value={buffer} onChange={setBuffer} />
        <CountInput label="Daily cap (billable calls)" value={cap} onChange={setCap} />
      </Stack>
    </FormModal>
  );
}

function ReasonModal({
  c,
  kind,
  opened,
  onClose,
}: {
  c: AdminCampaign;
  kind: 'reject' | 'pause';
  opened: boolean;
  onClose: () => void;
}) {
  const reject = useRejectCampaign();
  const pause = useCampaignMove('pause');
  const [reason, setReason] = useState('');
  const pending = reject.isPending || pause.isPending;
  const finish = (what: string) => ({
    onSuccess: () => {
      toast({ title: `Campaign ${what}` });
      setReason('');
      onClose();
    },
    onError: failedToast(`Could not ${kind}`),
  });
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={kind === 'reject' ? `Reject ${c.name}` : `Pause ${c.name}`}
      dirty={reason !== ''}
      pending={pending}
      size="md"
      submitLabel={kind === 'reject' ? 'Reject' : 'Pause'}
      submitColor={kind === 'reject' ? 'red' : undefined}
      submitDisabled={kind === 'reject' && !reason.trim()}
      onSubmit={(e) => {
        e?.preventDefault();
        if (kind === 'reject') reject.mutate({ id: c.id, reason }, finish('rejected'));
        else pause.mutate({ id: c.id, reason: reason || undefined }, finish('paused'));
      }}
    >
      <Textarea
        label={
          kind === 'reject'
            ? 'Reason (the buyer reads it)'
            : 'Reason (optional, the buyer reads it)'
        }
        required={kind === 'reject'}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        autosize
        minRows={3}
      />
    </FormModal>
  );
}
