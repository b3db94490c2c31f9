import {
  type PostbackEvent,
  type PostbackTemplates,
  postbackEventLabels,
  postbackEvents,
  postbackTokens,
  type TestPostbackAnswer,
} from '@contract/outbound.ts';
import {
  Alert,
  Button,
  Card,
  Code,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { DeliveryLog } from '@/components/deliveries/delivery-log.tsx';
import { showFailure } from '@/components/forms/show-failure.ts';
import { QueryError } from '@/components/lists/query-error.tsx';
import { ApiError } from '@/lib/api-client.ts';
import { toast } from '@/lib/notify.ts';
import {
  type OfferDraft,
  offerDraftsOf,
  offerTemplatesOf,
  PerOfferPostbacks,
} from './per-offer-postbacks.tsx';
import {
  type PostbackRoutes,
  usePostbacks,
  useSavePostbacks,
  useTestPostback,
} from './postbacks-api.ts';

type Draft = { method: 'GET' | 'POST'; url: string; body: string };
type Drafts = Record<PostbackEvent, Draft>;
type Saved = PostbackTemplates['templates'][number];

const emptyDraft = (): Draft => ({ method: 'GET', url: '', body: '' });

/** The publisher-wide templates (no offer) as one draft per event; a missing one is empty. */
function draftsOf(templates: Saved[]): Drafts {
  const out = Object.fromEntries(postbackEvents.map((e) => [e, emptyDraft()])) as Drafts;
  for (const t of templates) {
    if (t.offer_id === null) out[t.event] = { method: t.method, url: t.url, body: t.body ?? '' };
  }
  return out;
}

/** The templates to send: each event with a URL, then the per-offer ones. */
function templatesOf(drafts: Drafts, perOffer: ReturnType<typeof offerTemplatesOf>) {
  const own = postbackEvents
    .filter((e) => drafts[e].url.trim() !== '')
    .map((e) => ({
      event: e,
      method: drafts[e].method,
      url: drafts[e].url.trim(),
      body: drafts[e].method === 'POST' && drafts[e].body.trim() ? drafts[e].body : null,
      offer_id: null,
    }));
  return { own, all: [...own, ...perOffer] };
}

/**
 * The server's field messages (`templates.2.url`) put on the event they belong to, or on the
 * per-offer row (by its key) for the templates after the publisher's own.
 */
function fieldErrors(err: unknown, own: { event: PostbackEvent }[], rowKeys: string[]) {
  const out: Partial<Record<PostbackEvent, { url?: string; body?: string }>> = {};
  const rows: Record<string, string | undefined> = {};
  if (!(err instanceof ApiError) || !err.details) return { events: out, rows };
  for (const [field, messages] of Object.entries(err.details)) {
    const m = /^templates\.(\d+)\.(url|body)$/.exec(field);
    if (!m) continue;
    const i = Number(m[1]);
    const event = own[i]?.event;
    if (event) out[event] = { ...out[event], [m[2] as 'url' | 'body']: messages[0] };
    const key = rowKeys[i - own.length];
    if (!event && key) rows[key] = messages[0];
  }
  return { events: out, rows };
}

function TestAnswer({ answer }: { answer: TestPostbackAnswer }) {
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
  return (
    <Alert
      color={ok ? 'green' : 'red'}
      variant="light"
      title={
        answer.status !== null
          ? `Answered ${answer.status} in ${answer.duration_ms} ms`
          : `Not sent: ${answer.error ?? 'no answer'}`
      }
    >
      <Stack gap={4}>
        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
          {answer.request.method} {answer.request.url}
        </Text>
        {answer.status !== null ? (
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {answer.body || '(empty body)'}
          </Code>
        ) : null}
      </Stack>
    </Alert>
  );
}

function TemplateFields({
  event,
  draft,
  errors,
  onChange,
  routes,
}: {
  event: PostbackEvent;
  draft: Draft;
  errors: { url?: string; body?: string } | undefined;
  onChange: (d: Draft) => void;
  routes: PostbackRoutes;
}) {
  const test = useTestPostback(routes);
  const [answer, setAnswer] = useState<TestPostbackAnswer | null>(null);
  const label = postbackEventLabels[event];

  async function runTest() {
    setAnswer(null);
    try {
      setAnswer(
        await test.mutateAsync({
          event,
          method: draft.method,
          url: draft.url.trim(),
          body: draft.method === 'POST' && draft.body.trim() ? draft.body : null,
        }),
      );
    } catch (err) {
      showFailure('Failed to test postback', err);
    }
  }

  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} fz="md">
            {label}
          </Title>
          <SegmentedControl
            size="xs"
            aria-label={`Method of ${label}`}
            data={['GET', 'POST']}
            value={draft.method}
            onChange={(m) => onChange({ ...draft, method: m as Draft['method'] })}
          />
        </Group>
        <TextInput
          label={`URL for ${label}`}
          placeholder="https://tracker.example.com/postback?clickid={tag:sub_id}&payout={payout}"
          value={draft.url}
          error={errors?.url}
          onChange={(e) => onChange({ ...draft, url: e.currentTarget.value })}
        />
        {draft.method === 'POST' ? (
          <Textarea
            label={`Body for ${label} (optional)`}
            placeholder='{"call": "{call_id}", "payout": {payout}}'
            autosize
            minRows={2}
            value={draft.body}
            error={errors?.body}
            onChange={(e) => onChange({ ...draft, body: e.currentTarget.value })}
          />
        ) : null}
        <Group>
          <Button
            variant="light"
            size="compact-sm"
            disabled={draft.url.trim() === ''}
            loading={test.isPending}
            onClick={() => void runTest()}
            aria-label={`Test ${label}`}
          >
            Test
          </Button>
          <Text size="xs" c="dimmed">
            Sends a sample call with made-up values; nothing is logged.
          </Text>
        </Group>
        {answer ? <TestAnswer answer={answer} /> : null}
      </Stack>
    </Card>
  );
}

/** The tokens a template may use, from the contract, and the passable tracker tags. */
function TokenHelp({ tags }: { tags: string[] }) {
  return (
    <Card withBorder padding="md">
      <Title order={3} fz="md" mb="xs">
        Tokens
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Put a token in braces in the URL or body; it is replaced (URL-encoded in the URL) when the
        postback fires.
      </Text>
      <Table fz="sm" verticalSpacing={4}>
        <Table.Tbody>
          {Object.entries(postbackTokens).map(([token, meaning]) => (
            <Table.Tr key={token}>
              <Table.Td>
                <Code>{`{${token}}`}</Code>
              </Table.Td>
              <Table.Td>{meaning}</Table.Td>
            </Table.Tr>
          ))}
          {tags.map((tag) => (
            <Table.Tr key={`tag:${tag}`}>
              <Table.Td>
                <Code>{`{tag:${tag}}`}</Code>
              </Table.Td>
              <Table.Td>The tracker tag {tag}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

/**
 * One template per event (method, URL, body for a POST) with Test, the token help and Save.
 * Per-offer templates (set by an admin) are kept as they are and listed.
 */
export function PostbacksEditor({
  routes,
  editPerOffer = false,
}: {
  routes: PostbackRoutes;
  /** The admin's view: the per-offer templates are edited here too. */
  editPerOffer?: boolean;
}) {
  const saved = usePostbacks(routes);
  const save = useSavePostbacks(routes);
  const [drafts, setDrafts] = useState<Drafts | null>(null);
  const [offerDrafts, setOfferDrafts] = useState<OfferDraft[]>([]);
  const [errors, setErrors] = useState<ReturnType<typeof fieldErrors>>({ events: {}, rows: {} });
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!saved.data) return;
    setDrafts(draftsOf(saved.data.templates));
    setOfferDrafts(offerDraftsOf(saved.data.templates));
  }, [saved.data]);

  if (saved.isError) return <QueryError title="Postbacks could not be loaded" query={saved} />;
  if (!saved.data || !drafts)
    return (
      <Text size="sm" c="dimmed">
        Loading…
      </Text>
    );

  async function handleSave() {
    if (!drafts) return;
    const sentRows = offerDrafts.filter((d) => d.offer_id !== null && d.url.trim() !== '');
    const { own, all } = templatesOf(drafts, offerTemplatesOf(sentRows));
    setErrors({ events: {}, rows: {} });
    setFailure(null);
    try {
      await save.mutateAsync({ templates: all });
      toast({ title: 'Postbacks Saved', description: `${own.length} of 4 events set.` });
    } catch (err) {
      setErrors(
        fieldErrors(
          err,
          own,
          sentRows.map((d) => d.key),
        ),
      );
      setFailure(err instanceof Error ? err.message : String(err));
      showFailure('Failed to save postbacks', err);
    }
  }

  return (
    <Stack gap="md">
      {saved.data.paused_at ? (
        <Alert color="red" variant="light" title="Postbacks paused">
          Your server refused them for a day. Fix it, then Save to resume; waiting postbacks are
          sent then.
        </Alert>
      ) : null}
      {postbackEvents.map((event) => (
        <TemplateFields
          key={event}
          event={event}
          draft={drafts[event]}
          errors={errors.events[event]}
          routes={routes}
          onChange={(d) => setDrafts({ ...drafts, [event]: d })}
        />
      ))}
      <PerOfferPostbacks
        drafts={offerDrafts}
        editable={editPerOffer}
        errors={errors.rows}
        onChange={setOfferDrafts}
      />
      {failure ? (
        <Alert color="red" variant="light" title="Not saved">
          {failure}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button loading={save.isPending} onClick={() => void handleSave()}>
          Save Postbacks
        </Button>
      </Group>
      <TokenHelp tags={saved.data.passable_tags} />
    </Stack>
  );
}

/** The editor, then the log of what was sent (the publisher's page and the admin's card). */
export function PostbacksWithLog({
  routes,
  titleOrder,
  editPerOffer = false,
}: {
  routes: PostbackRoutes;
  titleOrder: 2 | 3;
  editPerOffer?: boolean;
}) {
  return (
    <Stack gap="lg">
      <PostbacksEditor routes={routes} editPerOffer={editPerOffer} />
      <Title order={titleOrder} fz={titleOrder === 2 ? 'lg' : 'md'}>
        Delivery log
      </Title>
      <DeliveryLog routes={routes.deliveries} label="Postback deliveries" />
    </Stack>
  );
}
