import { Button, Group, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import type { PublisherIo } from '../../../../contract/publisher.ts';
import { useErrorToast } from '../../../components/query-error-state.tsx';
import { formatDate } from '../../../lib/format.ts';
import { toast } from '../../../lib/notify.ts';
import { useIos } from '../api/list-ios.ts';
import { PagedTable } from './paged-table.tsx';
import { downloadFile, isExpired } from './signed-file.ts';
import { StatusBadge } from './status-badge.tsx';

const ERROR_TITLE = 'Error loading IOs';

function compareIos(a: PublisherIo, b: PublisherIo, column: string): number {
  return column === 'offer_title'
    ? a.offer_title.localeCompare(b.offer_title)
    : a.applied_at.localeCompare(b.applied_at);
}

/** /dashboard/ios: 'Campaign IOs' of the publisher's approved applications, with download. */
export function IosPage() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [search, setSearch] = useState('');
  const ios = useIos({ page, page_size: pageSize });
  useErrorToast(ios.error, ERROR_TITLE);

  const needle = search.trim().toLowerCase();
  const records = useMemo(
    () => ios.data?.items.filter((io) => io.offer_title.toLowerCase().includes(needle)),
    [ios.data, needle],
  );

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
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', xs: 320 }}
        />
      </Group>
      <PagedTable<PublisherIo>
        label="Campaign IOs"
        columns={columns}
        rowId={(io) => io.application_id}
        records={records}
        total={needle ? (records?.length ?? 0) : (ios.data?.total ?? 0)}
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
        initialSort={{ columnAccessor: 'applied_at', direction: 'desc' }}
        compare={compareIos}
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
