import {
  IMPORT_MAX_BYTES,
  type ImportField,
  type ImportMapping,
  importFieldLabels,
  importFields,
  type LeadImport,
  requiredImportFields,
} from '@contract/lead-actions.ts';
import {
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  List,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconFileTypeCsv } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { ScrollTable } from '@/components/scroll-table.tsx';
import {
  useLeadImport,
  useStartLeadImport,
  useUploadLeadImport,
} from '@/features/admin/leads/api/lead-imports.ts';
import { apiCall } from '@/lib/api-client.ts';
import { apiRoutes } from '@/lib/api-routes.ts';
import { formatCount } from '@/lib/format.ts';
import { failedToast, toast } from '@/lib/notify.ts';

const MB = 1024 * 1024;
const DEFAULT_INTEGRATION = '';

const sizeText = (bytes: number) =>
  bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The integrations a file's calls can belong to (the default is "CSV import"). */
function useIntegrationOptions() {
  return useQuery({
    queryKey: ['admin', 'integrations', 'list', { page_size: 200, for: 'import' }],
    queryFn: () => apiCall(apiRoutes.admin.integrations, { query: { page_size: 200 } }),
  });
}

/** /admin/leads/import: upload a CSV, map its columns, check it (dry run), import it. */
export function LeadImportPage() {
  const [params, setParams] = useSearchParams();
  const importId = params.get('import');
  const upload = useUploadLeadImport();
  const [uploaded, setUploaded] = useState(0);
  const job = useLeadImport(importId);

  async function handleFile(file: File | null) {
    if (!file) return;
    if (file.size > IMPORT_MAX_BYTES) {
      toast({
        title: 'Upload failed',
        description: `The file is larger than ${IMPORT_MAX_BYTES / MB} MB. Split it into smaller files and import them one after another.`,
        variant: 'destructive',
      });
      return;
    }
    setUploaded(0);
    upload.mutate(
      { file, onProgress: setUploaded },
      {
        onSuccess: (made) => setParams({ import: made.id }),
        onError: failedToast('Upload failed'),
      },
    );
  }

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={adminPaths.leads} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          Leads
        </Group>
      </Anchor>
      <PageHeader
        title="Import Leads"
        description="Move calls from another system: upload a CSV, map its columns, check it, then import it. Importing the same file again changes nothing."
      />
      {!importId || job.error ? (
        <Paper withBorder p="lg" radius="md">
          <Stack gap="sm">
            {job.error ? (
              <Alert color="red" title="This import cannot be opened">
                {job.error.message}
              </Alert>
            ) : null}
            <FileInput
              label="CSV file"
              description={`UTF-8, comma, semicolon or tab separated, a header row; at most ${IMPORT_MAX_BYTES / MB} MB.`}
              placeholder="Choose a .csv file"
              accept=".csv,text/csv"
              leftSection={<IconFileTypeCsv size={16} aria-hidden />}
              onChange={handleFile}
              disabled={upload.isPending}
              clearable={false}
              value={null}
            />
            {upload.isPending ? (
              <Progress value={uploaded} aria-label="Upload progress" animated />
            ) : null}
          </Stack>
        </Paper>
      ) : job.data ? (
        <ImportSteps job={job.data} onRestart={() => setParams({})} />
      ) : null}
    </Stack>
  );
}

function ImportSteps({ job, onRestart }: { job: LeadImport; onRestart: () => void }) {
  const start = useStartLeadImport();
  const integrations = useIntegrationOptions();
  const [mapping, setMapping] = useState<ImportMapping>(job.mapping ?? job.suggested_mapping);
  const [integration, setIntegration] = useState(job.integration_id ?? DEFAULT_INTEGRATION);
  // A new file starts from its own suggested mapping.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when another import opens
  useEffect(() => {
    setMapping(job.mapping ?? job.suggested_mapping);
    setIntegration(job.integration_id ?? DEFAULT_INTEGRATION);
  }, [job.id]);
  const running = job.status === 'checking' || job.status === 'importing';
  const missing = requiredImportFields.filter((f) => !mapping[f]);
  const columnOptions = job.header.filter(Boolean).map((h) => ({ value: h, label: h }));
  const integrationOptions = [
    { value: DEFAULT_INTEGRATION, label: 'CSV import (default)' },
    ...(integrations.data?.items ?? [])
      .filter((i) => i.name.toLowerCase() !== 'csv import')
      .map((i) => ({ value: i.id, label: i.name })),
  ];
  const onError = (err: Error) => failedToast('Import failed')(err);
  const check = () =>
    start.mutate(
      {
        id: job.id,
        check: {
          mapping,
          ...(integration ? { integration_id: integration } : {}),
        },
      },
      { onError },
    );
  const valid = (job.would_create ?? 0) + (job.would_update ?? 0) + (job.unchanged ?? 0);

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md">
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Title order={2} fz="lg">
                1. Columns of {job.filename}
              </Title>
              <Text size="sm" c="dimmed">
                {`${formatCount(job.row_count)} rows, ${sizeText(job.size_bytes)}. Publisher: our id, e-mail or the tracker's id; offer: our id or the tracker's id.`}
              </Text>
            </Stack>
            <Button variant="subtle" onClick={onRestart} disabled={running}>
              Choose another file
            </Button>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
            {importFields.map((field: ImportField) => (
              <Select
                key={field}
                label={importFieldLabels[field]}
                withAsterisk={requiredImportFields.includes(field)}
                placeholder="Not in the file"
                data={columnOptions}
                value={mapping[field] ?? null}
                onChange={(v) => setMapping({ ...mapping, [field]: v })}
                clearable={!requiredImportFields.includes(field)}
                disabled={running}
                searchable
              />
            ))}
            <Select
              label="Calls came from"
              description="Call, publisher and offer ids are this tracker's."
              data={integrationOptions}
              value={integration}
              onChange={(v) => setIntegration(v ?? DEFAULT_INTEGRATION)}
              allowDeselect={false}
              disabled={running}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            {missing.length ? (
              <Text size="sm" c="red">
                {`Choose a column for: ${missing.map((f) => importFieldLabels[f]).join(', ')}.`}
              </Text>
            ) : null}
            <Button
              onClick={check}
              loading={start.isPending && Boolean(start.variables?.check)}
              disabled={running || missing.length > 0 || job.status === 'imported'}
              variant={job.status === 'checked' ? 'default' : 'filled'}
            >
              {job.status === 'checked' ? 'Check again' : 'Check file'}
            </Button>
          </Group>
        </Stack>
      </Paper>

      {running ? (
        <Paper withBorder p="lg" radius="md">
          <Stack gap="xs">
            <Text fw={600} role="status">
              {`${job.status === 'checking' ? 'Checking' : 'Importing'}… ${formatCount(job.processed_rows)} of ${formatCount(job.row_count)} rows`}
            </Text>
            <Progress
              value={job.row_count ? (job.processed_rows / job.row_count) * 100 : 0}
              aria-label={job.status === 'checking' ? 'Check progress' : 'Import progress'}
              animated
            />
          </Stack>
        </Paper>
      ) : null}

      {job.status === 'failed' && job.message ? (
        <Alert color="red" title="The file could not be processed">
          {job.message}
        </Alert>
      ) : null}

      {job.status === 'checked' || job.status === 'imported' ? (
        <Paper withBorder p="lg" radius="md">
          <Stack gap="md">
            <Title order={2} fz="lg">
              {job.status === 'imported' ? '3. Imported' : '2. Check (nothing imported yet)'}
            </Title>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
              <Figure
                label={job.status === 'imported' ? 'Created' : 'Would be created'}
                value={job.status === 'imported' ? job.created : job.would_create}
              />
              <Figure
                label={job.status === 'imported' ? 'Updated' : 'Would be updated'}
                value={job.status === 'imported' ? job.updated : job.would_update}
              />
              <Figure label="Unchanged" value={job.unchanged} />
              <Figure label="Rows with errors" value={job.error_rows} danger />
            </SimpleGrid>
            {job.errors.length ? <ErrorTable job={job} /> : null}
            {job.status === 'checked' ? (
              <Group justify="flex-end" gap="sm">
                {job.error_rows ? (
                  <Text size="sm" c="dimmed">
                    Rows with errors are skipped; fix them and import the file again later.
                  </Text>
                ) : null}
                <Button
                  onClick={() => start.mutate({ id: job.id }, { onError })}
                  disabled={valid === 0}
                >
                  {`Import ${formatCount(valid)} row${valid === 1 ? '' : 's'}`}
                </Button>
              </Group>
            ) : (
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={onRestart}>
                  Import another file
                </Button>
                <Button component={Link} to={adminPaths.leads}>
                  Go to leads
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}

function Figure({
  label,
  value,
  danger,
}: {
  label: string;
  value: number | null;
  danger?: boolean;
}) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz="xl" c={danger && value ? 'red.8' : undefined}>
        {formatCount(value ?? 0)}
      </Text>
    </Paper>
  );
}

/** The errors of each line together, lines in file order (a row lists all that is wrong). */
export function errorsByLine(errors: LeadImport['errors']) {
  const lines = new Map<number, LeadImport['errors']>();
  for (const e of errors) lines.set(e.line, [...(lines.get(e.line) ?? []), e]);
  return [...lines].map(([line, list]) => ({ line, errors: list }));
}

export function ErrorTable({ job }: { job: LeadImport }) {
  const lines = errorsByLine(job.errors);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        {lines.length < (job.error_rows ?? 0)
          ? `The first ${formatCount(lines.length)} of ${formatCount(job.error_rows ?? 0)} rows with errors`
          : 'Rows with errors'}
      </Text>
      <ScrollTable
        count={lines.length}
        empty="No row has errors."
        minWidth={520}
        heads={[{ label: 'Line', w: 70 }, 'Problems']}
        striped
        withTableBorder
        aria-label="Rows with errors"
      >
        {lines.map(({ line, errors }) => (
          <Table.Tr key={line}>
            <Table.Td style={{ verticalAlign: 'top' }}>{line}</Table.Td>
            <Table.Td>
              <List size="sm" spacing={2}>
                {errors.map((e) => (
                  <List.Item key={`${e.column}-${e.message}`}>
                    {e.column ? <Text span fw={600} size="sm">{`${e.column}: `}</Text> : null}
                    {e.message}
                  </List.Item>
                ))}
              </List>
            </Table.Td>
          </Table.Tr>
        ))}
      </ScrollTable>
    </Stack>
  );
}
