import { Skeleton } from '@mantine/core';
import { Suspense } from 'react';
import { lazyExport } from '@/lib/lazy-export.ts';
import type { DateRangeValue } from './date-range.ts';

// The range picker (Select, combobox) is its own chunk: the cards show while it downloads.
const DateRangePicker = lazyExport(() => import('./date-range-picker.tsx'), 'DateRangePicker');

/**
 * A dashboard's period picker, "Any date" included, with a skeleton of its size while its chunk
 * loads. Shared by the admin dashboard and the publisher overview (with useDashboardRange).
 */
export function DashboardRangePicker({
  value,
  onChange,
}: {
  value: DateRangeValue;
  onChange: (value: DateRangeValue) => void;
}) {
  return (
    <Suspense
      fallback={
        <Skeleton height={60} width={220} role="status" aria-label="Loading the period picker" />
      }
    >
      <DateRangePicker value={value} onChange={onChange} allowAll />
    </Suspense>
  );
}
