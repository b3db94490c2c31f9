import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '@/lib/auth.tsx';
import { renderWithApp } from '@/test/render.tsx';
import { CreateCampaignDialog } from './create-campaign-dialog.tsx';

function openForm() {
  renderWithApp(
    <AuthProvider>
      <CreateCampaignDialog opened onClose={() => {}} />
    </AuthProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Create Campaign' });
  const field = (label: string) => within(dialog).getByLabelText(label, { exact: false });
  const submit = () =>
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
  return { dialog, field, submit };
}

describe('CreateCampaignDialog', () => {
  it('shows the contract messages inline and sends nothing while the form is wrong', async () => {
    const { dialog, field, submit } = openForm();
    fireEvent.change(field('Goal'), { target: { value: 'x'.repeat(2001) } });
    submit();
    await within(dialog).findByText('Campaign name is required.');
    expect(within(dialog).getByText('This field can be at most 2000 characters.')).toBeTruthy();
    expect(document.querySelector('.mantine-Notification-root')).toBeNull();
  });

  it('a valid form without a session says the buyer must be logged in', async () => {
    const { field, submit } = openForm();
    fireEvent.change(field('Campaign name'), { target: { value: 'Medicare Q3' } });
    submit();
    await waitFor(() => {
      expect(document.querySelector('.mantine-Notification-root')?.textContent).toContain(
        'Error creating campaignYou must be logged in to create a campaign.',
      );
    });
  });
});

describe('CreateCampaignDialog closing (issue 16: Escape and typed work)', () => {
  function openWith(onClose: () => void) {
    renderWithApp(
      <AuthProvider>
        <CreateCampaignDialog opened onClose={onClose} />
      </AuthProvider>,
    );
    return screen.getByRole('dialog', { name: 'Create Campaign' });
  }

  it('an untouched form closes on Escape at once', async () => {
    let closed = 0;
    openWith(() => closed++);
    fireEvent.keyDown(window, { key: 'Escape' });
    await waitFor(() => expect(closed).toBe(1));
    expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull();
  });

  it('a form with typed work asks before discarding, and Cancel keeps the work', async () => {
    let closed = 0;
    const dialog = openWith(() => closed++);
    const name = within(dialog).getByLabelText('Campaign name', { exact: false });
    fireEvent.change(name, { target: { value: 'Spring Medicare push' } });
    fireEvent.keyDown(window, { key: 'Escape' });
    const ask = await screen.findByRole('dialog', { name: 'Discard changes?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull(),
    );
    expect(closed).toBe(0);
    expect((name as HTMLInputElement).value).toBe('Spring Medicare push');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const again = await screen.findByRole('dialog', { name: 'Discard changes?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(closed).toBe(1));
  });
});
