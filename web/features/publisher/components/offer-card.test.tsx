import { noOfferRules, officeHours } from '@contract/offer-rules.ts';
import type { PublisherOffer } from '@contract/publisher.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { itemTexts } from '@/test/item-texts.ts';
import { publisherOffer } from '@/test/publisher-offer.ts';
import { renderWithApp } from '@/test/render.tsx';
import { OfferCard } from './offer-card.tsx';

const offer = publisherOffer({
  id: '6f1c1c3e-5d7a-4d0e-9a38-1f1b1e0c0a02',
  title: 'Medicare Inbound',
  vertical: 'Medicare',
  payout: 30,
});

/** The card of `o`, open to apply to, with any other props the test sets. */
const card = (o: PublisherOffer, props: Partial<ComponentProps<typeof OfferCard>> = {}) =>
  renderWithApp(
    <OfferCard offer={o} blockedReason={null} starting={false} onApply={() => {}} {...props} />,
  );

describe('the offer card tells which calls pay', () => {
  it('says every completed call pays when the offer has no rules', () => {
    card(offer);
    expect(screen.getByText('Which calls pay')).toBeTruthy();
    expect(screen.getByText('Every completed call.')).toBeTruthy();
    expect(screen.getByText('$30.00')).toBeTruthy();
  });

  it("lists the rules and the publisher's own payout beside the standard one", () => {
    card({
      ...offer,
      your_payout: 42.5,
      rules: {
        ...noOfferRules,
        buffer_seconds: 90,
        daily_cap: 200,
        allowed_states: ['CA', 'NY'],
        open_hours: { time_zone: 'America/New_York', ...officeHours },
      },
    });
    expect(screen.getByText('Your payout')).toBeTruthy();
    expect(screen.getByText('$42.50')).toBeTruthy();
    expect(screen.getByText('Standard payout $30.00')).toBeTruthy();
    const items = itemTexts(screen.getByTestId('offer-rules'));
    expect(items).toEqual([
      'Billable after: 1 min 30 s (shorter calls do not pay)',
      'Offer caps: 200 a day',
      'States: CA, NY',
      'Open hours: Mon–Fri 09:00–17:00 (America/New_York)',
    ]);
  });
});

describe('the offer card shows the tracking numbers the network gave the publisher', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows nothing about numbers when there are none', () => {
    card({ ...offer, application_status: 'approved', application_id: 'a1' });
    expect(screen.queryByText('Your tracking numbers')).toBeNull();
  });

  it('lists each number as people read it, and copies it as trackers take it', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    card({
      ...offer,
      application_status: 'approved',
      application_id: 'a1',
      tracking_numbers: ['+18665551234', '+442079460958'],
    });
    const list = screen.getByRole('list', { name: 'Your tracking numbers' });
    expect(itemTexts(list)).toEqual(['+1 866 555 1234', '+44 20 7946 0958']);
    fireEvent.click(screen.getByRole('button', { name: 'Copy +1 866 555 1234' }));
    expect(writeText).toHaveBeenCalledWith('+18665551234');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copied +1 866 555 1234' })));
  });
});

describe('the offer card and its script (issue 33)', () => {
  const approved = { ...offer, application_status: 'approved' as const };

  it('marks a changed script and opens it with Read script changes', () => {
    const onReadScript = vi.fn();
    card(approved, { scriptUnread: true, onReadScript });
    expect(screen.getByText('Changed: acknowledge')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Read script changes: Medicare Inbound' }));
    expect(onReadScript).toHaveBeenCalledWith(approved);
  });

  it('offers the script without a badge once acknowledged, and nothing before approval', () => {
    const { unmount } = card(approved, { onReadScript: () => {} });
    expect(screen.queryByText('Changed: acknowledge')).toBeNull();
    expect(screen.getByRole('button', { name: 'Script versions: Medicare Inbound' })).toBeTruthy();
    unmount();
    card(offer, { onReadScript: () => {} });
    expect(screen.queryByRole('button', { name: /Script versions/ })).toBeNull();
  });
});
