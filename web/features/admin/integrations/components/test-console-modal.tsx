import type { IntegrationTestRequest, IntegrationTestResult } from '@contract/integrations.ts';
import { presetOf } from '@contract/tracker-presets.ts';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  type TextareaProps,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconFlask, IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ErrorAlert } from '@/components/error-alert.tsx';
import { GrowingTextarea } from '@/components/forms/growing-textarea.tsx';
import { LabeledSegmentedControl } from '@/components/forms/labeled-segmented-control.tsx';
import { TableHeads } from '@/components/scroll-table.tsx';
import { StatusBadge, statusLabel } from '@/components/status-badge.tsx';
import { useTestIntegration } from '@/features/admin/integrations/api/test-integration.ts';
import { formatMoney, formatSeconds } from '@/lib/format.ts';
import { IntegrationDialog, type IntegrationDialogProps } from './integration-dialog.tsx';
import { ingestUrl } from './setup-urls.ts';

type Method = 'GET' | 'POST';

/** A request's text as the tracker sends it, in a monospace box that grows with it. */
function CodeTextarea(props: TextareaProps) {
  return (
    <GrowingTextarea
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      {...props}
    />
  );
}

/**
 * Headers typed one `Name: value` per line; a blank line is skipped. Answers the headers, or
 * the first line that is not a header.
 */
export function parseHeaders(
  text: string,
): { headers: Record<string, string>; error: null } | { headers: null; error: string } {
  const headers: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    const m = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s?(.*)$/.exec(line);
    if (!m?.[1]) return { headers: null, error: `Line ${i + 1} is not "Name: value".` };
    headers[m[1]] = (m[2] ?? '').trim();
  }
  return { headers, error: null };
}

/** A pasted body's type when no Content-Type header is given: JSON if it looks like it. */
export const guessContentType = (body: string): string =>
  /^\s*[[{]/.test(body) ? 'application/json' : 'application/x-www-form-urlencoded';

/** The request the console sends: a guessed Content-Type is added to a POST body's headers. */
export function testRequest(input: {
  method: Method;
  query: string;
  headers: Record<string, string>;
  body: string;
}): IntegrationTestRequest {
  const headers = { ...input.headers };
  const hasBody = input.method === 'POST' && input.body.trim() !== '';
  const typed = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
  if (hasBody && !typed) headers['Content-Type'] = guessContentType(input.body);
  return {
    method: input.method,
    ...(input.query.trim() ? { query: input.query.trim() } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(hasBody ? { body: input.body } : {}),
  };
}

/** The outcome in a sentence. */
export function outcomeSentence(r: IntegrationTestResult): string {
  if (r.outcome === 'refused') return `Refused (${r.http_status}): ${r.message ?? r.code ?? ''}`;
  const status = r.lead ? `: ${statusLabel(r.lead.status, 'lead').toLowerCase()}` : '';
  if (r.outcome === 'update') {
    const id = r.lead?.id ? ` ${r.lead.id.slice(0, 8)}` : '';
    return `Would update lead${id} (call ${r.lead?.call_id ?? '?'})${status}`;
  }
  return `Would create a new lead${status}`;
}

const signatureText: Record<IntegrationTestResult['signature'], string> = {
  valid: 'Signature valid',
  invalid: 'Signature invalid',
  not_checked: 'Signature not checked',
};
const signatureColor: Record<IntegrationTestResult['signature'], string> = {
  valid: 'green',
  invalid: 'red',
  not_checked: 'gray',
};

function Cell({ value, nowrap = false }: { value: string | null; nowrap?: boolean }) {
  return value === null || value === '' ? (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  ) : (
    <Text
      span
      size="sm"
      ff="monospace"
      style={nowrap ? { whiteSpace: 'nowrap' } : { overflowWrap: 'anywhere' }}
    >
      {value}
    </Text>
  );
}

function LeadSummary({ lead }: { lead: NonNullable<IntegrationTestResult['lead']> }) {
  const rows: [string, string][] = [
    ['Call id', lead.call_id],
    ['Publisher', lead.publisher_name],
    ['Offer', lead.offer_title],
    [
      'Payout',
      lead.status === 'rejected'
        ? `${formatMoney(lead.payout)}, not paid (rejected)`
        : lead.status === 'pending'
          ? `${formatMoney(lead.payout)} once approved`
          : formatMoney(lead.payout),
    ],
    ['Duration', formatSeconds(lead.duration_seconds)],
    ['Caller', lead.caller ?? '—'],
    ['Tracking number', lead.tracking_number ?? '—'],
  ];
  return (
    <Stack gap="xs" aria-label="The lead it would make" role="group">
      <Group gap="xs" wrap="wrap">
        <StatusBadge status={lead.status} subject="lead" />
        {lead.reason ? <Text size="sm">{lead.reason}</Text> : null}
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={4} verticalSpacing={4}>
        {rows.map(([label, value]) => (
          <Text size="sm" key={label} style={{ overflowWrap: 'anywhere' }}>
            <Text span size="sm" c="dimmed">
              {label}:
            </Text>{' '}
            {value}
          </Text>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function TestResult({ result }: { result: IntegrationTestResult }) {
  const refused = result.outcome === 'refused';
  const tags = Object.entries(result.tags);
  const ref = useRef<HTMLDivElement>(null);
  // Each new answer is brought into view: below a long pasted body it would be off screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per answer
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [result]);
  return (
    // The margin keeps the outcome clear of the dialog's sticky title when scrolled to.
    <Stack
      gap="md"
      aria-label="Test result"
      role="region"
      ref={ref}
      style={{ scrollMarginTop: 72 }}
    >
      <Alert
        color={refused ? 'red' : result.lead?.status === 'rejected' ? 'orange' : 'green'}
        variant="light"
        icon={refused ? <IconAlertCircle size={18} /> : <IconCircleCheck size={18} />}
        title={outcomeSentence(result)}
        styles={{ title: { color: 'var(--mantine-color-black)' } }}
      >
        <Group gap="xs" wrap="wrap">
          <Badge
            variant="light"
            color={signatureColor[result.signature]}
            c={`${signatureColor[result.signature]}.9`}
          >
            {signatureText[result.signature]}
          </Badge>
          <Text size="sm">Nothing was written: no lead, no refusal log entry.</Text>
        </Group>
      </Alert>
      {result.lead ? (
        <Stack gap="xs">
          <Title order={3} fz="md">
            {result.outcome === 'update' ? 'The lead after this request' : 'The lead it would make'}
          </Title>
          <LeadSummary lead={result.lead} />
        </Stack>
      ) : null}
      <Stack gap="xs">
        <Title order={3} fz="md">
          Fields
        </Title>
        {/* Focusable, so a keyboard can scroll the table sideways on a phone. */}
        <Table.ScrollContainer
          minWidth={560}
          type="native"
          tabIndex={0}
          role="group"
          aria-label="Fields table, scrolls sideways on small screens"
        >
          <Table striped withTableBorder aria-label="How each field was read" verticalSpacing={6}>
            <TableHeads heads={['Field', 'From', 'Sent', 'Read as', 'Note']} />
            <Table.Tbody>
              {result.fields.map((f) => (
                <Table.Tr key={f.field}>
                  <Table.Td>
                    <Text size="sm" ff="monospace" fw={600}>
                      {f.field}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Cell value={f.source} nowrap />
                  </Table.Td>
                  <Table.Td>
                    <Cell value={f.raw} />
                  </Table.Td>
                  <Table.Td>
                    <Cell value={f.value} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {f.note ?? ''}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
      {tags.length > 0 ? (
        <Stack gap="xs">
          <Title order={3} fz="md">
            Kept as tags
          </Title>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {tags.map(([k, v]) => `${k}=${v}`).join('\n')}
          </Code>
        </Stack>
      ) : null}
    </Stack>
  );
}

/**
 * The test console of an integration: a request pasted as the tracker would send it (a URL or
 * query string, headers, a body) is read with this integration's mapping, and the answer says
 * what would happen, field by field. The server writes nothing.
 */
export function TestConsoleModal({ integration, onClose }: IntegrationDialogProps) {
  const preset = presetOf(integration.tracker);
  const [method, setMethod] = useState<Method>(preset.setup[0]?.method ?? 'POST');
  const [query, setQuery] = useState('');
  const [headersText, setHeadersText] = useState('');
  const [body, setBody] = useState('');
  const [headersError, setHeadersError] = useState<string | null>(null);
  const test = useTestIntegration();

  function handleRun(event: FormEvent) {
    event.preventDefault();
    const parsed = parseHeaders(headersText);
    setHeadersError(parsed.error);
    if (!parsed.headers) return;
    test.mutate({
      id: integration.id,
      body: testRequest({ method, query, headers: parsed.headers, body }),
    });
  }

  const contentTyped = /^\s*content-type\s*:/im.test(headersText);
  return (
    <IntegrationDialog opened onClose={onClose} title={`Test · ${integration.name}`}>
      <Stack gap="md">
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} role="note">
          Paste a request as {preset.label} sends it. It is read with this integration's mapping and
          checks, and you see what would happen. Nothing is written: no lead is made or changed and
          nothing is logged.
        </Alert>
        <form onSubmit={handleRun} noValidate aria-label="Test request">
          <Stack gap="sm">
            <LabeledSegmentedControl
              id="test-method-label"
              label="Method"
              value={method}
              onChange={(v) => setMethod(v as Method)}
              data={['GET', 'POST']}
              style={{ alignSelf: 'flex-start' }}
            />
            <CodeTextarea
              label="URL or query string"
              description="The whole URL the tracker calls (with its query), or just the query."
              placeholder={`${ingestUrl()}?key=…&call_id=…`}
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
            />
            <CodeTextarea
              label="Headers"
              description="One Name: value per line (a signature header, Content-Type…)."
              placeholder="X-Twilio-Signature: …"
              minRows={1}
              value={headersText}
              error={headersError}
              onChange={(e) => setHeadersText(e.currentTarget.value)}
            />
            {method === 'POST' ? (
              <CodeTextarea
                label="Body"
                description={
                  contentTyped
                    ? 'Read as the Content-Type header says.'
                    : 'JSON or a form (a=1&b=2); without a Content-Type header, the console tells them apart.'
                }
                placeholder={'CallSid=CA…&CallStatus=completed'}
                minRows={3}
                maxRows={10}
                value={body}
                onChange={(e) => setBody(e.currentTarget.value)}
              />
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={test.isPending} leftSection={<IconFlask size={16} />}>
                Run test
              </Button>
            </Group>
          </Stack>
        </form>
        {test.error ? (
          <ErrorAlert icon={<IconAlertCircle size={18} />} title="The test could not run">
            {test.error.message}
          </ErrorAlert>
        ) : null}
        {test.data && !test.isPending ? <TestResult result={test.data} /> : null}
      </Stack>
    </IntegrationDialog>
  );
}
