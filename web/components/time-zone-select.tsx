import { Select, type SelectProps } from '@mantine/core';

/**
 * Every IANA zone the browser knows, UTC first (some engines leave it out of the list), and
 * `current` among them even if this browser does not know it.
 */
export function timeZoneChoices(current: string | null): string[] {
  const zones = new Set<string>(['UTC']);
  if (current) zones.add(current);
  for (const z of Intl.supportedValuesOf('timeZone')) zones.add(z);
  return [...zones];
}

/** A required IANA time zone, searched by name (a form field's `getInputProps` spread in). */
export function TimeZoneSelect(props: Omit<SelectProps, 'data'>) {
  return (
    <Select
      data={timeZoneChoices(props.value ?? null)}
      searchable
      allowDeselect={false}
      nothingFoundMessage="No time zone matches"
      maxDropdownHeight={260}
      {...props}
    />
  );
}
