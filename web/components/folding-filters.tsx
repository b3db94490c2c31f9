import { Badge, Button, Stack } from '@mantine/core';
import { useDisclosure, useId, useMediaQuery } from '@mantine/hooks';
import { IconFilter } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * How many filters a list has on: each filled value counts once, and a date range (`from`,
 * `to`) counts as one filter whether one or both of its days are set.
 */
export function activeFilterCount(values: Record<string, string>): number {
  const { from, to, ...rest } = values;
  return Object.values(rest).filter(Boolean).length + (from || to ? 1 : 0);
}

/**
 * A list's filters, folded behind a "Filters" button on a phone (issue 34: the leads' seven
 * filters filled the whole first screen before the first lead). The button says how many are
 * on; from the `sm` breakpoint up the filters show as they are.
 */
export function FoldingFilters({ count, children }: { count: number; children: ReactNode }) {
  const isPhone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const [opened, { toggle }] = useDisclosure(false);
  const id = useId();
  if (!isPhone) return <>{children}</>;
  return (
    <Stack gap="sm" w="100%">
      <Button
        variant="default"
        leftSection={<IconFilter size={16} />}
        rightSection={
          count ? (
            <Badge size="sm" circle aria-hidden>
              {count}
            </Badge>
          ) : null
        }
        aria-label={count ? `Filters, ${count} on` : 'Filters'}
        aria-expanded={opened}
        aria-controls={id}
        onClick={toggle}
        style={{ alignSelf: 'flex-start' }}
      >
        Filters
      </Button>
      {opened ? (
        <Stack gap="sm" id={id}>
          {children}
        </Stack>
      ) : null}
    </Stack>
  );
}
