import { BALANCE_RULES } from '@contract/money.ts';
import { Button, Card, Grid, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  IconArrowRight,
  IconCash,
  IconChecklist,
  IconCoin,
  IconFileText,
  IconPhoneCall,
  IconSearch,
} from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { publisherPaths } from '@/app/routes.ts';
import { PendingApprovalNotice } from '@/components/pending-approval-notice.tsx';
import { QueryErrorState } from '@/components/query-error-state.tsx';
import { StatCard } from '@/components/stat-card.tsx';
import { useDashboardRange } from '@/components/use-dashboard-range.ts';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { usePublisherMe } from '@/features/publisher/api/get-me.ts';
import { useOverview } from '@/features/publisher/api/get-overview.ts';
import { useOverviewRange } from '@/features/publisher/api/get-overview-range.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatMoney } from '@/lib/format.ts';
import { usePublicSettings } from '@/lib/public-settings.ts';
import { RecentActivity } from './recent-activity.tsx';

// The range picker (Select, combobox) is its own chunk: the cards show while it downloads.
const DateRangePicker = lazy(async () => ({
  default: (await import('@/components/date-range-picker.tsx')).DateRangePicker,
}));

const ERROR_TITLE = 'Error loading dashboard';

// The chart (recharts, ~125 KB gzip) is its own chunk: the cards show while it downloads.
// Its download starts with this screen's, not once the overview data has arrived.
const loadDailyChart = () => import('./daily-chart.tsx');
loadDailyChart().catch(() => {}); // a failure shows when the chart renders
const DailyChart = lazy(async () => ({ default: (await loadDailyChart()).DailyChart }));

/**
 * /dashboard: greeting, the four cards, the chart, Recent Activity and Quick Actions. A range
 * picker (the reports' one, kept in the URL) sets the days of Total Earnings, Total Leads and
 * the chart; "Any date" is the all-time cards beside the last 30 days. Applied Offers counts
 * applications and Pending Payouts is what is owed now (issue 14: earned minus paid), whatever
 * the days.
 */
export function OverviewPage() {
  const { user } = useAuth();
  const { data: me } = usePublisherMe();
  const overview = useOverview();
  const picked = useDashboardRange();
  const ranged = useOverviewRange(picked.query, picked.days !== null);
  const settings = usePublicSettings();
  useErrorToast(overview.error ?? ranged.error, ERROR_TITLE);
  const data = overview.data;
  const loading = overview.isPending;
  const r = picked.days ? ranged.data : undefined;
  const rangeLoading = picked.days ? ranged.isPending : loading;
  const note = picked.period ?? 'Any date';
  const cards = r
    ? { earnings: r.total_earnings, leads: r.total_leads, daily: r.days }
    : picked.days || !data
      ? undefined
      : {
          earnings: data.total_earnings,
          leads: data.total_leads,
          daily: data.daily,
        };

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1}>Welcome, {me?.name || me?.email || user?.email}!</Title>
        {/* The operator's welcome message (Admin → Settings), as on the buyer dashboard. */}
        {settings.isPending ? (
          <Skeleton height={16} width={260} maw="100%" />
        ) : settings.data?.welcome_message ? (
          <Text c="dimmed" style={{ whiteSpace: 'pre-line' }}>
            {settings.data.welcome_message}
          </Text>
        ) : null}
      </Stack>
      {me?.status === 'pending' ? <PendingApprovalNotice /> : null}

      {overview.isError && !data ? (
        <QueryErrorState
          title={ERROR_TITLE}
          error={overview.error}
          onRetry={() => overview.refetch()}
          retrying={overview.isFetching}
        />
      ) : null}

      <Suspense
        fallback={
          <Skeleton height={60} width={220} role="status" aria-label="Loading the period picker" />
        }
      >
        <DateRangePicker value={picked.value} onChange={picked.setValue} allowAll />
      </Suspense>

      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
        <StatCard
          label="Applied Offers"
          value={data ? String(data.applied_offers) : undefined}
          icon={<IconChecklist size={24} />}
          color="blue"
          loading={loading}
        />
        <StatCard
          label="Total Earnings"
          value={cards ? formatMoney(cards.earnings) : undefined}
          icon={<IconCoin size={24} />}
          color="teal"
          loading={rangeLoading}
          note={note}
          rule={r ? 'Payouts of your approved leads in these days.' : BALANCE_RULES.earned}
        />
        <StatCard
          label="Total Leads"
          value={cards ? String(cards.leads) : undefined}
          icon={<IconPhoneCall size={24} />}
          color="cyan"
          loading={rangeLoading}
          note={note}
        />
        <StatCard
          label="Pending Payouts"
          value={data ? formatMoney(data.pending_payouts) : undefined}
          icon={<IconCash size={24} />}
          color="grape"
          loading={loading}
          rule={BALANCE_RULES.unpaid}
          note={
            data?.balance.recorded
              ? `${formatMoney(data.balance.recorded)} in a run, not yet paid`
              : undefined
          }
        />
      </SimpleGrid>

      <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="chart-title">
        <Title order={2} size="h4" id="chart-title" mb="md">
          Leads and earnings, {picked.period ?? 'last 30 days'}
        </Title>
        <Suspense fallback={<Skeleton height={260} />}>
          {cards ? (
            <DailyChart data={cards.daily} period={picked.period ?? 'Last 30 days'} />
          ) : (
            <Skeleton height={260} />
          )}
        </Suspense>
      </Card>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card
            withBorder
            padding="lg"
            radius="md"
            component="section"
            aria-labelledby="activity-title"
            h="100%"
          >
            <Title order={2} size="h4" id="activity-title" mb="md">
              Recent Activity
            </Title>
            {data ? (
              <RecentActivity items={data.recent_activity} />
            ) : (
              <Stack gap="md">
                {[0, 1, 2].map((i) => (
                  <Skeleton key={i} height={40} />
                ))}
              </Stack>
            )}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card
            withBorder
            padding="lg"
            radius="md"
            component="section"
            aria-labelledby="actions-title"
            h="100%"
          >
            <Title order={2} size="h4" id="actions-title" mb="md">
              Quick Actions
            </Title>
            <Stack gap="sm">
              <Button
                component={Link}
                to={publisherPaths.offers}
                leftSection={<IconSearch size={18} />}
                rightSection={<IconArrowRight size={16} />}
                justify="space-between"
                fullWidth
              >
                Browse Offers
              </Button>
              <Button
                component={Link}
                to={publisherPaths.ios}
                variant="light"
                leftSection={<IconFileText size={18} />}
                rightSection={<IconArrowRight size={16} />}
                justify="space-between"
                fullWidth
              >
                View Campaign IOs
              </Button>
              <Text size="xs" c="dimmed">
                Apply to offers with your compliance files, then download the IO once an admin
                approves your application.
              </Text>
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
