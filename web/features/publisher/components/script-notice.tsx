import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { publisherPaths } from '@/app/routes.ts';
import { usePendingScripts } from '@/features/publisher/api/offer-script.ts';

/**
 * The overview's attention item (issue 33): offers whose call script changed since this
 * publisher last acknowledged it, with the way to the Offers page where they read and
 * acknowledge it. Nothing when none.
 */
export function ScriptNotice() {
  const items = usePendingScripts().data?.items ?? [];
  if (items.length === 0) return null;
  const titles = items.map((i) => `"${i.offer_title}"`).join(', ');
  return (
    <Alert color="yellow" variant="light" title="Call scripts changed">
      <Text size="sm">
        {items.length === 1 ? 'The script of' : 'The scripts of'} {titles}{' '}
        {items.length === 1 ? 'has' : 'have'} changed. Please read the changes and acknowledge them
        on the{' '}
        <Anchor component={Link} to={publisherPaths.offers}>
          Offers page
        </Anchor>
        .
      </Text>
    </Alert>
  );
}
