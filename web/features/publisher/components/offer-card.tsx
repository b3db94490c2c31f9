import { describeRules, type OfferRules } from '@contract/offer-rules.ts';
import type { PublisherOffer } from '@contract/publisher.ts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  CopyButton,
  Group,
  List,
  Spoiler,
  Stack,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconCopy, IconFileDiff, IconSend, IconUpload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { StatusBadge } from '@/components/status-badge.tsx';
import { formatMoney } from '@/lib/format.ts';
import { formatPhone } from '@/lib/phone-format.ts';

/** Script instructions show this many whole lines before "Show more" (never a cut line). */
const SCRIPT_LINES = 4;
const SCRIPT_LINE_HEIGHT_PX = 20;

type OfferCardProps = {
  offer: PublisherOffer;
  /**
   * Why Apply Now is unavailable (e.g. the account is pending), or null when it is available.
   * The page says it once in a banner, so the card gives it to screen readers only.
   */
  blockedReason: string | null;
  starting: boolean;
  onApply: (offer: PublisherOffer) => void;
  /** A rejected application: opens the compliance form again for new files (issue 16). */
  onResubmit?: (offer: PublisherOffer) => void;
  /** The current script is not acknowledged yet (issue 33). */
  scriptUnread?: boolean;
  /** Opens the script, its changes and Acknowledge (approved offers only). */
  onReadScript?: (offer: PublisherOffer) => void;
};

/** One block of the card: its small uppercase heading (`labelId` names the list under it). */
function CardBlock({
  labelId,
  heading,
  children,
}: {
  labelId: string;
  heading: string;
  children: ReactNode;
}) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb={2} id={labelId}>
        {heading}
      </Text>
      {children}
    </div>
  );
}

/** Which calls pay: the offer's rules as short lines, or that every completed call pays. */
function OfferRulesSummary({ rules, offerId }: { rules: OfferRules; offerId: string }) {
  const lines = describeRules(rules);
  const labelId = `offer-rules-${offerId}`;
  return (
    <CardBlock labelId={labelId} heading="Which calls pay">
      {lines.length === 0 ? (
        <Text size="sm">Every completed call.</Text>
      ) : (
        <List size="sm" spacing={2} aria-labelledby={labelId} data-testid="offer-rules">
          {lines.map((l) => (
            <List.Item key={l.label}>
              <Text span size="sm" fw={500}>
                {l.label}:
              </Text>{' '}
              {l.text}
            </List.Item>
          ))}
        </List>
      )}
    </CardBlock>
  );
}

/**
 * The tracking numbers the network gave this publisher on the offer, as people read them, each
 * with a button that copies it (in E.164, as trackers and dialers take it).
 */
function TrackingNumbers({ numbers, offerId }: { numbers: string[]; offerId: string }) {
  const labelId = `offer-numbers-${offerId}`;
  return (
    <CardBlock labelId={labelId} heading="Your tracking numbers">
      <Stack
        component="ul"
        gap={2}
        p={0}
        m={0}
        aria-labelledby={labelId}
        style={{ listStyle: 'none' }}
      >
        {numbers.map((n) => (
          <Group component="li" key={n} gap={4} wrap="nowrap">
            <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {formatPhone(n)}
            </Text>
            <CopyButton value={n} timeout={1500}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow position="right">
                  <ActionIcon
                    variant="subtle"
                    color={copied ? 'teal' : 'gray'}
                    size="sm"
                    onClick={copy}
                    aria-label={copied ? `Copied ${formatPhone(n)}` : `Copy ${formatPhone(n)}`}
                  >
                    {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        ))}
      </Stack>
    </CardBlock>
  );
}

/** One active offer: title, vertical, payout, script instructions, and Apply Now or its status. */
export function OfferCard({
  offer,
  blockedReason,
  starting,
  onApply,
  onResubmit,
  scriptUnread = false,
  onReadScript,
}: OfferCardProps) {
  const reasonId = `apply-reason-${offer.id}`;
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="article"
      aria-labelledby={`offer-${offer.id}`}
      data-testid="offer-card"
    >
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Title order={3} size="h4" id={`offer-${offer.id}`} style={{ overflowWrap: 'anywhere' }}>
            {offer.title}
          </Title>
          <Badge variant="light" style={{ flexShrink: 0 }}>
            {offer.vertical}
          </Badge>
        </Group>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {offer.your_payout === null ? 'Payout' : 'Your payout'}
          </Text>
          <Text fz="xl" fw={700}>
            {formatMoney(offer.your_payout ?? offer.payout)}
          </Text>
          {offer.your_payout !== null && offer.your_payout !== offer.payout ? (
            <Text size="xs" c="dimmed">
              Standard payout {formatMoney(offer.payout)}
            </Text>
          ) : null}
        </div>
        <OfferRulesSummary rules={offer.rules} offerId={offer.id} />
        {offer.tracking_numbers.length > 0 ? (
          <TrackingNumbers numbers={offer.tracking_numbers} offerId={offer.id} />
        ) : null}
        <div style={{ flex: 1 }}>
          <Group gap="xs" mb={2}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Script instructions
            </Text>
            {scriptUnread ? (
              <Badge color="yellow" variant="light" size="sm">
                Changed: acknowledge
              </Badge>
            ) : null}
          </Group>
          {offer.script_instructions ? (
            <Spoiler
              maxHeight={SCRIPT_LINES * SCRIPT_LINE_HEIGHT_PX}
              showLabel="Show more"
              hideLabel="Show less"
            >
              <Text
                size="sm"
                lh={`${SCRIPT_LINE_HEIGHT_PX}px`}
                style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              >
                {offer.script_instructions}
              </Text>
            </Spoiler>
          ) : (
            <Text size="sm" c="dimmed">
              No script instructions for this offer.
            </Text>
          )}
        </div>
        {offer.application_status ? (
          <Stack gap="xs">
            <Group gap="xs">
              <Text size="sm" fw={500}>
                Your application:
              </Text>
              <StatusBadge status={offer.application_status} />
            </Group>
            {offer.application_status === 'approved' && onReadScript ? (
              <Button
                variant={scriptUnread ? 'filled' : 'light'}
                color={scriptUnread ? 'yellow' : undefined}
                // Dark text on the yellow: white on it reads at 2.5:1 (axe, WCAG AA wants 4.5:1).
                autoContrast
                leftSection={<IconFileDiff size={16} />}
                onClick={() => onReadScript(offer)}
                aria-label={`${scriptUnread ? 'Read script changes' : 'Script versions'}: ${offer.title}`}
              >
                {scriptUnread ? 'Read script changes' : 'Script and versions'}
              </Button>
            ) : null}
            {offer.application_status === 'rejected' ? (
              <>
                {offer.application_reason ? (
                  <Alert color="red" variant="light" title="Reason" p="xs">
                    <Text size="sm" c="dark">
                      {offer.application_reason}
                    </Text>
                  </Alert>
                ) : null}
                {onResubmit ? (
                  <Button
                    variant="light"
                    leftSection={<IconUpload size={16} />}
                    onClick={() => onResubmit(offer)}
                    aria-label={`Submit new files: ${offer.title}`}
                  >
                    Submit new files
                  </Button>
                ) : null}
              </>
            ) : null}
          </Stack>
        ) : (
          <Stack gap={4}>
            <Button
              leftSection={<IconSend size={16} />}
              onClick={() => onApply(offer)}
              loading={starting}
              disabled={blockedReason !== null}
              aria-describedby={blockedReason ? reasonId : undefined}
              aria-label={`Apply Now: ${offer.title}`}
            >
              Apply Now
            </Button>
            {blockedReason ? <VisuallyHidden id={reasonId}>{blockedReason}</VisuallyHidden> : null}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
