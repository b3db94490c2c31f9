import { describe, expect, it } from 'vitest';
import { accountStatuses, publisherStatuses } from '../../../contract/roles.ts';
import { buyerTransition, canReceivePayout, publisherTransition } from './users.policy.ts';

describe('publisherTransition (spec §4: the admin actions on a publisher)', () => {
  it('allows exactly Approve, Reject, Block and Unblock', () => {
    const allowed: string[] = [];
    for (const from of publisherStatuses) {
      for (const to of publisherStatuses) {
        const verdict = publisherTransition(from, to);
        if (verdict.ok) allowed.push(`${from} → ${to}: ${verdict.action}`);
      }
    }
    expect(allowed).toEqual([
      'pending → approved: approve',
      'pending → blocked: reject',
      'approved → blocked: block',
      'active → blocked: block',
      'blocked → approved: unblock',
    ]);
  });

  it('explains every refused change in a sentence naming what was asked', () => {
    for (const [from, to, message] of [
      ['pending', 'pending', 'A pending publisher can be approved or rejected, not left pending.'],
      [
        'approved',
        'pending',
        'An approved publisher can only be blocked, not set back to pending.',
      ],
      ['active', 'approved', 'An approved publisher can only be blocked, not approved.'],
      [
        'blocked',
        'blocked',
        'A blocked publisher can only be unblocked (approved again), not blocked.',
      ],
    ] as const) {
      expect(publisherTransition(from, to)).toEqual({ ok: false, message });
    }
  });
});

describe('buyerTransition', () => {
  it('toggles between active and blocked, and refuses the status a buyer already has', () => {
    expect(buyerTransition('active', 'blocked')).toEqual({ ok: true, action: 'block' });
    expect(buyerTransition('blocked', 'active')).toEqual({ ok: true, action: 'unblock' });
    for (const s of accountStatuses) expect(buyerTransition(s, s).ok).toBe(false);
    expect(buyerTransition('blocked', 'blocked')).toMatchObject({
      message: 'This buyer is already blocked.',
    });
    expect(buyerTransition('active', 'active')).toMatchObject({
      message: 'This buyer is already active.',
    });
  });
});

describe('canReceivePayout', () => {
  it('is true for approved and legacy active publishers only', () => {
    expect(publisherStatuses.filter(canReceivePayout)).toEqual(['approved', 'active']);
  });
});
