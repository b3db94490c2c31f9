import {
  type BuyerStatus,
  isApprovedPublisher,
  type PublisherStatus,
} from '../../../contract/roles.ts';

/** The admin actions on a publisher account (spec §4). */
export type PublisherAction = 'approve' | 'reject' | 'block' | 'unblock';

export type TransitionVerdict<A> = { ok: true; action: A } | { ok: false; message: string };

const described: Record<PublisherStatus, string> = {
  pending: 'set back to pending',
  approved: 'approved',
  active: 'set to active',
  blocked: 'blocked',
};

/**
 * The spec's publisher transitions, nothing else: pending → approved (Approve) or blocked
 * (Reject); approved or legacy active → blocked (Block); blocked → approved (Unblock).
 */
export function publisherTransition(
  from: PublisherStatus,
  to: PublisherStatus,
): TransitionVerdict<PublisherAction> {
  if (from === 'pending') {
    if (to === 'approved') return { ok: true, action: 'approve' };
    if (to === 'blocked') return { ok: true, action: 'reject' };
    return {
      ok: false,
      message: 'A pending publisher can be approved or rejected, not left pending.',
    };
  }
  if (isApprovedPublisher(from)) {
    if (to === 'blocked') return { ok: true, action: 'block' };
    return {
      ok: false,
      message: `An approved publisher can only be blocked, not ${described[to]}.`,
    };
  }
  if (to === 'approved') return { ok: true, action: 'unblock' };
  return {
    ok: false,
    message: `A blocked publisher can only be unblocked (approved again), not ${described[to]}.`,
  };
}

/** Buyers toggle between active and blocked. */
export function buyerTransition(
  from: BuyerStatus,
  to: BuyerStatus,
): TransitionVerdict<'block' | 'unblock'> {
  if (from === to) {
    return {
      ok: false,
      message:
        to === 'blocked' ? 'This buyer is already blocked.' : 'This buyer is already active.',
    };
  }
  return { ok: true, action: to === 'blocked' ? 'block' : 'unblock' };
}

/** Payouts go only to publishers an admin has approved (or legacy active ones). */
export function canReceivePayout(status: PublisherStatus): boolean {
  return isApprovedPublisher(status);
}
