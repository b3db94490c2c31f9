import { Loader, Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { useOfferOptions, usePublisherOptions } from '@/features/admin/leads/api/search-options.ts';

export type SearchOption = { value: string; label: string };

export type SearchSelectProps<O extends SearchOption> = Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange'
> & {
  value: string | null;
  onChange: (value: string | null, option: O | null) => void;
  /** Matches for the current (debounced) search text. */
  useOptions: (q: string) => { options: O[]; isFetching: boolean };
};

/**
 * A Select searched on the server: typing asks the API (debounced), the chosen option stays
 * listed even when a new search no longer returns it.
 */
export function SearchSelect<O extends SearchOption>({
  value,
  onChange,
  useOptions,
  ...rest
}: SearchSelectProps<O>) {
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<O | null>(null);
  const [debounced] = useDebouncedValue(search.trim(), 250);
  // Showing the chosen label in the box is not a new search.
  const q = selected && debounced === selected.label ? '' : debounced;
  const { options, isFetching } = useOptions(q);

  useEffect(() => {
    if (value === null) setSelected(null);
  }, [value]);

  const data = useMemo(() => {
    if (!selected || options.some((o) => o.value === selected.value)) return options;
    return [selected, ...options];
  }, [options, selected]);

  return (
    <Select
      {...rest}
      searchable
      clearable
      value={value}
      data={data}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={isFetching ? 'Searching…' : (rest.nothingFoundMessage ?? 'No matches')}
      rightSection={isFetching ? <Loader size={14} /> : undefined}
      onChange={(v) => {
        const option = data.find((o) => o.value === v) ?? null;
        setSelected(option);
        onChange(v, option);
      }}
    />
  );
}

type PickerProps<O extends SearchOption> = Omit<SearchSelectProps<O>, 'useOptions'>;

/**
 * A search's matches as options: the items of its list query, each read by `toOption` (a
 * function defined once, outside the component).
 */
export function useQueryOptions<T, O extends SearchOption>(
  query: { data?: { items: T[] }; isFetching: boolean },
  toOption: (item: T) => O,
): { options: O[]; isFetching: boolean } {
  const options = useMemo(() => (query.data?.items ?? []).map(toOption), [query.data, toOption]);
  return { options, isFetching: query.isFetching };
}

/** A publisher as a picker shows it: its name and e-mail, or the e-mail alone. */
export function publisherOption(p: { id: string; name: string | null; email: string }) {
  return { value: p.id, label: p.name ? `${p.name} (${p.email})` : p.email };
}

export type OfferOption = SearchOption & { payout: number };

function offerOption(o: { id: string; title: string; status: string; payout: number }) {
  return {
    value: o.id,
    label: o.status === 'inactive' ? `${o.title} (inactive)` : o.title,
    payout: o.payout,
  };
}

const usePublisherSearch = (q: string) => useQueryOptions(usePublisherOptions(q), publisherOption);
const useOfferSearch = (q: string) => useQueryOptions(useOfferOptions(q), offerOption);

/** Any publisher, searched by name or e-mail. */
export function PublisherSelect(props: PickerProps<SearchOption>) {
  return <SearchSelect {...props} useOptions={usePublisherSearch} />;
}

/** Any offer, searched by title or vertical; the option carries the offer's payout. */
export function OfferSelect(props: PickerProps<OfferOption>) {
  return <SearchSelect<OfferOption> {...props} useOptions={useOfferSearch} />;
}
