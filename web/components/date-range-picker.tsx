import { reportRangeLabels, reportRanges } from '@contract/reports.ts';
import { Group, Select, Skeleton, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { DAY_FORMAT, displayTimeZone } from '@/lib/format.ts';
import { type DateRangeValue, rangeDays } from './date-range.ts';

export { type DateRangeValue, rangeDays, rangeFromParams } from './date-range.ts';

// The calendar (@mantine/dates, dayjs and their styles) is fetched when "Custom" is picked:
// the dashboards and reports open on a preset without it.
const DatePickerInput = lazy(async () => {
  const [dates] = await Promise.all([
    import('@mantine/dates'),
    import('@mantine/dates/styles.css'),
  ]);
  return { default: dates.DatePickerInput };
});

/**
 * The one date-range picker of the app: presets (today, yesterday, last 7 days, this month,
 * last month) in the network's time zone, or custom days from a calendar. Reports, dashboards
 * and lists all use it. `allowAll` adds "Any date" (lists); the days covered are shown beside it.
 */
export function DateRangePicker({
  value,
  onChange,
  allowAll = false,
  label = 'Period',
}: {
  value: DateRangeValue;
  onChange: (value: DateRangeValue) => void;
  allowAll?: boolean;
  label?: string;
}) {
  const zone = displayTimeZone();
  const days = rangeDays(value, zone);
  const options = [
    ...(allowAll ? [{ value: 'all', label: 'Any date' }] : []),
    ...reportRanges.map((r) => ({ value: r, label: reportRangeLabels[r] })),
  ];
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label={label}
        data={options}
        value={value.range}
        allowDeselect={false}
        onChange={(v) => {
          if (!v) return;
          const range = v as DateRangeValue['range'];
          if (range === 'custom') {
            // Start the calendar on the days the preset showed.
            const shown = rangeDays(value, zone) ?? { from: '', to: '' };
            onChange({ range, ...shown });
          } else onChange({ range, from: '', to: '' });
        }}
        w={{ base: '100%', xs: 170 }}
      />
      {value.range === 'custom' ? (
        <Suspense
          fallback={
            <Skeleton height={36} width={240} role="status" aria-label="Loading calendar" />
          }
        >
          <DatePickerInput
            type="range"
            label="Days"
            placeholder="Pick the first and last day"
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
            valueFormat={DAY_FORMAT}
            allowSingleDateInRange
            value={[value.from || null, value.to || null]}
            onChange={(picked) => {
              // A range picker answers [first, last]; wait for both ends before reporting.
              const [start, end] = (picked ?? [null, null]) as [string | null, string | null];
              if (start && end) onChange({ range: 'custom', from: start, to: end });
            }}
            w={{ base: '100%', xs: 240 }}
          />
        </Suspense>
      ) : null}
      {days ? (
        <Text size="sm" c="dimmed" pb={8} data-testid="range-days">
          {days.from === days.to ? days.from : `${days.from} – ${days.to}`} ({zone})
        </Text>
      ) : null}
    </Group>
  );
}
