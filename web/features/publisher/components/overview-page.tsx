import { BALANCE_RULES } from '@contract/money-rules.ts';
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
import { type ReactNode, Suspense } from 'react';
import { Link } from 'react-router';
import { publisherPaths } from '@/app/routes.ts';
import { DashboardRangePicker } from '@/components/dashboard-range-picker.tsx';
import { QueryError } from '@/components/lists/query-error.tsx';
import { PendingApprovalNotice } from '@/components/pending-approval-notice.tsx';
import { StatCard, type StatCardProps } from '@/components/stat-card.tsx';
import { useDashboardRange } from '@/components/use-dashboard-range.ts';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { WelcomeMessage } from '@/components/welcome-message.tsx';
import { WhenVisible } from '@/components/when-visible.tsx';
import { usePublisherMe } from '@/features/publisher/api/get-me.ts';
import { useOverview } from '@/features/publisher/api/get-overview.ts';
import { useOverviewRange } from '@/features/publisher/api/get-overview-range.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatMoney } from '@/lib/format.ts';
import { lazyExport } from '@/lib/lazy-export.ts';
import { RecentActivity } from './recent-activity.tsx';

const ERROR_TITLE = 'Error loading dashboard';

// The chart (recharts, ~125 KB gzip) is its own chunk: the cards show while it downloads.
// Its download starts with this screen's, not once the overview data has arrived.
const loadDailyChart = () => import('./daily-chart.tsx');
loadDailyChart().catch(() => {}); // a failure shows when the chart renders
const DailyChart = lazyExport(loadDailyChart, 'DailyChart');
// The script notice (issue 33) and today's live counters (issue 32) load right after the cards,
// out of the first screen's JS budget (scripts/bundle-report.ts).
const ScriptNotice = lazyExport(() => import('./script-notice.tsx'), 'ScriptNotice');
const LiveTodayPanel = lazyExport(
  () => import('@/components/live/live-counters.tsx'),
  'LiveTodayPanel',
);

/** The Quick Actions card's links: browsing offers is the main one. */
const quickActions = [
  {
    to: publisherPaths.offers,
    label: 'Browse Offers',
    icon: <IconSearch size={18} />,
    variant: 'filled',
  },
  {
    to: publisherPaths.ios,
    label: 'View Campaign IOs',
    icon: <IconFileText size={18} />,
    variant: 'light',
  },
];

/** A titled section card of the overview; `id` is its title's, which names the section. */
function Panel({
  id,
  title,
  fullHeight,
  children,
}: {
  id: string;
  title: string;
  fullHeight?: boolean;
  children: ReactNode;
}) {
  return (
    <Card
      withBorder
      padding="lg"
      radius="md"
      component="section"
      aria-labelledby={id}
      h={fullHeight ? '100%' : undefined}
    >
      <Title order={2} size="h4" id={id} mb="md">
        {title}
      </Title>
      {children}
    </Card>
  );
}

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

  const statCards: StatCardProps[] = [
    {
      label: 'Applied Offers',
      value: data ? String(data.applied_offers) : undefined,
      icon: <IconChecklist size={24} />,
      color: 'blue',
      loading,
    },
    {
      label: 'Total Earnings',
      value: cards ? formatMoney(cards.earnings) : undefined,
      icon: <IconCoin size={24} />,
      color: 'teal',
      loading: rangeLoading,
      note,
      rule: r ? 'Payouts of your approved leads in these days.' : BALANCE_RULES.earned,
    },
    {
      label: 'Total Leads',
      value: cards ? String(cards.leads) : undefined,
      icon: <IconPhoneCall size={24} />,
      color: 'cyan',
      loading: rangeLoading,
      note,
    },
    {
      label: 'Pending Payouts',
      value: data ? formatMoney(data.pending_payouts) : undefined,
      icon: <IconCash size={24} />,
      color: 'grape',
      loading,
      rule: BALANCE_RULES.unpaid,
      note: data?.balance.recorded
        ? `${formatMoney(data.balance.recorded)} in a run, not yet paid`
        : undefined,
    },
  ];

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1}>Welcome, {me?.name || me?.email || user?.email}!</Title>
        {/* The operator's welcome message (Admin → Settings), as on the buyer dashboard. */}
        <WelcomeMessage />
      </Stack>
      {me?.status === 'pending' ? <PendingApprovalNotice /> : null}
      <Suspense fallback={null}>
        <ScriptNotice />
      </Suspense>

      {overview.isError && !data ? <QueryError title={ERROR_TITLE} query={overview} /> : null}

      <DashboardRangePicker value={picked.value} onChange={picked.setValue} />

      {/* The panel's own height while its chunk loads (its title and the four counters: two
          rows of two on a phone, one row from sm), so the cards below do not move when it shows. */}
      <Suspense fallback={<Skeleton h={{ base: 252, sm: 135 }} />}>
        <LiveTodayPanel />
      </Suspense>

      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
        {statCards.map((card) => (
          <StatCard key={card.label} {...card} />
        ))}
      </SimpleGrid>

      <Panel id="chart-title" title={`Leads and earnings, ${picked.period ?? 'last 30 days'}`}>
        <Suspense fallback={<Skeleton height={260} />}>
          {cards ? (
            <WhenVisible placeholder={<Skeleton height={260} />}>
              <DailyChart data={cards.daily} period={picked.period ?? 'Last 30 days'} />
            </WhenVisible>
          ) : (
            <Skeleton height={260} />
          )}
        </Suspense>
      </Panel>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Panel id="activity-title" title="Recent Activity" fullHeight>
            {data ? (
              <RecentActivity items={data.recent_activity} />
            ) : (
              <Stack gap="md">
                {[0, 1, 2].map((i) => (
                  <Skeleton key={i} height={40} />
                ))}
              </Stack>
            )}
          </Panel>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Panel id="actions-title" title="Quick Actions" fullHeight>
            <Stack gap="sm">
              {quickActions.map((a) => (
                <Button
                  key={a.to}
                  component={Link}
                  to={a.to}
                  variant={a.variant}
                  leftSection={a.icon}
                  rightSection={<IconArrowRight size={16} />}
                  justify="space-between"
                  fullWidth
                >
                  {a.label}
                </Button>
              ))}
              <Text size="xs" c="dimmed">
                Apply to offers with your compliance files, then download the IO once an admin
                approves your application.
              </Text>
            </Stack>
          </Panel>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
