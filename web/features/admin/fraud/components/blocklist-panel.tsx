import type { BlockedCaller, BlockedCallerImport } from '@contract/fraud.ts';
import { Alert, Badge, Button, Group, List, Stack, Text } from '@mantine/core';
import { IconBan, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { BlockCallerModal } from '@/components/block-caller-modal.tsx';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { FileUploadButton } from '@/components/file-upload-button.tsx';
import { ListFilters } from '@/components/list-filters.tsx';
import { ListSearch } from '@/components/lists/list-filter-fields.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { useConfirmedAction } from '@/components/use-confirmed-action.ts';
import { useListParams } from '@/components/use-list-params.ts';
import {
  useBlockedCallers,
  useImportBlocked,
  useUnblock,
} from '@/features/admin/fraud/api/fraud.ts';
import { formatDateTime } from '@/lib/format.ts';

const sorts = { created_at: 'desc' } as const;
const filterNames = ['q'] as const;

/**
 * The blocked callers: numbers and prefixes with their reason and expiry; block one, import a
 * CSV (number or prefix, reason, expires_at: all rows or none), unblock.
 */
export function BlocklistPanel() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const query = useBlockedCallers({ ...list.paging, ...list.activeFilters });
  const [adding, setAdding] = useState(false);
  const [importResult, setImportResult] = useState<BlockedCallerImport | null>(null);
  const upload = useImportBlocked();
  const unblock = useUnblock();
  const [removing, setRemoving, removeDialog] = useConfirmedAction(
    (b: BlockedCaller) => unblock.mutateAsync(b.id),
    (b) => ({ title: 'Caller unblocked', description: `${b.value} removed from the blocklist.` }),
    'Failed to unblock',
  );

  const columns: DataTableColumn<BlockedCaller>[] = [
    {
      accessor: 'value',
      title: 'Number or prefix',
      render: (b) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" ff="monospace">
            {b.value}
          </Text>
          {b.kind === 'prefix' ? <Badge size="xs">prefix</Badge> : null}
          {b.active ? null : (
            <Badge size="xs" color="gray">
              expired
            </Badge>
          )}
        </Group>
      ),
    },
    { accessor: 'reason', title: 'Reason' },
    {
      accessor: 'expires_at',
      title: 'Expires',
      render: (b) => (b.expires_at ? formatDateTime(b.expires_at) : 'Never'),
    },
    { accessor: 'created_by_email', title: 'By', render: (b) => b.created_by_email ?? '—' },
    {
      accessor: 'id',
      title: 'Actions',
      textAlign: 'right',
      render: (b) => (
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          leftSection={<IconTrash size={14} />}
          aria-label={`Unblock ${b.value}`}
          onClick={() => setRemoving(b)}
        >
          Unblock
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <ListFilters>
          <ListSearch list={list} name="q" placeholder="Digits of a number or prefix" w={280} />
        </ListFilters>
        <Group>
          <FileUploadButton
            label="Import CSV"
            ariaLabel="Import a CSV of number or prefix, reason, expires_at"
            accept=".csv,text/csv"
            isAllowed={(name) => name.toLowerCase().endsWith('.csv')}
            wrongType={{ title: 'Import Failed', description: 'Choose a CSV file.' }}
            upload={{
              isPending: upload.isPending,
              // The file's per-line errors stay on screen; a clean file gets the done toast.
              mutate: (file: File, o) =>
                upload.mutate(file, {
                  onSuccess: (r) => {
                    setImportResult(r.errors.length ? r : null);
                    if (!r.errors.length) o.onSuccess();
                  },
                  onError: o.onError,
                }),
            }}
            vars={(file) => file}
            done={{ title: 'Callers blocked', description: 'Every line of the file was added.' }}
            failTitle="Import Failed"
          />
          <Button leftSection={<IconBan size={16} />} onClick={() => setAdding(true)}>
            Block caller
          </Button>
        </Group>
      </Group>
      {importResult ? (
        <Alert color="red" title="Nothing was imported: fix these lines and upload again">
          <List size="sm">
            {importResult.errors.map((e) => (
              <List.Item key={e.line}>
                Line {e.line}: {e.message}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      <PagedTable<BlockedCaller>
        label="Blocked callers"
        columns={columns}
        list={{ ...list, sort: '' }}
        query={query}
        phoneCards
        errorTitle="Error loading blocked callers"
        emptyTitle={list.filtered ? 'No entry matches these digits.' : 'No blocked callers.'}
        emptyText="Calls from a blocked number or prefix are recorded and never paid."
      />
      <BlockCallerModal opened={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog {...removeDialog} title="Unblock caller" confirmLabel="Unblock">
        {removing ? (
          <>
            Calls from <b>{removing.value}</b> will be judged by their offer's rules again. Calls
            already rejected stay rejected.
          </>
        ) : null}
      </ConfirmDialog>
    </Stack>
  );
}
