import { type AdminIntegration, KEY_HEADER, KEY_PARAM } from '@contract/integrations.ts';
import { presetOf, type SetupStep } from '@contract/tracker-presets.ts';
import { Alert, Anchor, Badge, Code, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { CopyField } from '@/components/copy-field.tsx';
import { IntegrationDialog, type IntegrationDialogProps } from './integration-dialog.tsx';
import { meaningLabels, schemeLabels } from './rule-words.ts';
import { contentTypeOf, jsonTemplate, KEY_PLACEHOLDER, stepUrl } from './setup-urls.ts';

type Props = {
  integration: Pick<AdminIntegration, 'name' | 'tracker' | 'signature'>;
  /** The key right after creation; null later, when only `YOUR_KEY` can be shown. */
  keyValue: string | null;
};

function StepCard({
  step,
  index,
  count,
  url,
  trackerLabel,
}: {
  trackerLabel: string;
  step: SetupStep;
  index: number;
  count: number;
  url: string;
}) {
  const contentType = contentTypeOf(step);
  const what = step.method === 'GET' ? 'pixel URL' : 'webhook URL';
  return (
    <Paper component="li" withBorder p="md" radius="md" style={{ listStyle: 'none' }}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed">
              {count > 1 ? `Step ${index + 1} of ${count}` : 'Setup'}
            </Text>
            <Title order={3} fz="md" style={{ overflowWrap: 'anywhere' }}>
              {step.trigger}
            </Title>
          </Stack>
          <Badge variant="light" color="gray" c="dark.7" style={{ flexShrink: 0 }}>
            {step.method}
          </Badge>
        </Group>
        <Text size="sm">
          <b>For us:</b> {meaningLabels[step.meaning]}.
        </Text>
        {step.note ? (
          <Text size="sm" c="dimmed">
            {step.note}
          </Text>
        ) : null}
        <CopyField
          label={step.method === 'GET' ? 'Pixel URL' : 'Webhook URL'}
          value={url}
          copyLabel={`Copy ${what} for ${step.trigger}`}
        />
        {step.json ? (
          <CopyField
            label="JSON body"
            value={jsonTemplate(step.json)}
            copyLabel={`Copy JSON body for ${step.trigger}`}
          />
        ) : null}
        {contentType && step.body === 'form' ? (
          <Text size="sm">
            {trackerLabel} posts its own fields as a form (<Code>{contentType}</Code>): there is no
            body to write.
          </Text>
        ) : contentType ? (
          <Text size="sm">
            Sent as <Code>Content-Type: {contentType}</Code>.
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

/**
 * What to paste into the tracker, per event it can fire: the URL with the key and the
 * tracker's tokens (or the webhook URL and its JSON body), each with a Copy button, then the
 * preset's notes and the vendor pages they come from.
 */
export function SetupInstructions({ integration, keyValue }: Props) {
  const preset = presetOf(integration.tracker);
  const signature = integration.signature;
  // The generic preset's label names no tracker: the operator's own one is meant.
  const where = integration.tracker === 'generic' ? 'your tracker' : preset.label;
  return (
    <Stack gap="md">
      {keyValue ? null : (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} role="note">
          Replace <Code>{KEY_PLACEHOLDER}</Code> with this integration's key. The key was shown
          once, when the integration was created; if it is lost, revoke this integration and create
          a new one.
        </Alert>
      )}
      <Text size="sm">
        In {where}, set up{' '}
        {preset.setup.length === 1 ? 'the following' : `each of these ${preset.setup.length}`}. The
        key goes in the <Code>{KEY_PARAM}</Code> parameter, or in the <Code>{KEY_HEADER}</Code>{' '}
        header where the tracker lets you add headers.
      </Text>
      <Stack component="ol" gap="sm" p={0} m={0} aria-label="Setup steps">
        {preset.setup.map((step, i) => (
          <StepCard
            key={`${step.trigger} ${step.method} ${step.meaning}`}
            step={step}
            index={i}
            count={preset.setup.length}
            url={stepUrl(step, keyValue, preset.tokens)}
            trackerLabel={where === 'your tracker' ? 'Your tracker' : where}
          />
        ))}
      </Stack>
      {signature ? (
        <Text size="sm">
          Each request must carry a valid {schemeLabels[signature.scheme]} in the{' '}
          <Code>{signature.header}</Code> header; one that does not is refused (401).
        </Text>
      ) : preset.signature ? (
        <Text size="sm">
          {preset.label} can sign its requests ({schemeLabels[preset.signature]}): add the signing
          secret under Edit to have every request checked.
        </Text>
      ) : null}
      {preset.sendsPublisher ? null : (
        <Text size="sm">
          {preset.label} does not say which publisher sent a call: assign each tracking number to a
          publisher and an offer, and its calls go to them.
        </Text>
      )}
      {preset.notes.length > 0 ? (
        <Stack gap={4}>
          <Title order={3} fz="sm">
            Good to know
          </Title>
          <List size="sm" spacing={4}>
            {preset.notes.map((n) => (
              <List.Item key={n}>{n}</List.Item>
            ))}
          </List>
        </Stack>
      ) : null}
      {preset.sources.length > 0 ? (
        <Stack gap={4}>
          <Title order={3} fz="sm">
            From {preset.label}'s documentation
          </Title>
          <List size="sm" spacing={4}>
            {preset.sources.map((s) => (
              <List.Item key={s} style={{ overflowWrap: 'anywhere' }}>
                <Anchor href={s} target="_blank" rel="noreferrer" size="sm">
                  {s}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Stack>
      ) : null}
    </Stack>
  );
}

/** "How to connect": the setup instructions of an existing integration (key not known). */
export function SetupInstructionsModal({ integration, onClose }: IntegrationDialogProps) {
  return (
    <IntegrationDialog opened onClose={onClose} title={`How to connect · ${integration.name}`}>
      <SetupInstructions integration={integration} keyValue={null} />
    </IntegrationDialog>
  );
}
