import { documentStatuses, type SignatureDocument } from '@contract/documents.ts';
import { Button, Group, NumberInput, Paper, Text } from '@mantine/core';
import { IconFileText, IconMailForward, IconSend, IconShieldCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { SelectionBar } from '@/components/bulk-decision-bar.tsx';
import { publisherColumn } from '@/components/lists/columns.tsx';
import { ListSearchAndStatus } from '@/components/lists/list-filter-fields.tsx';
import { ListPage } from '@/components/lists/list-page.tsx';
import { DocumentTemplatesModal } from '@/components/signatures/document-templates-modal.tsx';
import { SendDocumentModal } from '@/components/signatures/send-document-modal.tsx';
import { signatureColumns } from '@/components/signatures/signature-columns.tsx';
import {
  documentSettingsHooks,
  useRemindDocuments,
  useSignatureList,
} from '@/components/signatures/signatures-api.ts';
import { VerifyDocumentModal } from '@/components/signatures/verify-document-modal.tsx';
import { statusOptions } from '@/components/status-badge.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { failedToast, toast } from '@/lib/notify.ts';

const sorts = { sent_at: 'desc', signed_at: 'desc', expires_at: 'asc' } as const;
const filterNames = ['q', 'status'] as const;

/** Settings → "Sign again every N months" (empty: signatures never expire). */
function ResignSetting() {
  const current = documentSettingsHooks.useGet();
  const save = documentSettingsHooks.useSave();
  const [months, setMonths] = useState<number | string>('');
  useEffect(() => {
    if (current.data) setMonths(current.data.resign_months ?? '');
  }, [current.data]);
  const value = months === '' ? null : Number(months);
  return (
    <Paper withBorder p="sm" radius="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NumberInput
          label="Agreements are signed again every (months)"
          description="Empty: a signature does not expire. Reminders go 30, 7 and 1 days before."
          value={months}
          onChange={setMonths}
          min={1}
          max={120}
          allowDecimal={false}
          w={340}
        />
        <Button
          variant="light"
          loading={save.isPending}
          disabled={current.data?.resign_months === value}
          onClick={() =>
            save.mutate(
              { resign_months: value },
              {
                onSuccess: () =>
                  toast({ title: 'Settings Saved', description: 'Re-signing period saved.' }),
                onError: failedToast('Save Failed'),
              },
            )
          }
        >
          Save
        </Button>
      </Group>
    </Paper>
  );
}

/**
 * /admin/signatures: every agreement and IO sent for signature (sent, viewed, signed, expired;
 * superseded versions when filtered for), reminders for the picked ones, sending a new one, and
 * the check of a signed PDF.
 */
export function SignaturesPage() {
  const list = useListParams({ sort: 'sent_at', order: 'desc', sorts }, filterNames);
  const query = useSignatureList({
    ...list.query,
    ...(list.filters.q ? { q: list.filters.q } : {}),
    ...(list.filters.status ? { status: list.filters.status as SignatureDocument['status'] } : {}),
  });
  const remind = useRemindDocuments();
  const [picked, setPicked] = useState<SignatureDocument[]>([]);
  const [sending, setSending] = useState(false);
  const [checking, setChecking] = useState(false);
  const [editing, setEditing] = useState(false);

  const sendReminders = () =>
    remind.mutate(
      picked.map((d) => d.id),
      {
        onSuccess: (r) => {
          setPicked([]);
          toast({
            title: 'Reminders Sent',
            description: `${r.reminded} reminder${r.reminded === 1 ? '' : 's'} sent${r.skipped ? `; ${r.skipped} signed and not due skipped` : ''}.`,
          });
        },
        onError: failedToast('Reminders Failed'),
      },
    );

  const [doc, ...rest] = signatureColumns();
  return (
    <ListPage<SignatureDocument>
      title="Signatures"
      description="Agreements and IOs sent to publishers for their signature: who has read, signed or let a signature expire."
      noun="documents"
      actions={
        <>
          <Button
            variant="default"
            leftSection={<IconFileText size={16} />}
            onClick={() => setEditing(true)}
          >
            Templates
          </Button>
          <Button
            variant="default"
            leftSection={<IconShieldCheck size={16} />}
            onClick={() => setChecking(true)}
          >
            Check a signed PDF
          </Button>
          <Button leftSection={<IconSend size={16} />} onClick={() => setSending(true)}>
            Send for signature
          </Button>
        </>
      }
      filters={
        <ListSearchAndStatus
          list={list}
          search="Document, publisher or email"
          statuses={statusOptions(documentStatuses)}
        />
      }
      above={
        <>
          <ResignSetting />
          {picked.length ? (
            <SelectionBar status={`${picked.length} selected`} onClear={() => setPicked([])}>
              <Button
                size="xs"
                leftSection={<IconMailForward size={14} />}
                loading={remind.isPending}
                onClick={sendReminders}
              >
                Send reminder
              </Button>
            </SelectionBar>
          ) : null}
        </>
      }
      empty="Nothing sent for signature yet."
      columns={[doc!, publisherColumn<SignatureDocument>(), ...rest]}
      list={list}
      query={query}
      selection={{
        selected: picked,
        onChange: setPicked,
        rowLabel: (d) => `Select ${d.title} of ${d.publisher_name || d.publisher_email}`,
      }}
    >
      {sending ? <SendDocumentModal onClose={() => setSending(false)} /> : null}
      {checking ? <VerifyDocumentModal onClose={() => setChecking(false)} /> : null}
      {editing ? <DocumentTemplatesModal onClose={() => setEditing(false)} /> : null}
      <Text size="xs" c="dimmed">
        A signed PDF carries the portal's seal: a PDF reader shows whether it changed since.
      </Text>
    </ListPage>
  );
}
