import type { IntegrationTestResult } from '@contract/integrations.ts';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { stubApi, twilioIntegration } from './integration-test-kit.ts';
import { parseHeaders, TestConsoleModal } from './test-console-modal.tsx';

const integration = twilioIntegration();

const trace = (
  field: string,
  source: string | null,
  raw: string | null,
  value: string | null,
  note: string | null = null,
) => ({
  field,
  source,
  raw,
  value,
  note,
});

const notConnected: IntegrationTestResult = {
  outcome: 'create',
  http_status: 200,
  code: null,
  message: null,
  signature: 'not_checked',
  fields: [
    trace('call_id', 'CallSid', 'CA42', 'CA42'),
    trace('event', 'CallStatus', 'no-answer', 'not_connected', 'mapped no-answer → not_connected'),
    trace('caller', 'From', '+13105550182', '+13105550182'),
    trace('zip', null, null, null),
  ],
  tags: { CallbackSource: 'call-progress-events' },
  lead: {
    id: null,
    call_id: 'CA42',
    status: 'rejected',
    reason: 'Not connected: no-answer',
    publisher_id: 'p1',
    publisher_name: 'Tracker Tina',
    offer_id: 'o1',
    offer_title: 'Final Expense Calls',
    payout: '0.00',
    duration_seconds: 0,
    caller: '+13105550182',
    tracking_number: '+18665551234',
  },
};

const api = stubApi(`/api/v1/admin/integrations/${integration.id}/test`, () => ({
  status: 200,
  body: notConnected,
}));

function open() {
  renderWithApp(<TestConsoleModal integration={integration} onClose={() => {}} />);
  return screen.getByRole('dialog', { name: 'Test · Twilio numbers' });
}

describe('TestConsoleModal', () => {
  it('sends a pasted form body and shows the lead it would make, field by field', async () => {
    const dialog = open();
    // Twilio's setup steps are POSTs, so the console starts on POST.
    expect(within(dialog).getByRole('radio', { name: 'POST' })).toHaveProperty('checked', true);
    expect(within(dialog).getByText(/Nothing is written/)).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^URL or query string/ }), {
      target: { value: 'https://portal.example/api/v1/ingest/calls?key=ik_x' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Headers/ }), {
      target: { value: 'X-Twilio-Signature: abc=\n\n' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Body/ }), {
      target: { value: 'CallSid=CA42&CallStatus=no-answer&From=%2B13105550182' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Run test' }));

    const result = await within(dialog).findByRole('region', { name: 'Test result' });
    expect(api.sent).toEqual([
      {
        method: 'POST',
        query: 'https://portal.example/api/v1/ingest/calls?key=ik_x',
        headers: {
          'X-Twilio-Signature': 'abc=',
          // A form body without a Content-Type is sent as the form it looks like.
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'CallSid=CA42&CallStatus=no-answer&From=%2B13105550182',
      },
    ]);
    expect(within(result).getByText('Would create a new lead: rejected')).toBeTruthy();
    expect(within(result).getByText('Signature not checked')).toBeTruthy();
    expect(within(result).getByText(/Nothing was written/)).toBeTruthy();
    const lead = within(result).getByRole('group', { name: 'The lead it would make' });
    expect(within(lead).getByText('Rejected')).toBeTruthy();
    expect(within(lead).getByText('Not connected: no-answer')).toBeTruthy();
    expect(within(lead).getByText('Tracker Tina')).toBeTruthy();
    expect(within(lead).getByText('Final Expense Calls')).toBeTruthy();
    expect(within(lead).getByText('$0.00, not paid (rejected)')).toBeTruthy();
    const table = within(result).getByRole('table', { name: 'How each field was read' });
    const event = within(table).getByText('event').closest('tr') as HTMLElement;
    expect(within(event).getByText('CallStatus')).toBeTruthy();
    expect(within(event).getByText('no-answer')).toBeTruthy();
    expect(within(event).getByText('not_connected')).toBeTruthy();
    expect(within(event).getByText('mapped no-answer → not_connected')).toBeTruthy();
    expect(within(result).getByText('CallbackSource=call-progress-events')).toBeTruthy();
  });

  it('says why a request would be refused', async () => {
    api.answer = {
      status: 200,
      body: {
        ...notConnected,
        outcome: 'refused',
        http_status: 422,
        code: 'unknown_tracking_number',
        message: 'No publisher is assigned to +18665551234.',
        lead: null,
      },
    };
    const dialog = open();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'GET' }));
    expect(within(dialog).queryByRole('textbox', { name: /^Body/ })).toBeNull();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^URL or query string/ }), {
      target: { value: 'CallSid=CA1&To=%2B18665551234' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Run test' }));
    await within(dialog).findByText('Refused (422): No publisher is assigned to +18665551234.');
    expect(api.sent).toEqual([{ method: 'GET', query: 'CallSid=CA1&To=%2B18665551234' }]);
    expect(within(dialog).queryByRole('group', { name: 'The lead it would make' })).toBeNull();
  });

  it('names a header line it cannot read and sends nothing', async () => {
    const dialog = open();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Headers/ }), {
      target: { value: 'Content-Type: application/json\nnot a header' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Run test' }));
    await within(dialog).findByText('Line 2 is not "Name: value".');
    expect(api.sent).toEqual([]);
  });

  it('shows the server’s error when the test cannot run', async () => {
    api.answer = {
      status: 400,
      body: {
        error: { code: 'validation_failed', message: 'body: The body can be at most 64 KB.' },
      },
    };
    const dialog = open();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Body/ }), {
      target: { value: '{"callId":"x"}' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Run test' }));
    const alert = await within(dialog).findByRole('alert', { name: /could not run/ });
    expect(alert.textContent).toContain('The body can be at most 64 KB.');
    expect(api.sent).toEqual([
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"callId":"x"}',
      },
    ]);
  });
});

describe('parseHeaders', () => {
  it('reads one Name: value per line, values kept whole', () => {
    expect(parseHeaders('Authorization: Basic dTpw\r\nX-A:b: c\n')).toEqual({
      headers: { Authorization: 'Basic dTpw', 'X-A': 'b: c' },
      error: null,
    });
  });
});
