import type { Campaign } from '@contract/buyer.ts';
import { Button, Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus, IconSpeakerphone } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ListSearch } from '@/components/list-filters.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { PagedTable } from '@/components/paged-table.tsx';
import { useListParams } from '@/components/use-list-params.ts';
import { useCampaigns } from '@/features/buyer/api/get-campaigns.ts';
import { campaignColumns } from './campaigns-table.tsx';
import {
  LazyCreateCampaignDialog,
  LazyEditCampaignDialog,
} from './lazy-create-campaign-dialog.tsx';

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

/** Sortable columns (the server's sort keys) and the direction of their first click. */
const sorts = {
  created_at: 'desc',
  name: 'asc',
  goal: 'asc',
  target_audience: 'asc',
  location: 'asc',
  budget: 'desc',
  start_date: 'desc',
  end_date: 'desc',
} as const;
const filterNames = ['q'] as const;

/**
 * The campaigns tab: 'Your Campaigns' with search, sorting and paging (done by the server, kept
 * in the URL), and the Create Campaign dialog.
 */
export function CampaignsPage() {
  const [dialogOpened, dialog] = useDisclosure(false);
  const [editing, setEditing] = useState<Campaign | null>(null);
  const columns = useMemo(() => campaignColumns(setEditing), []);
  const list = useListParams({ sort: 'created_at', order: 'desc', sorts }, filterNames);
  const q = list.filters.q;
  const campaigns = useCampaigns({ ...list.query, q: q || undefined });
  // Without a search, an empty list is "no campaigns yet": an invitation instead of a table.
  const noCampaignsYet = !q && campaigns.data?.total === 0;

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
      {noCampaignsYet ? (
        <NoCampaignsYet onCreate={dialog.open} />
      ) : (
        <Stack gap="md">
          <ListSearch
            list={list}
            label="Search campaigns"
            placeholder="Name, goal, audience or location"
            w={360}
          />
          <PagedTable<Campaign>
            label="Your Campaigns"
            loadingLabel="Loading campaigns"
            columns={columns}
            list={list}
            query={campaigns}
            errorTitle="Error fetching campaigns"
            emptyTitle="No campaigns match your search."
            // Wide enough that cells do not wrap word by word on a phone; the table scrolls instead.
            minWidth={880}
          />
        </Stack>
      )}
      <LazyCreateCampaignDialog opened={dialogOpened} onClose={dialog.close} />
      <LazyEditCampaignDialog campaign={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
