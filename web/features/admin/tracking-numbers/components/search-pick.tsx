import { Loader, Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import {
  type PickOption,
  useOfferPicks,
  usePublisherPicks,
} from '@/features/admin/tracking-numbers/api/search-options.ts';

type PickProps = Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange'
> & {
  value: string | null;
  onChange: (value: string | null) => void;
};

/**
 * A Select searched on the server as the admin types (debounced); the chosen option stays in
 * the list when a later search no longer returns it.
 */
function SearchPick({
  value,
  onChange,
  useOptions,
  ...rest
}: PickProps & { useOptions: (q: string) => { options: PickOption[]; isFetching: boolean } }) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<PickOption | null>(null);
  const [debounced] = useDebouncedValue(search.trim(), 250);
  // The chosen label shown in the box is not a new search.
  const { options, isFetching } = useOptions(chosen && debounced === chosen.label ? '' : debounced);
  const data =
    chosen && value === chosen.value && !options.some((o) => o.value === chosen.value)
      ? [chosen, ...options]
      : options;
  return (
    <Select
      {...rest}
      searchable
      clearable
      value={value}
      data={data}
      searchValue={search}
      onSearchChange={setSearch}
      // The server already filtered: show what it answered.
      filter={({ options: all }) => all}
      nothingFoundMessage={isFetching ? 'Searching…' : 'No matches'}
      rightSection={isFetching ? <Loader size={14} /> : undefined}
      onChange={(v) => {
        setChosen(data.find((o) => o.value === v) ?? null);
        onChange(v);
      }}
    />
  );
}

/** Any publisher, searched by name or e-mail. */
export function PublisherPick(props: PickProps) {
  return <SearchPick {...props} useOptions={usePublisherPicks} />;
}

/** Any offer, searched by title or vertical. */
export function OfferPick(props: PickProps) {
  return <SearchPick {...props} useOptions={useOfferPicks} />;
}
