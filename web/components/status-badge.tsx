import { Badge, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export type StatusColor = 'yellow' | 'green' | 'red' | 'gray' | 'blue';

/** Whose status it is: only a publisher's legacy `active` reads differently (Approved). */
export type StatusSubject = 'publisher' | 'buyer' | 'offer' | 'application' | 'lead' | 'io';

// Mantine's light badges put shade-6 text on a tint, which falls below WCAG AA (4.5:1) for
// yellow and green; these darker texts stay above 7:1 on the tint over white and over gray.0.
const text: Record<StatusColor, string> = {
  yellow: '#7a4b00',
  green: '#1b5e20',
  red: '#a51111',
  gray: '#343a40',
  blue: '#1a4f8b',
};

const colorOf: Record<string, StatusColor> = {
  pending: 'yellow',
  approved: 'green',
  active: 'green',
  uploaded: 'green',
  delivered: 'green',
  rejected: 'red',
  blocked: 'red',
  failed: 'red',
  draft: 'gray',
  inactive: 'gray',
  // Documents to sign (issue 33).
  sent: 'yellow',
  viewed: 'blue',
  signed: 'green',
  expired: 'red',
  superseded: 'gray',
};

/** A status as people read it: 'pending' → 'Pending'; a publisher's legacy 'active' → 'Approved' (spec §4). */
export function statusLabel(status: string, subject?: StatusSubject): string {
  if (subject === 'publisher' && status === 'active') return 'Approved';
  return status ? `${status[0]?.toUpperCase()}${status.slice(1)}` : status;
}

type StatusBadgeProps = {
  /** The raw status value from the API (pending, approved, active, blocked, rejected, …). */
  status: string;
  subject?: StatusSubject;
  /** Replaces the label (e.g. "IO Uploaded"); the colour still follows `status`. */
  children?: ReactNode;
};

/** The one status pill of every area (admin, publisher, buyer): light tint, AA-contrast text. */
export function StatusBadge({ status, subject, children }: StatusBadgeProps) {
  const color = colorOf[status] ?? 'gray';
  return (
    <Badge
      color={color}
      variant="light"
      c={text[color]}
      data-status={status}
      // A squeezed table column must not cut the label to "APPROV…": the label keeps its width.
      styles={{ root: { flexShrink: 0 }, label: { overflow: 'visible' } }}
    >
      {children ?? statusLabel(status, subject)}
    </Badge>
  );
}

/** A status filter's choices with the badges' labels, e.g. statusOptions(['pending', 'approved']). */
export function statusOptions(statuses: readonly string[], subject?: StatusSubject) {
  return statuses.map((value) => ({ value, label: statusLabel(value, subject) }));
}

/**
 * A phone card's first line: its title (bold, wrapping anywhere on a narrow screen) and its
 * status badge at the right.
 */
export function StatusCardHead({ title, status }: { title: ReactNode; status: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start">
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {title}
      </Text>
      <StatusBadge status={status} />
    </Group>
  );
}
