import type { PayoutRun } from '@contract/money.ts';
import {
  NachaSettings,
  type PaymentFileList,
  type PaymentFileQuery,
  type PaymentFileSummary,
} from '@contract/payment-files.ts';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  List,
  Modal,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  type TextInputProps,
  Title,
} from '@mantine/core';
import { type ChangeEvent, useState } from 'react';
import { QueryError } from '@/components/lists/query-error.tsx';
import { type ScrollTableHead, TableHeads } from '@/components/scroll-table.tsx';
import { useDownloadPaymentFile, useRunFiles } from '@/features/admin/payouts/api/payment-files.ts';
import { ApiError } from '@/lib/api-client.ts';
import { formatDateTime, formatMoney } from '@/lib/format.ts';
import { toast } from '@/lib/notify.ts';

/** The per-method table's columns. */
const methodHeads: ScrollTableHead[] = [
  'Method',
  { label: 'Payouts', right: true },
  { label: 'Total', right: true },
];

/** The network's bank settings for NACHA files, remembered in this browser only. */
const NACHA_STORAGE_KEY = 'payment-files.nacha';
type NachaForm = Record<
  | 'odfi'
  | 'company_id'
  | 'company_name'
  | 'immediate_destination'
  | 'immediate_destination_name'
  | 'immediate_origin'
  | 'effective_date'
  | 'file_id_modifier',
  string
>;
const REMEMBERED = [
  'odfi',
  'company_id',
  'company_name',
  'immediate_destination',
  'immediate_destination_name',
  'immediate_origin',
] as const;
const EMPTY_NACHA: NachaForm = {
  odfi: '',
  company_id: '',
  company_name: '',
  immediate_destination: '',
  immediate_destination_name: '',
  immediate_origin: '',
  effective_date: '',
  file_id_modifier: '',
};

function loadNacha(): NachaForm {
  try {
    const saved = JSON.parse(localStorage.getItem(NACHA_STORAGE_KEY) ?? '{}') as Partial<NachaForm>;
    const form = { ...EMPTY_NACHA };
    for (const k of REMEMBERED) if (typeof saved[k] === 'string') form[k] = saved[k];
    return form;
  } catch {
    return { ...EMPTY_NACHA };
  }
}

function saveNacha(form: NachaForm) {
  try {
    const kept = Object.fromEntries(REMEMBERED.map((k) => [k, form[k]]));
    localStorage.setItem(NACHA_STORAGE_KEY, JSON.stringify(kept));
  } catch {
    /* storage full or disabled: the form still works, it is just not remembered */
  }
}

/** The filled-in fields only: empty ones take the server's defaults. */
const nachaQuery = (form: NachaForm): PaymentFileQuery =>
  Object.fromEntries(Object.entries(form).filter(([, v]) => v.trim() !== '')) as PaymentFileQuery;

/** The form's errors from the contract (or the server's 400 details), first message per field. */
function nachaErrors(form: NachaForm): Record<string, string> {
  const result = NachaSettings.safeParse(nachaQuery(form));
  const errors: Record<string, string> = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? 'odfi');
      errors[key] ??= issue.message;
    }
  }
  return errors;
}

const who = (l: PaymentFileSummary['left_out'][number]) =>
  l.publisher_name ? `${l.publisher_name} (${l.publisher_email})` : l.publisher_email;

/** The NACHA file's header fields, in the form's order, with the line under each. */
const nachaFields: ({ name: keyof NachaForm } & TextInputProps)[] = [
  {
    name: 'odfi',
    label: 'ODFI routing number',
    required: true,
    description: "Your bank's 9-digit routing number",
    inputMode: 'numeric',
  },
  {
    name: 'company_id',
    label: 'Company ID',
    required: true,
    description: 'Often 1 followed by your EIN',
  },
  {
    name: 'company_name',
    label: 'Company name',
    description: "On statements (16 characters); empty: the network's name",
  },
  {
    name: 'effective_date',
    type: 'date',
    label: 'Effective date',
    description: 'Empty: the next weekday',
  },
  {
    name: 'immediate_destination',
    label: 'Immediate destination',
    description: 'Routing number the file goes to; empty: the ODFI',
    inputMode: 'numeric',
  },
  {
    name: 'immediate_destination_name',
    label: 'Immediate destination name',
    description: "Your bank's name (23 characters)",
  },
  {
    name: 'immediate_origin',
    label: 'Immediate origin',
    description: 'As your bank asks (10 characters); empty: the company ID',
  },
  {
    name: 'file_id_modifier',
    label: 'File ID modifier',
    description: 'A, B, C… for several files on one day; empty: A',
    maxLength: 1,
  },
];

function NachaFields({
  form,
  errors,
  onChange,
}: {
  form: NachaForm;
  errors: Record<string, string>;
  onChange: (form: NachaForm) => void;
}) {
  const field = (key: keyof NachaForm) => ({
    value: form[key],
    error: errors[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) =>
      onChange({ ...form, [key]: e.currentTarget.value }),
  });
  return (
    <Stack gap="xs">
      <Text size="xs" c="dimmed">
        Your bank (the ODFI) gives these when it sets up ACH origination. They stay in this browser
        for the next file.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {nachaFields.map(({ name, ...props }) => (
          <TextInput key={name} size="xs" {...props} {...field(name)} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** One file of the run: what it carries, who it leaves out, its download. */
function FileCard({ runId, file }: { runId: string; file: PaymentFileSummary }) {
  const download = useDownloadPaymentFile();
  const [error, setError] = useState<string | null>(null);
  const [nacha, setNacha] = useState<NachaForm>(loadNacha);
  const [nachaShown, setNachaShown] = useState<Record<string, string>>({});
  const isNacha = file.format === 'nacha';
  const leftOut = file.left_out.length;

  const start = (skipIncomplete: boolean) => {
    setError(null);
    let query: PaymentFileQuery = skipIncomplete ? { skip_incomplete: 'true' } : {};
    if (isNacha) {
      const errors = nachaErrors(nacha);
      setNachaShown(errors);
      if (Object.keys(errors).length) return;
      saveNacha(nacha);
      query = { ...query, ...nachaQuery(nacha) };
    }
    download.mutate(
      { runId, format: file.format, query, fileName: file.file_name },
      {
        onSuccess: () =>
          toast({
            title: 'File downloaded',
            description: `${file.file_name}: ${file.count} payout${file.count === 1 ? '' : 's'}, ${formatMoney(file.total)}.`,
          }),
        onError: (err) => {
          if (err instanceof ApiError && err.status === 400 && err.details) {
            setNachaShown(
              Object.fromEntries(Object.entries(err.details).map(([k, v]) => [k, v[0] ?? ''])),
            );
          }
          setError(err.message);
        },
      },
    );
  };

  return (
    <Card withBorder padding="md" radius="md" component="section" aria-label={file.label}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={0}>
            <Text fw={600}>{file.label}</Text>
            <Text size="sm" c="dimmed">
              {file.count} payout{file.count === 1 ? '' : 's'}, {formatMoney(file.total)}
              {file.spec_url ? (
                <>
                  {' · '}
                  <Anchor
                    href={file.spec_url}
                    target="_blank"
                    rel="noreferrer"
                    size="sm"
                    c="blue.9"
                  >
                    Format specification
                  </Anchor>
                </>
              ) : null}
            </Text>
          </Stack>
          <Text size="xs" c="dimmed" ff="monospace">
            {file.file_name}
          </Text>
        </Group>
        {leftOut ? (
          <Alert color="orange" title={`${leftOut} left out of this file`}>
            <Stack gap={4}>
              <Text size="sm">
                Their payment details miss what the file needs. Ask them to complete them, or
                download the file without them and pay them another way.
              </Text>
              <List size="sm" spacing={2}>
                {file.left_out.map((l) => (
                  <List.Item key={l.payout_id}>
                    {who(l)}, {formatMoney(l.amount)}: {l.reason}
                  </List.Item>
                ))}
              </List>
            </Stack>
          </Alert>
        ) : null}
        {isNacha && file.count > 0 ? (
          <NachaFields form={nacha} errors={nachaShown} onChange={setNacha} />
        ) : null}
        {error ? (
          <Alert color="red" title="Download failed">
            {error}
          </Alert>
        ) : null}
        <Group>
          {file.count === 0 ? (
            <Text size="sm" c="dimmed">
              No payout can go in this file.
            </Text>
          ) : leftOut ? (
            <Button
              size="xs"
              variant="light"
              loading={download.isPending}
              onClick={() => start(true)}
            >
              Download without the {leftOut} left out
            </Button>
          ) : (
            <Button size="xs" loading={download.isPending} onClick={() => start(false)}>
              Download
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

/** The run's payouts per method, and one card per payment file. */
function PaymentFilesSection({ runId, list }: { runId: string; list: PaymentFileList }) {
  return (
    <Stack gap="md" component="section" aria-labelledby="payment-files-title">
      <Title order={3} size="h5" id="payment-files-title">
        Payment files
      </Title>
      <Table striped aria-label="Payouts per method">
        <TableHeads heads={methodHeads} />
        <Table.Tbody>
          {list.methods.map((m) => (
            <Table.Tr key={m.method ?? 'none'}>
              <Table.Td>{m.label}</Table.Td>
              <Table.Td ta="right">{m.count}</Table.Td>
              <Table.Td ta="right">{formatMoney(m.total)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        Each processor's file carries the payouts of its method; checks, other methods and
        publishers without details are in the generic CSV only.
      </Text>
      {list.files.map((f) => (
        <FileCard key={f.format} runId={runId} file={f} />
      ))}
    </Stack>
  );
}

/** A run's payment files: PayPal, Wise, NACHA and the generic CSV, with counts and totals. */
export function PaymentFilesModal({
  run,
  onClose,
}: {
  run: PayoutRun | null;
  onClose: () => void;
}) {
  const files = useRunFiles(run?.id ?? null);
  return (
    <Modal
      opened={run !== null}
      onClose={onClose}
      size="xl"
      title={run ? `Payout run of ${formatDateTime(run.created_at)}` : 'Payout run'}
    >
      {!run ? null : files.error ? (
        <QueryError title="Error loading the payment files" query={files} />
      ) : files.isPending ? (
        <Skeleton height={240} />
      ) : (
        <Stack gap="md">
          <Text size="sm">
            {files.data.count} payout{files.data.count === 1 ? '' : 's'},{' '}
            {formatMoney(files.data.total)} in total
            {run.status === 'paid' ? ' (already marked paid: do not send these files again)' : ''}.
          </Text>
          <PaymentFilesSection runId={run.id} list={files.data} />
        </Stack>
      )}
    </Modal>
  );
}
