import { Button, Card, SimpleGrid, Skeleton, Stack, Title } from '@mantine/core';
import {
  IconBuildingStore,
  IconCash,
  IconChecklist,
  IconSettings,
  IconSpeakerphone,
  IconUsers,
} from '@tabler/icons-react';
import { type ComponentType, Suspense } from 'react';
import { Link } from 'react-router';
import { adminPaths } from '@/app/routes.ts';
import { DashboardRangePicker } from '@/components/dashboard-range-picker.tsx';
import { QueryError } from '@/components/lists/query-error.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { StatCard } from '@/components/stat-card.tsx';
import { useDashboardRange } from '@/components/use-dashboard-range.ts';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { useAdminStats } from '@/features/admin/dashboard/api/get-admin-stats.ts';
import { useDailyStats } from '@/features/admin/dashboard/api/get-daily-stats.ts';
import { useRangeStats } from '@/features/admin/dashboard/api/get-range-stats.ts';
import { formatMoney } from '@/lib/format.ts';
import { lazyExport } from '@/lib/lazy-export.ts';
import { AttentionCard } from './attention-card.tsx';

// The newcomer's checklist is its own chunk (the dashboard's first load has a budget): shown
// when it has loaded, above the cards.
// The live "N new calls" bar (issue 32) comes right after the cards, out of the first screen's
// JS budget (scripts/bundle-report.ts).
const NewCallsBar = lazyExport(() => import('@/components/live/new-calls-bar.tsx'), 'NewCallsBar');
const SetupChecklistCard = lazyExport(() => import('./setup-checklist.tsx'), 'SetupChecklistCard');

// The chart (recharts, ~125 KB gzip) is its own chunk: the cards show while it downloads.
const ActivityChart = lazyExport(() => import('./activity-chart.tsx'), 'ActivityChart');

type Icon = ComponentType<{ size?: number | string; stroke?: number }>;

const quickActions: { label: string; to: string; icon: Icon }[] = [
  { label: 'Publishers', to: adminPaths.publishers, icon: IconUsers },
  { label: 'Applications', to: adminPaths.applications, icon: IconChecklist },
  { label: 'Offers', to: adminPaths.offers, icon: IconBuildingStore },
  { label: 'Payouts', to: adminPaths.payouts, icon: IconCash },
  { label: 'Campaigns', to: adminPaths.campaigns, icon: IconSpeakerphone },
  { label: 'Settings', to: adminPaths.settings, icon: IconSettings },
];

/**
 * /admin: the three cards of the spec, quick actions and the activity chart. A range picker (the
 * reports' one, in the network's zone, kept in the URL) sets the days of Total Payouts and of the
 * chart; "Any date" is the spec's all-time total beside the last 30 days. The pending counts are
 * queues waiting now, whatever the days.
 */
export function AdminDashboardPage() {
  const { value: range, setValue: setRange, days, query, period } = useDashboardRange();
  const stats = useAdminStats();
  const daily = useDailyStats(30);
  const ranged = useRangeStats(query, days !== null);
  useErrorToast(stats.error ?? daily.error ?? ranged.error, 'Error loading dashboard');
  const s = stats.data;
  const chart = days
    ? {
        data: ranged.data ? { days: ranged.data.days } : undefined,
        isPending: ranged.isPending,
        error: ranged.error,
        onRetry: () => void ranged.refetch(),
      }
    : {
        data: daily.data,
        isPending: daily.isPending,
        error: daily.error,
        onRetry: () => void daily.refetch(),
      };

  return (
    <Stack gap="lg">
      <PageHeader title="Dashboard" description="What needs your attention today." />
      <Suspense fallback={null}>
        <NewCallsBar />
      </Suspense>
      <Suspense fallback={null}>
        <SetupChecklistCard />
      </Suspense>
      <DashboardRangePicker value={range} onChange={setRange} />
      {stats.isError && !s ? (
        <QueryError title="Error loading dashboard" query={stats} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <StatCard
            label="Pending Publishers"
            value={String(s?.pending_publishers ?? 0)}
            loading={stats.isPending}
            to={`${adminPaths.publishers}?status=pending`}
          />
          <StatCard
            label="Pending Applications"
            value={String(s?.pending_applications ?? 0)}
            loading={stats.isPending}
            to={`${adminPaths.applications}?status=pending`}
          />
          <StatCard
            label="Total Payouts"
            value={formatMoney((days ? ranged.data?.total_payouts : s?.total_payouts) ?? 0)}
            loading={days ? ranged.isPending : stats.isPending}
            to={adminPaths.payouts}
            note={`${period ?? 'Any date'} · marked paid`}
            rule={(() => {
              const recorded = days ? ranged.data?.recorded_payouts : s?.balance.recorded;
              return recorded
                ? `Plus ${formatMoney(recorded)} in runs recorded, not yet paid.`
                : 'Nothing in runs waiting to be paid.';
            })()}
          />
        </SimpleGrid>
      )}

      <AttentionCard stats={s} loading={stats.isPending} />

      <Card withBorder padding="lg">
        <Title order={2} fz="lg" mb="md">
          Quick Actions
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
          {quickActions.map(({ label, to, icon: ActionIcon }) => (
            <Button
              key={to}
              component={Link}
              to={to}
              variant="light"
              leftSection={<ActionIcon size={18} stroke={1.6} />}
              fullWidth
            >
              {label}
            </Button>
          ))}
        </SimpleGrid>
      </Card>

      <Suspense
        fallback={
          <Card withBorder padding="lg">
            <Skeleton height={44} width="40%" mb="md" />
            <Skeleton height={280} role="status" aria-label="Loading chart" />
          </Card>
        }
      >
        <ActivityChart
          data={chart.data}
          isPending={chart.isPending}
          error={chart.error}
          onRetry={chart.onRetry}
          period={period ?? 'Last 30 days'}
        />
      </Suspense>
    </Stack>
  );
}
