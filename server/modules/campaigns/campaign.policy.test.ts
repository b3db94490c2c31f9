import { describe, expect, it } from 'vitest';
import { CAMPAIGN_LIFECYCLE_MESSAGES as M } from '../../../contract/buyer.ts';
import {
  type CampaignState,
  refuseDecision,
  refuseEnd,
  refusePause,
  refuseResume,
} from './campaign.policy.ts';

const paused = (over: Partial<CampaignState> = {}): CampaignState => ({
  status: 'paused',
  pausedBy: 'buyer',
  budget: 100,
  spent: 50,
  pricePerCall: 10,
  endDate: null,
  ...over,
});

describe('campaign lifecycle policy', () => {
  it('decides only pending campaigns, pauses only active ones, ends live ones', () => {
    expect(refuseDecision({ status: 'pending' })).toBeNull();
    expect(refuseDecision({ status: 'active' })).toBe(M.notPending);
    expect(refusePause({ status: 'active' })).toBeNull();
    expect(refusePause({ status: 'paused' })).toBe(M.notPausable);
    expect(refuseEnd({ status: 'paused' })).toBeNull();
    expect(refuseEnd({ status: 'pending' })).toBe(M.notEndable);
  });

  it('lets a buyer resume their own pause but not an admin pause or a daily cap', () => {
    expect(refuseResume(paused(), 'buyer', '2026-01-01')).toBeNull();
    expect(refuseResume(paused({ pausedBy: 'admin' }), 'buyer', '2026-01-01')).toBe(
      M.pausedByAdmin,
    );
    expect(refuseResume(paused({ pausedBy: 'admin' }), 'admin', '2026-01-01')).toBeNull();
    expect(refuseResume(paused({ pausedBy: 'daily_cap' }), 'buyer', '2026-01-01')).toBe(M.dailyCap);
  });

  it('never resumes while the budget is spent or the end date has passed', () => {
    const spent = paused({ pausedBy: 'budget', spent: 95 });
    expect(refuseResume(spent, 'admin', '2026-01-01')).toBe(M.budgetSpent);
    expect(refuseResume({ ...spent, budget: 200 }, 'buyer', '2026-01-01')).toBeNull();
    const ended = paused({ pausedBy: 'end_date', endDate: '2025-12-31' });
    expect(refuseResume(ended, 'buyer', '2026-01-01')).toBe(M.endDatePassed);
    expect(refuseResume({ ...ended, endDate: null }, 'buyer', '2026-01-01')).toBeNull();
    expect(refuseResume(paused({ status: 'active' }), 'buyer', '2026-01-01')).toBe(M.notPaused);
  });
});
