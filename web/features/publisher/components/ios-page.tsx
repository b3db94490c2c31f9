import { Button, Group, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import type { DataTableColumn, DataTableSortStatus } from 'mantine-datatable';
import { useState } from 'react';
import type { IoSort, PublisherIo } from '../../../../contract/publisher.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { useErrorToast } from '../../../components/use-error-toast.ts';
import { formatDate } from '../../../lib/format.ts';
import { toast } from '../../../lib/notify.ts';
import { useIos } from '../api/list-ios.ts';
import { PagedTable } from './paged-table.tsx';
import { downloadFile, isExpired } from './signed-file.ts';

const ERROR_TITLE = 'Error loading IOs';

/** The server's sort key of each sortable column. */
const sortKeys: Record<string, IoSort> = { offer_title: 'offer', applied_at: 'created_at' };
const NEWEST_FIRST: DataTableSortStatus<PublisherIo> = {
  columnAccessor: 'applied_at',
  direction: 'desc',
};

/**
 * /dashboard/ios: 'Campaign IOs' of the publisher's approved applications, with download;
 * searched by offer title, sorted and paged on the server.
 */
export function IosPage() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [sort, setSort] = useState(NEWEST_FIRST);
  const [search, setSearch] = useState('');
  const [needle] = useDebouncedValue(search.trim(), 300);
  const ios = useIos({
    page,
    page_size: pageSize,
    q: needle || undefined,
    sort: sortKeys[String(sort.columnAccessor)] ?? 'created_at',
    order: sort.direction,
  });
  useErrorToast(ios.error, ERROR_TITLE);

  async function handleDownload(io: PublisherIo) {
    if (!io.file?.url) {
      toast({
        title: 'Download Not Available',
        description: 'There is no file associated with this IO.',
        variant: 'destructive',
      });
      return;
    }
    let file = io.file;
    if (isExpired(file)) {
      // The page was left open past the link's lifetime: ask for a fresh one.
      const fresh = await ios.refetch();
      const again = fresh.data?.items.find((i) => i.application_id === io.application_id);
      if (fresh.error || !again?.file?.url) {
        toast({
          title: fresh.error ? 'Could not get file URL' : 'Download Not Available',
          description: fresh.error?.message ?? 'There is no file associated with this IO.',
          variant: 'destructive',
        });
        return;
      }
      file = again.file;
    }
    downloadFile(file);
  }

  const columns: DataTableColumn<PublisherIo>[] = [
    { accessor: 'offer_title', title: 'Offer', sortable: true },
    {
      accessor: 'applied_at',
      title: 'Date',
      sortable: true,
      render: (io) => formatDate(io.applied_at),
      noWrap: true,
    },
    { accessor: 'status', title: 'Status', render: (io) => <StatusBadge status={io.status} /> },
    {
      accessor: 'file',
      title: 'Document',
      render: (io) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {io.file?.file_name ?? '—'}
        </Text>
      ),
    },
    {
      accessor: 'actions',
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      textAlign: 'right',
      render: (io) => (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconDownload size={14} />}
          onClick={() => void handleDownload(io)}
          aria-label={`Download IO for ${io.offer_title}`}
        >
          Download
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Title order={1}>Campaign IOs</Title>
      <Group>
        <TextInput
          label="Search by offer"
          placeholder="Offer title"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 320 }}
        />
      </Group>
      <PagedTable<PublisherIo>
        label="Campaign IOs"
        columns={columns}
        rowId={(io) => io.application_id}
        records={ios.data?.items}
        total={ios.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={(n) => {
          setPageSize(n);
          setPage(1);
        }}
        loading={ios.isPending}
        fetching={ios.isFetching && !ios.isPending}
        error={ios.error}
        errorTitle={ERROR_TITLE}
        onRetry={() => ios.refetch()}
        emptyTitle={needle ? 'No IOs match your search.' : 'No campaign IOs yet.'}
        emptyText={
          needle
            ? 'Try another offer title.'
            : 'When an admin approves one of your applications and uploads its insertion order, you can download it here.'
        }
        sortStatus={sort}
        onSortStatusChange={(next) => {
          setSort(next);
          setPage(1);
        }}
        renderCard={(io) => (
          <Stack gap={6}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {io.offer_title}
              </Text>
              <StatusBadge status={io.status} />
            </Group>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {formatDate(io.applied_at)} · {io.file?.file_name ?? '—'}
            </Text>
            <Button
              variant="light"
              leftSection={<IconDownload size={14} />}
              onClick={() => void handleDownload(io)}
              aria-label={`Download IO for ${io.offer_title}`}
            >
              Download
            </Button>
          </Stack>
        )}
      />
    </Stack>
  );
}
