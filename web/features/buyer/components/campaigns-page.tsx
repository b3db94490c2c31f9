import {
  Button,
  Card,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { IconPlus, IconSearch, IconSpeakerphone } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';
import { QueryErrorState } from '../../../components/query-error-state.tsx';
import { useErrorToast } from '../../../components/use-error-toast.ts';
import { useCampaigns } from '../api/get-campaigns.ts';
import type { CampaignSort } from '../campaign-rows.ts';
import { CAMPAIGN_PAGE_SIZES, CampaignsTable } from './campaigns-table.tsx';
import { CreateCampaignDialog } from './create-campaign-dialog.tsx';

const SKELETON_COLUMNS = [
  'name',
  'goal',
  'audience',
  'location',
  'budget',
  'start',
  'end',
  'created',
];
const SKELETON_ROWS = ['r1', 'r2', 'r3', 'r4', 'r5'];

/** Table-shaped placeholder while the campaigns load (the spec allows no spinner). */
function CampaignsTableSkeleton() {
  return (
    <Card withBorder padding={0} aria-busy="true" aria-label="Loading campaigns">
      <Table.ScrollContainer minWidth={720}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              {SKELETON_COLUMNS.map((column) => (
                <Table.Th key={column}>
                  <Skeleton height={12} width="60%" />
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {SKELETON_ROWS.map((row) => (
              <Table.Tr key={row}>
                {SKELETON_COLUMNS.map((column) => (
                  <Table.Td key={column}>
                    <Skeleton height={12} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** What a buyer without campaigns sees: an invitation to create the first one. */
function NoCampaignsYet({ onCreate }: { onCreate: () => void }) {
  return (
    <Card withBorder padding="xl" radius="md">
      <Stack align="center" gap="sm" py="lg">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconSpeakerphone size={30} stroke={1.6} />
        </ThemeIcon>
        <Title order={2} size="h3" ta="center">
          No campaigns yet
        </Title>
        <Text c="dimmed" ta="center" maw={420}>
          Create your first campaign: tell us its goal, who you want to reach, where, your budget
          and when it runs.
        </Text>
        <Button leftSection={<IconPlus size={18} />} onClick={onCreate} mt="xs">
          Create your first campaign
        </Button>
      </Stack>
    </Card>
  );
}

const NEWEST_FIRST: CampaignSort = { columnAccessor: 'created_at', direction: 'desc' };

/**
 * The campaigns tab: 'Your Campaigns' with search, sorting and paging (done by the server), and
 * the Create Campaign dialog.
 */
export function CampaignsPage() {
  const [dialogOpened, dialog] = useDisclosure(false);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState(NEWEST_FIRST);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(CAMPAIGN_PAGE_SIZES[0]!);
  const campaigns = useCampaigns({
    page,
    page_size: pageSize,
    q: q || undefined,
    sort: sort.columnAccessor,
    order: sort.direction,
  });
  useErrorToast(campaigns.error, 'Error fetching campaigns');

  const isLoading = campaigns.isPending || (campaigns.isError && campaigns.isFetching);
  // The search box stays while a search finds nothing; without one, an empty list is "no campaigns".
  const hasCampaigns = (campaigns.data?.total ?? 0) > 0 || search.trim() !== '' || q !== '';

  let body: ReactNode;
  if (isLoading) {
    body = <CampaignsTableSkeleton />;
  } else if (campaigns.isError && !campaigns.data) {
    body = (
      <QueryErrorState
        title="Error fetching campaigns"
        error={campaigns.error}
        onRetry={() => void campaigns.refetch()}
      />
    );
  } else if (!hasCampaigns) {
    body = <NoCampaignsYet onCreate={dialog.open} />;
  } else {
    body = (
      <Stack gap="md">
        <TextInput
          label="Search campaigns"
          placeholder="Name, goal, audience or location"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          maw={{ base: '100%', sm: 360 }}
        />
        <CampaignsTable
          records={campaigns.data?.items ?? []}
          total={campaigns.data?.total ?? 0}
          page={page}
          pageSize={pageSize}
          sort={sort}
          fetching={campaigns.isFetching}
          onSortChange={(next) => {
            setSort(next);
            setPage(1);
          }}
          onPageChange={setPage}
          onPageSizeChange={(size) => {
            setPageSize(size);
            setPage(1);
          }}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader
        title="Your Campaigns"
        description="All the campaigns you have created."
        actions={
          <Button leftSection={<IconPlus size={18} />} onClick={dialog.open}>
            Create Campaign
          </Button>
        }
      />
      {body}
      <CreateCampaignDialog opened={dialogOpened} onClose={dialog.close} />
    </Stack>
  );
}
