import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, noRoute, stubFetch } from '@/test/fake-api.ts';
import { renderWithApp } from '@/test/render.tsx';
import { SubIdsCard } from './sub-ids-card.tsx';

describe('SubIdsCard (issue 34: report by a tracker tag marked as a sub-id)', () => {
  it('shows the marked tags and saves the five places', async () => {
    const sent: unknown[] = [];
    stubFetch(async (req) => {
      if (req.url.pathname !== '/api/v1/admin/report-settings') return noRoute();
      if (req.method === 'PUT') {
        sent.push(req.body());
        return json(200, { sub_id_tags: ['utm_source', 'click_id', '', '', ''] });
      }
      return json(200, { sub_id_tags: ['utm_source', '', '', '', ''] });
    });
    renderWithApp(<SubIdsCard />);
    const sub1 = screen.getByLabelText('Sub 1') as HTMLInputElement;
    await waitFor(() => expect(sub1.value).toBe('utm_source'));
    fireEvent.change(screen.getByLabelText('Sub 2'), { target: { value: ' click_id ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Sub-ids' }));
    await waitFor(() =>
      expect(sent).toEqual([{ sub_id_tags: ['utm_source', 'click_id', '', '', ''] }]),
    );
    await waitFor(() =>
      expect(document.querySelector('.mantine-Notification-root')?.textContent).toContain(
        'Reports can group by 2 sub-ids.',
      ),
    );
  });
});
