import type { PublisherIo } from '@contract/publisher.ts';
import { Button, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { ListSearch } from '@/components/list-filters.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { StatusBadge, StatusCardHead } from '@/components/status-badge.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useIos } from '@/features/publisher/api/list-ios.ts';
import { formatDate } from '@/lib/format.ts';
import { toast } from '@/lib/notify.ts';
import { downloadFile, isExpired } from './signed-file.ts';

const ERROR_TITLE = 'Error loading IOs';

/** Sortable columns (the server's sort keys) and the direction of their first click. */
const sorts = { offer: 'asc', created_at: 'desc' } as const;
const filterNames = ['q'] as const;

/**
 * /dashboard/ios: 'Campaign IOs' of the publisher's approved applications, with download;
 * searched by offer title, sorted and paged on the server.
 */
export function IosPage() {
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const ios = useIos({ ...list.query, ...list.activeFilters });

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

  /** The Download button of an IO (its row's and its card's). */
  const downloadProps = (io: PublisherIo) => ({
    variant: 'light',
    leftSection: <IconDownload size={14} />,
    onClick: () => void handleDownload(io),
    'aria-label': `Download IO for ${io.offer_title}`,
  });

  const columns: DataTableColumn<PublisherIo>[] = [
    { accessor: 'offer', title: 'Offer', sortable: true, render: (io) => io.offer_title },
    {
      accessor: 'created_at',
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
        <Button size="xs" {...downloadProps(io)}>
          Download
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Title order={1}>Campaign IOs</Title>
      <ListSearch list={list} label="Search by offer" placeholder="Offer title" w={320} />
      <PagedTable<PublisherIo>
        label="Campaign IOs"
        columns={columns}
        rowId={(io) => io.application_id}
        list={list}
        query={ios}
        errorTitle={ERROR_TITLE}
        emptyTitle={list.filtered ? 'No IOs match your search.' : 'No campaign IOs yet.'}
        emptyText={
          list.filtered
            ? 'Try another offer title.'
            : 'When an admin approves one of your applications and uploads its insertion order, you can download it here.'
        }
        renderCard={(io) => (
          <Stack gap={6}>
            <StatusCardHead title={io.offer_title} status={io.status} />
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {formatDate(io.applied_at)} · {io.file?.file_name ?? '—'}
            </Text>
            <Button {...downloadProps(io)}>Download</Button>
          </Stack>
        )}
      />
    </Stack>
  );
}
