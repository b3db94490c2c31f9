import {
  type PostbackEvent,
  type PostbackTemplates,
  postbackEventLabels,
  postbackEvents,
} from '@contract/outbound.ts';
import {
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { OfferSelect } from '@/components/search-select.tsx';

type Saved = PostbackTemplates['templates'][number];

/** One per-offer template being edited; `key` tells rows apart before an offer is chosen. */
export type OfferDraft = {
  key: string;
  offer_id: string | null;
  offer_title: string | null;
  event: PostbackEvent;
  method: 'GET' | 'POST';
  url: string;
  /** Kept as saved (the per-offer rows edit no body; a POST keeps the one it had). */
  body: string | null;
};

let nextKey = 0;
const newKey = () => `new-${++nextKey}`;

/** The saved per-offer templates as drafts. */
export function offerDraftsOf(templates: Saved[]): OfferDraft[] {
  return templates
    .filter((t) => t.offer_id !== null)
    .map((t) => ({
      key: `${t.event}:${t.offer_id}`,
      offer_id: t.offer_id,
      offer_title: t.offer_title,
      event: t.event,
      method: t.method,
      url: t.url,
      body: t.body,
    }));
}

/** The drafts to send: rows with an offer and a URL (an empty new row is left out). */
export function offerTemplatesOf(drafts: OfferDraft[]) {
  return drafts
    .filter((d) => d.offer_id !== null && d.url.trim() !== '')
    .map((d) => ({
      event: d.event,
      method: d.method,
      url: d.url.trim(),
      body: d.method === 'POST' ? d.body : null,
      offer_id: d.offer_id,
    }));
}

const eventOptions = postbackEvents.map((e) => ({ value: e, label: postbackEventLabels[e] }));

/**
 * The templates the network set for one offer of this publisher; they win over the
 * publisher's own for that offer. The admin adds, edits and removes them (saved with the
 * rest); the publisher reads them, by the offer's name.
 */
export function PerOfferPostbacks({
  drafts,
  editable,
  errors,
  onChange,
}: {
  drafts: OfferDraft[];
  editable: boolean;
  /** The server's message for a row's URL, by row key. */
  errors: Record<string, string | undefined>;
  onChange: (drafts: OfferDraft[]) => void;
}) {
  if (!editable && drafts.length === 0) return null;
  const update = (key: string, change: Partial<OfferDraft>) =>
    onChange(drafts.map((d) => (d.key === key ? { ...d, ...change } : d)));
  return (
    <Card withBorder padding="md">
      <Title order={3} fz="md" mb={4}>
        Per-offer postbacks
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Set by the network for one offer; they win over the templates above for that offer.
      </Text>
      <Stack gap="sm">
        {drafts.length === 0 ? (
          <Text size="sm" c="dimmed">
            None yet.
          </Text>
        ) : null}
        {drafts.map((d) =>
          editable ? (
            <Stack key={d.key} gap={6} data-testid="per-offer-row">
              <Group gap="sm" wrap="wrap" align="flex-end">
                {d.offer_id && d.offer_title !== null ? (
                  <Stack gap={4} style={{ minWidth: 160 }}>
                    <Text size="sm" fw={500}>
                      Offer
                    </Text>
                    <Text size="sm" py={7}>
                      {d.offer_title}
                    </Text>
                  </Stack>
                ) : (
                  <OfferSelect
                    label="Offer"
                    placeholder="Search offers"
                    w={240}
                    value={d.offer_id}
                    onChange={(id) => update(d.key, { offer_id: id })}
                  />
                )}
                <Select
                  label="Event"
                  w={200}
                  data={eventOptions}
                  value={d.event}
                  allowDeselect={false}
                  onChange={(e) => e && update(d.key, { event: e as PostbackEvent })}
                />
                <SegmentedControl
                  size="xs"
                  aria-label="Method"
                  data={['GET', 'POST']}
                  value={d.method}
                  onChange={(m) => update(d.key, { method: m as OfferDraft['method'] })}
                />
                <Button
                  variant="subtle"
                  color="red"
                  size="compact-sm"
                  onClick={() => onChange(drafts.filter((x) => x.key !== d.key))}
                  aria-label={`Remove the postback of ${d.offer_title ?? 'this offer'}`}
                >
                  Remove
                </Button>
              </Group>
              <TextInput
                label="URL"
                placeholder="https://tracker.example.com/postback?clickid={tag:sub_id}"
                value={d.url}
                error={errors[d.key]}
                onChange={(e) => update(d.key, { url: e.currentTarget.value })}
              />
            </Stack>
          ) : (
            <Text key={d.key} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {postbackEventLabels[d.event]} · {d.offer_title ?? 'an offer'}: {d.method} {d.url}
            </Text>
          ),
        )}
        {editable ? (
          <Group>
            <Button
              variant="light"
              size="compact-sm"
              onClick={() =>
                onChange([
                  ...drafts,
                  {
                    key: newKey(),
                    offer_id: null,
                    offer_title: null,
                    event: 'approved',
                    method: 'GET',
                    url: '',
                    body: null,
                  },
                ])
              }
            >
              Add a postback for one offer
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
