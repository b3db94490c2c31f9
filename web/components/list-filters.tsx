import { reportRanges, resolveRange } from '@contract/reports.ts';
import { Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { displayTimeZone } from '@/lib/format.ts';
import { DateRangePicker, type DateRangeValue, rangeDays } from './date-range-picker.tsx';

/** Width of one filter: the full row on a phone, a fixed column from `sm` up. */
export type FilterWidth = number;

const width = (w: FilterWidth) => ({ base: '100%', sm: w });

/** Shared row of a list's filters above its table; wraps on narrow screens. */
export function ListFilters({ children }: { children: ReactNode }) {
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      {children}
    </Group>
  );
}

/**
 * Shared search box of a list: types freely, reports the trimmed text 300 ms after the last
 * keystroke (so the list, and its page, change once per search, not per letter).
 */
export function SearchFilter({
  value,
  onSearch,
  label = 'Search',
  placeholder,
  w = 280,
}: {
  /** The search the list currently shows (from the URL). */
  value: string;
  onSearch: (q: string) => void;
  label?: string;
  placeholder: string;
  w?: FilterWidth;
}) {
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text.trim(), 300);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced search reports
  useEffect(() => {
    if (debounced !== value) onSearch(debounced);
  }, [debounced]);
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      w={width(w)}
    />
  );
}

/**
 * A list's filter row holding only its search box, which sets the list's `q` filter (from the
 * URL, back to page 1).
 */
export function ListSearch({
  list,
  ...search
}: {
  list: { filters: { q: string }; setFilter: (name: 'q', value: string) => void };
} & Omit<Parameters<typeof SearchFilter>[0], 'value' | 'onSearch'>) {
  return (
    <ListFilters>
      <SearchFilter {...search} value={list.filters.q} onSearch={(q) => list.setFilter('q', q)} />
    </ListFilters>
  );
}

/** Shared one-of filter (status, …): "All …" when cleared. */
export function SelectFilter({
  label,
  placeholder,
  data,
  value,
  onChange,
  w = 200,
}: {
  label: string;
  placeholder: string;
  data: { value: string; label: string }[];
  value: string;
  onChange: (value: string | null) => void;
  w?: FilterWidth;
}) {
  return (
    <Select
      label={label}
      placeholder={placeholder}
      data={data}
      value={value || null}
      onChange={onChange}
      clearable
      w={width(w)}
    />
  );
}

/**
 * Shared date-range filter of the lists: the app's one DateRangePicker with "Any date". A preset
 * becomes its days (`from`/`to`, days of the network's zone) in the URL; days that equal a
 * preset show as that preset.
 */
export function DateRangeFilter({
  from,
  to,
  onChange,
  label = 'Date range',
}: {
  from: string;
  to: string;
  onChange: (from: string | null, to: string | null) => void;
  label?: string;
  w?: FilterWidth;
}) {
  const zone = displayTimeZone();
  const preset = reportRanges.find((r) => {
    if (r === 'custom' || !from || !to) return false;
    const days = resolveRange(zone, { range: r });
    return days.from === from && days.to === to;
  });
  // "Custom" chosen while no days are picked yet: show the calendar until both are.
  const [picking, setPicking] = useState(false);
  const value: DateRangeValue = picking
    ? { range: 'custom', from: '', to: '' }
    : !from && !to
      ? { range: 'all', from: '', to: '' }
      : { range: preset ?? 'custom', from, to };
  return (
    <DateRangePicker
      label={label}
      allowAll
      value={value}
      onChange={(v) => {
        const days = rangeDays(v, zone);
        setPicking(v.range === 'custom' && !days);
        if (v.range === 'custom' && !days) return; // the calendar opens; wait for both days
        onChange(days?.from ?? null, days?.to ?? null);
      }}
    />
  );
}
