import '@mantine/dates/styles.css';
import { Group, Select, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';

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

/** Shared date-range filter (`YYYY-MM-DD` days); reports once both ends are chosen, or cleared. */
export function DateRangeFilter({
  from,
  to,
  onChange,
  label = 'Date range',
  w = 240,
}: {
  from: string;
  to: string;
  onChange: (from: string | null, to: string | null) => void;
  label?: string;
  w?: FilterWidth;
}) {
  return (
    <DatePickerInput
      type="range"
      label={label}
      placeholder="Any date"
      // Mantine's placeholder grey is below 4.5:1 on white; this one is a button's text.
      styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
      valueFormat="YYYY-MM-DD"
      clearable
      allowSingleDateInRange
      value={[from || null, to || null]}
      onChange={([start, end]) => {
        // Wait for both ends (or a clear) before filtering.
        if (start && !end) return;
        onChange(start ?? null, end ?? null);
      }}
      w={width(w)}
    />
  );
}
