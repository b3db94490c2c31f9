import type { SortOrder } from '@contract/list.ts';
import { type OfferSort, PUBLISHER_MESSAGES, type PublisherOffer } from '@contract/publisher.ts';
import {
  Alert,
  Anchor,
  Card,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { SearchFilter } from '@/components/list-filters.tsx';
import { QueryError } from '@/components/lists/query-error.tsx';
import { PagerRow } from '@/components/pager-row.tsx';
import { PendingApprovalNotice } from '@/components/pending-approval-notice.tsx';
import { useErrorToast } from '@/components/use-error-toast.ts';
import { useListParams } from '@/components/use-list-params.ts';
import { useCreateApplication } from '@/features/publisher/api/create-application.ts';
import { deleteDraftApplication } from '@/features/publisher/api/delete-application.ts';
import { usePublisherMe } from '@/features/publisher/api/get-me.ts';
import { publisherKeys } from '@/features/publisher/api/keys.ts';
import { useOffers } from '@/features/publisher/api/list-offers.ts';
import { usePendingScripts } from '@/features/publisher/api/offer-script.ts';
import { ApiError } from '@/lib/api-client.ts';
import { formatCount } from '@/lib/format.ts';
import { toast } from '@/lib/notify.ts';
import { ComplianceDialog, type ComplianceDraft } from './compliance-dialog.tsx';
import { OfferCard } from './offer-card.tsx';
import { ScriptModal } from './script-modal.tsx';

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
/** The server's sort keys of the offers and the direction of each one's first choice. */
const OFFER_SORTS = { created_at: 'desc', payout: 'desc', title: 'asc', vertical: 'asc' } as const;
const filterNames = ['search'] as const;
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
  const list = useListParams(
    { sort: 'created_at', order: 'desc', sorts: OFFER_SORTS, pageSize: PAGE_SIZE },
    filterNames,
  );
  const debouncedSearch = list.filters.search;
  const sort =
    (Object.keys(SORTS) as SortKey[]).find(
      (k) => SORTS[k].sort === list.sort && SORTS[k].order === list.order,
    ) ?? 'newest';
  const [draft, setDraft] = useState<ComplianceDraft | null>(null);
  const [startingId, setStartingId] = useState<string | null>(null);
  const [reading, setReading] = useState<{ id: string; title: string } | null>(null);
  const pendingScripts = usePendingScripts().data?.items ?? [];
  const unread = new Set(pendingScripts.map((p) => p.offer_id));

  const offers = useOffers({ ...list.query, search: debouncedSearch || undefined });
  useErrorToast(offers.error, ERROR_TITLE);
  const createApplication = useCreateApplication();

  const items = offers.data?.items ?? [];
  const totalPages = offers.data ? Math.max(1, Math.ceil(offers.data.total / list.pageSize)) : 1;
  const isPending = me?.status === 'pending';
  const blockedReason = isPending ? PUBLISHER_MESSAGES.accountPending : null;

  const refreshOffers = () => queryClient.invalidateQueries({ queryKey: publisherKeys.offers });

  function discardDraft(d: ComplianceDraft) {
    // A resubmission is of a rejected application, not a draft: nothing to remove.
    if (d.resubmit) return;
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
      {pendingScripts.length > 0 ? (
        <Alert color="yellow" variant="light" title="Scripts changed: please read and acknowledge">
          <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {pendingScripts.map((p) => (
              <Text component="li" size="sm" key={p.offer_id}>
                <Anchor
                  component="button"
                  type="button"
                  onClick={() => setReading({ id: p.offer_id, title: p.offer_title })}
                >
                  {p.offer_title}
                </Anchor>{' '}
                (version {p.version})
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}

      <Group gap="sm" align="flex-end" wrap="wrap">
        <SearchFilter
          label="Search offers"
          placeholder="Title or vertical"
          value={debouncedSearch}
          onSearch={(q) => list.setFilter('search', q)}
          w={320}
        />
        <Select
          label="Sort by"
          data={SORT_OPTIONS}
          value={sort}
          onChange={(v) => {
            const chosen = SORTS[(v as SortKey | null) ?? 'newest'];
            list.setSort(chosen.sort, chosen.order);
          }}
          allowDeselect={false}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>

      {offers.isError && !offers.data ? (
        <QueryError title={ERROR_TITLE} query={offers} />
      ) : offers.isPending ? (
        <SimpleGrid
          cols={{ base: 1, sm: 2, xl: 3 }}
          role="status"
          aria-busy="true"
          aria-label="Loading offers"
        >
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
                scriptUnread={unread.has(offer.id)}
                onReadScript={(o) => setReading({ id: o.id, title: o.title })}
                onApply={handleApply}
                onResubmit={(o) =>
                  o.application_id &&
                  setDraft({ applicationId: o.application_id, offer: o, resubmit: true })
                }
              />
            ))}
          </SimpleGrid>
          <PagerRow
            wrap="wrap"
            gap="sm"
            summary={
              <>
                {formatCount(offers.data?.total ?? 0, offers.data?.total_exact ?? true)}{' '}
                {offers.data?.total === 1 ? 'offer' : 'offers'}
              </>
            }
            total={totalPages}
            value={list.page}
            onChange={list.setPage}
          />
        </>
      )}

      <ScriptModal offer={reading} onClose={() => setReading(null)} />
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
