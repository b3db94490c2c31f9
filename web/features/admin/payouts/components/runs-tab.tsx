import type { PayoutRun, RunPreview, RunSelection } from '@contract/money.ts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import { adminPaths } from '@/app/routes.ts';
import { DimmedNote } from '@/components/dimmed-note.tsx';
import { dateColumn } from '@/components/lists/columns.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { type ScrollTableHead, TableHeads } from '@/components/scroll-table.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useApprovedPublishers } from '@/features/admin/payouts/api/list-approved-publishers.ts';
import {
  useConfirmRun,
  useDownloadRunCsv,
  useMarkRunPaid,
  usePreviewRun,
  useRuns,
  useVoidRun,
} from '@/features/admin/payouts/api/money.ts';
import { ApiError } from '@/lib/api-client.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';
import { PaymentFilesModal } from './payment-files.tsx';

const sorts = { created_at: 'desc' } as const;

/** The run preview's columns: the publisher, then the figures of their payout. */
const previewHeads: ScrollTableHead[] = [
  'Publisher',
  ...['Leads', 'Reversals', 'Adjustments', 'Credits', 'Total'].map((label) => ({
    label,
    right: true as const,
  })),
];

export type Picked = { id: string; label: string };

/** Choose publishers (or all owed above the threshold) and a period, preview, then confirm. */
export function NewRunModal({
  opened,
  initial,
  onClose,
}: {
  opened: boolean;
  initial: Picked[];
  /** `recorded`: a run was confirmed. */
  onClose: (recorded: boolean) => void;
}) {
  const [mode, setMode] = useState<'selected' | 'threshold'>('selected');
  const [picked, setPicked] = useState<string[]>(initial.map((p) => p.id));
  const [known, setKnown] = useState<Picked[]>(initial);
  const [search, setSearch] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [preview, setPreview] = useState<RunPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const approved = useApprovedPublishers(search);
  const previewRun = usePreviewRun();
  const confirmRun = useConfirmRun();
  const options = useMemo(() => {
    const all = new Map(known.map((p) => [p.id, p.label]));
    for (const p of approved.data?.items ?? [])
      all.set(p.id, p.name ? `${p.name} (${p.email})` : p.email);
    return [...all].map(([value, label]) => ({ value, label }));
  }, [approved.data, known]);

  const selection = (): RunSelection => ({
    ...(mode === 'threshold' ? { all_above_threshold: true } : { publisher_ids: picked }),
    ...(from ? { period_from: from } : {}),
    ...(to ? { period_to: to } : {}),
  });
  const onError = (err: Error) => {
    setError(
      err instanceof ApiError && err.details
        ? (Object.values(err.details)[0]?.[0] ?? err.message)
        : err.message,
    );
  };
  const close = (recorded = false) => {
    setPreview(null);
    setError(null);
    onClose(recorded);
  };

  return (
    <Modal opened={opened} onClose={() => close()} title="New payout run" size="xl">
      <Stack gap="md">
        <SegmentedControl
          value={mode}
          onChange={(v) => {
            setMode(v as 'selected' | 'threshold');
            setPreview(null);
          }}
          data={[
            { value: 'selected', label: 'Selected publishers' },
            { value: 'threshold', label: 'All owed above threshold' },
          ]}
        />
        {mode === 'selected' ? (
          <MultiSelect
            label="Publishers"
            placeholder="Search approved publishers"
            data={options}
            value={picked}
            onChange={(ids) => {
              setPicked(ids);
              setKnown(
                options
                  .filter((o) => ids.includes(o.value))
                  .map((o) => ({ id: o.value, label: o.label })),
              );
              setPreview(null);
            }}
            searchable
            searchValue={search}
            onSearchChange={setSearch}
          />
        ) : null}
        <Group grow>
          {[
            {
              label: 'Leads from',
              help: 'Empty: from the first unpaid lead',
              day: from,
              set: setFrom,
            },
            { label: 'Leads to', help: 'Empty: up to now', day: to, set: setTo },
          ].map((d) => (
            <TextInput
              key={d.label}
              type="date"
              label={d.label}
              description={d.help}
              value={d.day}
              onChange={(e) => {
                // A new day makes the previewed run out of date.
                d.set(e.currentTarget.value);
                setPreview(null);
              }}
            />
          ))}
        </Group>
        {error ? (
          <Alert color="red" title="Cannot run payouts">
            {error}
          </Alert>
        ) : null}
        {preview ? (
          <Stack gap="xs">
            <Table striped aria-label="Preview of the run">
              <TableHeads heads={previewHeads} />
              <Table.Tbody>
                {preview.items.map((i) => (
                  <Table.Tr key={i.publisher_id}>
                    <Table.Td>
                      <Text size="sm">{i.publisher_name ?? i.publisher_email}</Text>
                      <DimmedNote>{i.skipped}</DimmedNote>
                      {i.held ? (
                        <Text size="xs" c="red.9">
                          {i.held}{' '}
                          <Anchor
                            href={adminPaths.publisher(i.publisher_id)}
                            target="_blank"
                            rel="noopener"
                            size="xs"
                            underline="always"
                            c="inherit"
                            fw={600}
                          >
                            Review or release
                          </Anchor>
                        </Text>
                      ) : null}
                      {i.released ? (
                        <Text size="xs" c="orange.9">
                          Hold released by {i.released.by_email ?? 'an admin'}: {i.released.note}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td ta="right">
                      {i.leads} · {formatMoney(i.leads_amount)}
                    </Table.Td>
                    <Table.Td ta="right">{formatMoney(i.reversals_amount)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(i.adjustments_amount)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(i.credit_amount)}</Table.Td>
                    <Table.Td ta="right" fw={700}>
                      {i.skipped ? (
                        '—'
                      ) : i.held ? (
                        <Text
                          span
                          size="sm"
                          c="dimmed"
                          td="line-through"
                          title="Held: not in this run"
                        >
                          {formatMoney(i.total)}
                        </Text>
                      ) : (
                        formatMoney(i.total)
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Text fw={700} aria-live="polite">
              {preview.payouts} payout{preview.payouts === 1 ? '' : 's'},{' '}
              {formatMoney(preview.total)} in total
            </Text>
            {preview.held ? (
              <Text size="sm" c="red.9">
                {preview.held} publisher{preview.held === 1 ? '' : 's'} held (
                {formatMoney(preview.held_total)}): not in this run until released or fixed.
              </Text>
            ) : null}
          </Stack>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => close()}>
            Cancel
          </Button>
          <Button
            variant="light"
            loading={previewRun.isPending}
            onClick={() => {
              setError(null);
              previewRun.mutate(selection(), { onSuccess: setPreview, onError });
            }}
          >
            Preview
          </Button>
          <Button
            disabled={!preview || preview.payouts === 0}
            loading={confirmRun.isPending}
            onClick={() =>
              confirmRun.mutate(selection(), {
                onSuccess: (run) => {
                  toast({
                    title: 'Payout run recorded',
                    description: `${run.payouts} payout${run.payouts === 1 ? '' : 's'}, ${formatMoney(run.total)}.`,
                  });
                  close(true);
                },
                onError,
              })
            }
          >
            Confirm run
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Asks one line of text (a reference, a reason) before an action on a run. */
function RunActionModal({
  run,
  kind,
  onClose,
}: {
  run: PayoutRun | null;
  kind: 'paid' | 'void';
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const paid = useMarkRunPaid();
  const voided = useVoidRun();
  const pending = paid.isPending || voided.isPending;
  const done = () => {
    setText('');
    onClose();
  };
  const submit = () => {
    if (!run) return;
    if (kind === 'paid') {
      paid.mutate(
        { id: run.id, body: { reference: text } },
        {
          onSuccess: () => {
            toast({ title: 'Run marked paid', description: `Reference ${text.trim()}.` });
            done();
          },
          onError: failedToast('Update failed'),
        },
      );
    } else {
      voided.mutate(
        { id: run.id, body: { reason: text } },
        {
          onSuccess: () => {
            toast({ title: 'Run void', description: 'Its leads are owed again.' });
            done();
          },
          onError: failedToast('Update failed'),
        },
      );
    }
  };
  return (
    <Modal
      opened={run !== null}
      onClose={pending ? () => {} : done}
      title={kind === 'paid' ? 'Mark the run paid' : 'Void the run'}
    >
      <Stack gap="md">
        <Text size="sm">
          {kind === 'paid'
            ? 'The reference of the bank transfer or payment batch; each payout of the run carries it.'
            : 'Its payouts are removed and their leads and adjustments are owed again.'}
        </Text>
        <TextInput
          label={kind === 'paid' ? 'Payment reference' : 'Reason'}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={done} disabled={pending}>
            Cancel
          </Button>
          <Button color={kind === 'void' ? 'red' : undefined} loading={pending} onClick={submit}>
            {kind === 'paid' ? 'Mark paid' : 'Void run'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const STATUS_COLOR = { recorded: 'blue', paid: 'teal', void: 'gray' } as const;

/** Admin → Payouts → Payout runs: every run, its CSV for the bank, paid and void. */
export function RunsTab({ onNewRun }: { onNewRun: () => void }) {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts });
  const query = useRuns(list.query);
  const csv = useDownloadRunCsv();
  const [action, setAction] = useState<{ run: PayoutRun; kind: 'paid' | 'void' } | null>(null);
  const [filesOf, setFilesOf] = useState<PayoutRun | null>(null);

  const columns: DataTableColumn<PayoutRun>[] = [
    dateColumn('created_at', 'Date', (r) => r.created_at, {
      sortable: true,
      format: formatDateTime,
    }),
    {
      accessor: 'kind',
      title: 'Kind',
      render: (r) => (r.kind === 'manual' ? 'Manual payout' : 'Run'),
    },
    {
      accessor: 'period_from',
      title: 'Leads of',
      render: (r) =>
        r.period_from || r.period_to
          ? `${r.period_from ?? '…'} – ${r.period_to ?? '…'}`
          : 'All unpaid',
      noWrap: true,
    },
    { accessor: 'payouts', title: 'Payouts', textAlign: 'right' },
    {
      accessor: 'total',
      title: 'Total',
      textAlign: 'right',
      render: (r) => formatMoney(r.total),
      noWrap: true,
    },
    {
      accessor: 'status',
      title: 'Status',
      render: (r) => (
        <Stack gap={0}>
          <Badge color={STATUS_COLOR[r.status]} variant="light">
            {r.status === 'recorded'
              ? 'Recorded, not yet paid'
              : r.status === 'paid'
                ? 'Paid'
                : 'Void'}
          </Badge>
          {r.reference ? (
            <Text size="xs" c="dimmed">
              Ref. {r.reference}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'id',
      title: 'Actions',
      render: (r) => (
        <Group gap={6} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="light"
            disabled={r.status === 'void'}
            onClick={() => csv.mutate(r.id, { onError: failedToast('Download failed') })}
            aria-label={`Export the run of ${formatDateTime(r.created_at)} as CSV`}
          >
            Export CSV
          </Button>
          <Button
            size="compact-sm"
            variant="light"
            disabled={r.status === 'void'}
            onClick={() => setFilesOf(r)}
            aria-label={`Payment files of the run of ${formatDateTime(r.created_at)}`}
          >
            Payment files
          </Button>
          {r.status === 'recorded' ? (
            <>
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => setAction({ run: r, kind: 'paid' })}
              >
                Mark paid
              </Button>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                onClick={() => setAction({ run: r, kind: 'void' })}
              >
                Void
              </Button>
            </>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <Group justify="flex-end">
        <Button onClick={onNewRun}>New payout run</Button>
      </Group>
      <PagedTable<PayoutRun>
        label="Payout runs"
        columns={columns}
        list={list}
        query={query}
        phoneCards
        errorTitle="Error loading payouts"
        emptyTitle="No payout runs yet."
        emptyText="A run pays the selected publishers what they are owed, in one go."
      />
      <PaymentFilesModal run={filesOf} onClose={() => setFilesOf(null)} />
      <RunActionModal
        run={action?.run ?? null}
        kind={action?.kind ?? 'paid'}
        onClose={() => setAction(null)}
      />
    </Stack>
  );
}
