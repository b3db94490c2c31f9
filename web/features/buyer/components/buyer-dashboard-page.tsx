import {
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowRight, IconListDetails, IconPlus, type TablerIcon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buyerPaths } from '@/app/routes.ts';
import { LiveTodayPanel } from '@/components/live/live-counters.tsx';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { WelcomeMessage } from '@/components/welcome-message.tsx';
import { useCampaignCount } from '@/features/buyer/api/get-campaigns.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useMe } from '@/lib/me.ts';
import { BudgetBurnDown } from './budget-burn-down.tsx';
import { LazyCreateCampaignDialog } from './lazy-create-campaign-dialog.tsx';

function campaignCountText(total: number): string {
  if (total === 0) return 'You have no campaigns yet.';
  return total === 1 ? 'You have 1 campaign.' : `You have ${total.toLocaleString()} campaigns.`;
}

/** The buyer's dashboard tab: welcome, today's calls, the budget burn-down, campaigns, a new one. */
/** One of the dashboard's two cards: an icon and a heading over what the card says and does. */
function ActionCard({
  icon: Icon,
  color,
  title,
  children,
}: {
  icon: TablerIcon;
  color?: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="sm" h="100%" justify="space-between">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={40} radius="md" variant="light" color={color}>
            <Icon size={22} stroke={1.6} />
          </ThemeIcon>
          <Title order={2} size="h3">
            {title}
          </Title>
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

export function BuyerDashboardPage() {
  const { user } = useAuth();
  const me = useMe(user?.id);
  const campaigns = useCampaignCount();
  useErrorToast(campaigns.error, 'Error fetching campaigns');
  const [dialogOpened, dialog] = useDisclosure(false);

  const displayName = me.data?.name || me.data?.email || user?.email;

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        {me.isPending && !me.isError ? (
          <Skeleton
            height={36}
            width={320}
            maw="100%"
            role="status"
            aria-label="Loading your name"
          />
        ) : (
          <Title order={1}>Welcome, {displayName}!</Title>
        )}
        <WelcomeMessage fallback="Welcome to the portal!" />
      </Stack>

      <LiveTodayPanel
        note="Your campaigns' calls of today, as they arrive."
        payoutLabel="Spend today"
      />

      <BudgetBurnDown />

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <ActionCard icon={IconListDetails} title="Manage Campaigns">
          {campaigns.isPending || (campaigns.isError && campaigns.isFetching) ? (
            <Skeleton height={16} width="60%" />
          ) : campaigns.isError ? (
            <Text size="sm" c="red">
              Your campaigns could not be loaded.
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              {campaignCountText(campaigns.data)} Review their goals, audiences, budgets and dates.
            </Text>
          )}
          <Button
            component={Link}
            to={buyerPaths.campaigns}
            variant="light"
            rightSection={<IconArrowRight size={16} />}
            style={{ alignSelf: 'flex-start' }}
          >
            View campaigns
          </Button>
        </ActionCard>

        <ActionCard icon={IconPlus} color="teal" title="New campaign">
          <Text size="sm" c="dimmed">
            Set a goal, the audience you want to reach, a location, a budget and the dates it runs.
          </Text>
          <Button
            leftSection={<IconPlus size={18} />}
            onClick={dialog.open}
            style={{ alignSelf: 'flex-start' }}
          >
            Create New Campaign
          </Button>
        </ActionCard>
      </SimpleGrid>

      <LazyCreateCampaignDialog opened={dialogOpened} onClose={dialog.close} />
    </Stack>
  );
}
