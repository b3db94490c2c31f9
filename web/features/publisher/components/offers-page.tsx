import {
  Card,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { SortOrder } from '../../../../contract/list.ts';
import {
  type OfferSort,
  PUBLISHER_MESSAGES,
  type PublisherOffer,
} from '../../../../contract/publisher.ts';
import { PendingApprovalNotice } from '../../../components/pending-approval-notice.tsx';
import { QueryErrorState } from '../../../components/query-error-state.tsx';
import { useErrorToast } from '../../../components/use-error-toast.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/notify.ts';
import { useCreateApplication } from '../api/create-application.ts';
import { deleteDraftApplication } from '../api/delete-application.ts';
import { usePublisherMe } from '../api/get-me.ts';
import { publisherKeys } from '../api/keys.ts';
import { useOffers } from '../api/list-offers.ts';
import { ComplianceDialog, type ComplianceDraft } from './compliance-dialog.tsx';
import { OfferCard } from './offer-card.tsx';

const PAGE_SIZE = 12;
const ERROR_TITLE = 'Error loading offers';

/** The Sort by choices and the server's sort of each (the server sorts every page). */
const SORTS = {
  newest: { label: 'Newest first', sort: 'created_at', order: 'desc' },
  payout: { label: 'Highest payout', sort: 'payout', order: 'desc' },
  payout_low: { label: 'Lowest payout', sort: 'payout', order: 'asc' },
  title: { label: 'Title A–Z', sort: 'title', order: 'asc' },
  vertical: { label: 'Vertical A–Z', sort: 'vertical', order: 'asc' },
} as const satisfies Record<string, { label: string; sort: OfferSort; order: SortOrder }>;
type SortKey = keyof typeof SORTS;
const SORT_OPTIONS = Object.entries(SORTS).map(([value, s]) => ({ value, label: s.label }));

/**
 * Deletes the open draft when the page goes away with the dialog still open (e.g. the Back
 * button). The delete waits a tick so React's development double-mount does not trigger it.
 */
function useDiscardOnLeave(draft: ComplianceDraft | null, discard: (d: ComplianceDraft) => void) {
  const timer = useRef<number | null>(null);
  const latest = useRef({ draft, discard });
  latest.current = { draft, discard };
  useEffect(() => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    return () => {
      timer.current = window.setTimeout(() => {
        const { draft: open, discard: drop } = latest.current;
        if (open) drop(open);
      }, 0);
    };
  }, []);
}

/** /dashboard/offers: 'Available Offers', Apply Now and the compliance dialog. */
export function OffersPage() {
  const queryClient = useQueryClient();
  const { data: me } = usePublisherMe();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<SortKey>('newest');
  const [draft, setDraft] = useState<ComplianceDraft | null>(null);
  const [startingId, setStartingId] = useState<string | null>(null);

  const query = {
    page,
    page_size: PAGE_SIZE,
    search: debouncedSearch || undefined,
    sort: SORTS[sort].sort,
    order: SORTS[sort].order,
  };
  const offers = useOffers(query);
  useErrorToast(offers.error, ERROR_TITLE);
  const createApplication = useCreateApplication();

  useEffect(() => {
    void debouncedSearch;
    setPage(1);
  }, [debouncedSearch]);

  const items = offers.data?.items ?? [];
  const totalPages = offers.data ? Math.max(1, Math.ceil(offers.data.total / PAGE_SIZE)) : 1;
  const isPending = me?.status === 'pending';
  const blockedReason = isPending ? PUBLISHER_MESSAGES.accountPending : null;

  const refreshOffers = () => queryClient.invalidateQueries({ queryKey: publisherKeys.offers });

  function discardDraft(d: ComplianceDraft) {
    // A failed delete is harmless: the server removes drafts left for 24 hours.
    deleteDraftApplication(d.applicationId).catch(() => undefined);
  }
  useDiscardOnLeave(draft, discardDraft);

  function handleApply(offer: PublisherOffer) {
    setStartingId(offer.id);
    createApplication.mutate(offer.id, {
      onSuccess: (application) => setDraft({ applicationId: application.id, offer }),
      onError: (err) => {
        if (err instanceof ApiError && err.status === 409 && err.code === 'already_applied') {
          toast({
            title: PUBLISHER_MESSAGES.alreadyAppliedTitle,
            description: PUBLISHER_MESSAGES.alreadyApplied,
            variant: 'destructive',
          });
          void refreshOffers();
          return;
        }
        toast({
          title: 'Application failed',
          description: `Could not start application process. ${err.message}`,
          variant: 'destructive',
        });
        if (err instanceof ApiError && (err.status === 404 || err.status === 409)) {
          void refreshOffers();
        }
      },
      onSettled: () => setStartingId(null),
    });
  }

  return (
    <Stack gap="lg">
      <Title order={1}>Available Offers</Title>
      {isPending ? <PendingApprovalNotice /> : null}

      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search offers"
          placeholder="Title or vertical"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: '1 1 240px' }}
        />
        <Select
          label="Sort by"
          data={SORT_OPTIONS}
          value={sort}
          onChange={(v) => {
            setSort((v as SortKey | null) ?? 'newest');
            setPage(1);
          }}
          allowDeselect={false}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>

      {offers.isError && !offers.data ? (
        <QueryErrorState
          title={ERROR_TITLE}
          error={offers.error}
          onRetry={() => offers.refetch()}
          retrying={offers.isFetching}
        />
      ) : offers.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} aria-busy="true" aria-label="Loading offers">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={260} radius="md" />
          ))}
        </SimpleGrid>
      ) : items.length === 0 ? (
        <Card withBorder padding="xl" radius="md">
          <Text fw={600}>
            {debouncedSearch ? 'No offers match your search.' : 'No offers yet.'}
          </Text>
          <Text size="sm" c="dimmed" mt={4}>
            {debouncedSearch
              ? 'Try another title or vertical.'
              : 'There are no active offers right now. New offers appear here as soon as they are published.'}
          </Text>
        </Card>
      ) : (
        <>
          <SimpleGrid
            cols={{ base: 1, sm: 2, xl: 3 }}
            spacing="md"
            style={{ opacity: offers.isPlaceholderData ? 0.6 : 1 }}
          >
            {items.map((offer) => (
              <OfferCard
                key={offer.id}
                offer={offer}
                blockedReason={blockedReason}
                starting={startingId === offer.id}
                onApply={handleApply}
              />
            ))}
          </SimpleGrid>
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Text size="sm" c="dimmed">
              {offers.data?.total ?? 0} {offers.data?.total === 1 ? 'offer' : 'offers'}
            </Text>
            {totalPages > 1 ? (
              <Pagination
                total={totalPages}
                value={page}
                onChange={setPage}
                getControlProps={(control) => ({
                  'aria-label': control === 'next' ? 'Next page' : 'Previous page',
                })}
              />
            ) : null}
          </Group>
        </>
      )}

      <ComplianceDialog
        draft={draft}
        onCancel={(d) => {
          setDraft(null);
          discardDraft(d);
        }}
        onDone={() => {
          setDraft(null);
          void refreshOffers();
        }}
      />
    </Stack>
  );
}
