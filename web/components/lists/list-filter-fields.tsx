import { DateRangeFilter, type FilterWidth, SearchFilter, SelectFilter } from '../list-filters.tsx';
import { OfferSelect, PublisherSelect } from '../search-select.tsx';

/** The part of `useListParams` a filter field needs: the URL's filters and their setter. */
export type FilterList<N extends string> = {
  filters: Record<N, string>;
  setFilter: (name: N, value: string | null) => void;
};

type Bound<N extends string> = { list: FilterList<N>; name: N };

/** A list's search box bound to one of its URL filters (`SearchFilter`). */
export function ListSearch<N extends string>({
  list,
  name,
  label,
  placeholder,
  w,
}: Bound<N> & { label?: string; placeholder: string; w?: FilterWidth }) {
  return (
    <SearchFilter
      label={label}
      placeholder={placeholder}
      value={list.filters[name]}
      onSearch={(v) => list.setFilter(name, v)}
      w={w}
    />
  );
}

/** A list's one-of filter bound to one of its URL filters: "Status", "All statuses" unless told. */
export function ListSelect<N extends string>({
  list,
  name,
  label = 'Status',
  placeholder = 'All statuses',
  ...select
}: Bound<N> & {
  label?: string;
  placeholder?: string;
  data: { value: string; label: string }[];
  w?: FilterWidth;
}) {
  return (
    <SelectFilter
      {...select}
      label={label}
      placeholder={placeholder}
      value={list.filters[name]}
      onChange={(v) => list.setFilter(name, v)}
    />
  );
}

/** The filters by one offer or one publisher: their picker (searched on the server) and texts. */
const pickerFilters = {
  offer_id: { Picker: OfferSelect, label: 'Offer', placeholder: 'All offers' },
  publisher_id: { Picker: PublisherSelect, label: 'Publisher', placeholder: 'All publishers' },
};

/** "Offer: All offers" or "Publisher: All publishers", bound to the list's filter `name`. */
function ListPickerFilter<N extends keyof typeof pickerFilters>({
  list,
  name,
  w = 240,
}: Bound<N> & { w?: FilterWidth }) {
  const { Picker, label, placeholder } = pickerFilters[name];
  return (
    <Picker
      label={label}
      placeholder={placeholder}
      value={list.filters[name] || null}
      onChange={(v) => list.setFilter(name, v)}
      w={{ base: '100%', sm: w }}
    />
  );
}

/** "Offer: All offers", searched on the server, bound to the list's `offer_id`. */
export function ListOfferFilter({ list }: { list: FilterList<'offer_id'> }) {
  return <ListPickerFilter list={list} name="offer_id" />;
}

/** "Publisher: All publishers", searched on the server, bound to the list's `publisher_id`. */
export function ListPublisherFilter({
  list,
  w,
}: {
  list: FilterList<'publisher_id'>;
  w?: FilterWidth;
}) {
  return <ListPickerFilter list={list} name="publisher_id" w={w} />;
}

/** The date-range filter bound to the list's `from` and `to` days. */
export function ListDateFilter({
  list,
}: {
  list: { filters: Record<'from' | 'to', string> } & {
    setFilters: (changes: Partial<Record<'from' | 'to', string | null>>) => void;
  };
}) {
  return (
    <DateRangeFilter
      from={list.filters.from}
      to={list.filters.to}
      onChange={(from, to) => list.setFilters({ from, to })}
    />
  );
}

/**
 * The usual pair of a list's filters: its search box (`q`) and its status filter (`status`), the
 * status options shown as they are given.
 */
export function ListSearchAndStatus({
  list,
  search,
  statuses,
  statusLabel,
  statusWidth,
}: {
  list: FilterList<'q' | 'status'>;
  /** The search box's placeholder (what it searches). */
  search: string;
  statuses: { value: string; label: string }[];
  statusLabel?: string;
  statusWidth?: FilterWidth;
}) {
  return (
    <>
      <ListSearch list={list} name="q" placeholder={search} />
      <ListSelect list={list} name="status" label={statusLabel} data={statuses} w={statusWidth} />
    </>
  );
}
