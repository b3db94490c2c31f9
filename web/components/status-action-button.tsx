import { Button, type ButtonProps } from '@mantine/core';
import type { MouseEvent } from 'react';

/** The status changes an admin makes from a list or a detail page. */
export type StatusAction = 'approve' | 'reject' | 'block' | 'unblock';

// One look per action on every screen: Approve is the solid green (#1e6b30 keeps white text
// above AA; Mantine green.9 is 4.36:1), Reject and Block light red, Unblock light blue.
const looks: Record<StatusAction, { label: string; color: string; variant: 'filled' | 'light' }> = {
  approve: { label: 'Approve', color: '#1e6b30', variant: 'filled' },
  reject: { label: 'Reject', color: 'red', variant: 'light' },
  block: { label: 'Block', color: 'red', variant: 'light' },
  unblock: { label: 'Unblock', color: 'blue', variant: 'light' },
};

/** The confirm button colour of a dialog asking before this action. */
export function statusActionColor(action: StatusAction): string {
  return action === 'unblock' ? 'blue' : 'red';
}

type StatusActionButtonProps = Omit<ButtonProps, 'color' | 'variant' | 'children'> & {
  action: StatusAction;
  /** Names the target for screen readers, e.g. "Approve Jane Doe". */
  'aria-label': string;
  onClick: (e: MouseEvent<HTMLButtonElement>) => void;
};

/** Shared Approve / Reject / Block / Unblock button with the product's colours. */
export function StatusActionButton({ action, size = 'xs', ...rest }: StatusActionButtonProps) {
  const look = looks[action];
  return (
    <Button size={size} color={look.color} variant={look.variant} {...rest}>
      {look.label}
    </Button>
  );
}
