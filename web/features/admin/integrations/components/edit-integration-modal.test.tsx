import { presetOf } from '@contract/tracker-presets.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { EditIntegrationModal } from './edit-integration-modal.tsx';
import { stubApi, twilioIntegration } from './integration-test-kit.ts';
import { describeRule } from './rule-words.ts';

const twilio = presetOf('twilio').mapping;

/** A Twilio integration whose caller was renamed; every other field has the preset's rule. */
const integration = twilioIntegration({
  account_id: 'AC0123456789abcdef',
  field_map: {
    ...twilio,
    publisher: { names: ['publisher'] },
    offer: { names: ['offer'] },
    payout: { names: ['payout'] },
    revenue: { names: ['revenue'] },
    caller: { names: ['caller_number'] },
  },
  signature: { scheme: 'twilio', header: 'x-twilio-signature', secret_hint: 'ab12' },
});

const api = stubApi(`/api/v1/admin/integrations/${integration.id}`, () => ({
  status: 200,
  body: integration,
}));

function open() {
  const onClose = vi.fn();
  renderWithApp(<EditIntegrationModal integration={integration} onClose={onClose} />);
  return { dialog: screen.getByRole('dialog', { name: 'Edit Twilio numbers' }), onClose };
}

/** A field's row: its header button reads the rule in words. */
const row = (dialog: HTMLElement, field: string) =>
  within(dialog).getByTestId(`rule-${field}`).closest('.mantine-Accordion-item') as HTMLElement;

/** Opens the event field's rule and adds a tracker word to its map; `last` numbers its row. */
async function addEventWord(dialog: HTMLElement, word: string) {
  fireEvent.click(within(dialog).getByTestId('rule-event'));
  const event = row(dialog, 'event');
  fireEvent.click(await within(event).findByRole('button', { name: 'Add value' }));
  const last = within(event).getAllByRole('textbox', { name: /^Tracker value/ }).length;
  fireEvent.change(within(event).getByRole('textbox', { name: `Tracker value ${last}` }), {
    target: { value: word },
  });
  return { event, last };
}

describe('EditIntegrationModal: the mapping editor', () => {
  it('reads every rule in words', () => {
    const { dialog } = open();
    expect(within(dialog).getByTestId('rule-call_id').textContent).toBe('call_id ← CallSid');
    expect(within(dialog).getByTestId('rule-event').textContent).toBe(
      'event ← DialCallStatus or CallStatus, queued/initiated/ringing → incoming; in-progress → connected; completed/answered → completed; busy/failed/no-answer/canceled → not connected',
    );
    expect(within(dialog).getByTestId('rule-duration').textContent).toBe(
      'duration ← DialCallDuration or CallDuration (seconds)',
    );
    // The renamed caller is marked as not the preset's; the signature shows its hint only.
    expect(within(row(dialog, 'caller')).getByText("Not the preset's")).toBeTruthy();
    expect(within(dialog).getByText('ab12')).toBeTruthy();
  });

  it('adds a tracker word to the event map, its target picked from the event targets', async () => {
    const { dialog, onClose } = open();
    const { event, last } = await addEventWord(dialog, 'voicemail');
    fireEvent.change(within(event).getByRole('combobox', { name: `Our value ${last}` }), {
      target: { value: 'not_connected' },
    });
    await waitFor(() =>
      expect(within(dialog).getByTestId('rule-event').textContent).toContain(
        'busy/failed/no-answer/canceled/voicemail → not connected',
      ),
    );
    expect(within(event).getByText('Edited')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.sent).toEqual([
      {
        field_map: {
          event: {
            names: ['DialCallStatus', 'CallStatus'],
            map: { ...twilio.event?.map, voicemail: 'not_connected' },
          },
        },
      },
    ]);
  });

  it('edits a format and a split, and resets a field to the preset with null', async () => {
    const { dialog, onClose } = open();
    fireEvent.click(within(dialog).getByTestId('rule-duration'));
    const duration = row(dialog, 'duration');
    fireEvent.change(await within(duration).findByRole('combobox', { name: 'Format' }), {
      target: { value: 'minutes' },
    });
    await waitFor(() =>
      expect(within(dialog).getByTestId('rule-duration').textContent).toBe(
        'duration ← DialCallDuration or CallDuration (minutes)',
      ),
    );
    fireEvent.click(within(dialog).getByTestId('rule-zip'));
    const zip = row(dialog, 'zip');
    fireEvent.click(await within(zip).findByRole('checkbox', { name: /packed with others/ }));
    fireEvent.change(within(zip).getByRole('textbox', { name: 'Delimiter' }), {
      target: { value: '|' },
    });
    fireEvent.change(within(zip).getByRole('textbox', { name: /^Part/ }), {
      target: { value: '1' },
    });
    fireEvent.click(within(dialog).getByTestId('rule-caller'));
    fireEvent.click(
      await within(row(dialog, 'caller')).findByRole('button', {
        name: 'Reset caller to preset',
      }),
    );
    expect(within(dialog).getByTestId('rule-caller').textContent).toBe(
      describeRule('caller', twilio.caller),
    );
    expect(within(row(dialog, 'caller')).getByText("Preset's rule on save")).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.sent).toEqual([
      {
        field_map: {
          duration: { names: ['DialCallDuration', 'CallDuration'], format: 'minutes' },
          zip: { names: ['FromZip', 'CallerZip'], split: { delimiter: '|', index: 1 } },
          caller: null,
        },
      },
    ]);
  });

  it('replaces nothing but what changed: removing the signature sends null', async () => {
    const { dialog, onClose } = open();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(within(dialog).getByText('The signature check will be removed on save.')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Account id/ }), {
      target: { value: '' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.sent).toEqual([{ account_id: null, signature: null }]);
  });

  it('shows the server’s 400 next to the form and at the field it names', async () => {
    api.answer = {
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'field_map.zip.names.0: A parameter name can be at most 100 characters.',
          details: {
            'field_map.zip.names.0': ['A parameter name can be at most 100 characters.'],
            account_id: ['Account id is already used by another tracker.'],
          },
        },
      },
    };
    const { dialog, onClose } = open();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Account id/ }), {
      target: { value: 'AC-other' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert', { name: /Not saved/ });
    expect(within(alert).getByText(/field_map\.zip\.names\.0: A parameter name/)).toBeTruthy();
    expect(within(alert).getByText(/account_id: Account id is already used/)).toBeTruthy();
    // …and under the input it names.
    expect(within(dialog).getByText('Account id is already used by another tracker.')).toBeTruthy();
    expect(within(row(dialog, 'zip')).getByText('Error')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('checks the mapping against the contract before sending', async () => {
    const { dialog } = open();
    const { event } = await addEventWord(dialog, 'voicemail');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByRole('alert', { name: /Not saved/ });
    expect(within(event).getByText(/event values map to one of/)).toBeTruthy();
    expect(api.sent).toEqual([]);
  });
});
