import { tokenSyntaxes } from '@contract/ingest-mapping.ts';
import { presetOf } from '@contract/tracker-presets.ts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { SetupInstructions } from './setup-instructions.tsx';
import { encodeKeepingTokens, stepUrl } from './setup-urls.ts';

const origin = window.location.origin;

describe('setup URLs', () => {
  it('keeps the tracker’s tokens as typed and encodes the text around them', () => {
    expect(encodeKeepingTokens('[tag:Address:Zip 5]', ['brackets'])).toBe('[tag:Address:Zip 5]');
    expect(encodeKeepingTokens('+1 [Call:CallerId] & co', ['brackets'])).toBe(
      '%2B1%20[Call:CallerId]%20%26%20co',
    );
    expect(encodeKeepingTokens('{{zip}}/{zip}/%zip%', tokenSyntaxes)).toBe(
      '{{zip}}%2F{zip}%2F%zip%',
    );
    // A syntax the tracker does not use is plain text.
    expect(encodeKeepingTokens('{zip}', ['brackets'])).toBe('%7Bzip%7D');
  });

  it('puts the key first, or YOUR_KEY when it is not known', () => {
    const step = { query: { call_id: '[Call:InboundCallId]', event: 'completed' } };
    expect(stepUrl(step, 'ik_a+b', ['brackets'])).toBe(
      `${origin}/api/v1/ingest/calls?key=ik_a%2Bb&call_id=[Call:InboundCallId]&event=completed`,
    );
    expect(stepUrl({}, null, [])).toBe(`${origin}/api/v1/ingest/calls?key=YOUR_KEY`);
  });
});

describe('SetupInstructions', () => {
  it('lists every Ringba trigger with its meaning, its pixel URL and a JSON body', () => {
    const ringba = presetOf('ringba');
    renderWithApp(
      <SetupInstructions
        integration={{ name: 'Ringba', tracker: 'ringba', signature: null }}
        keyValue="ik_KEY"
      />,
    );
    const steps = screen.getByRole('list', { name: 'Setup steps' });
    const items = within(steps).getAllByRole('listitem');
    expect(items).toHaveLength(ringba.setup.length);
    const error = items.find((li) => within(li).queryByRole('heading', { name: 'Error' }));
    expect(error).toBeTruthy();
    const card = within(error as HTMLElement);
    expect(card.getByText(/The call never connected: recorded, never paid/)).toBeTruthy();
    const url = card.getByText(/^http/).textContent ?? '';
    expect(
      url.startsWith(
        `${origin}/api/v1/ingest/calls?key=ik_KEY&call_id=[Call:InboundCallId]&event=error`,
      ),
    ).toBe(true);
    expect(url).toContain('zip=[tag:Geo:ZipCode]');
    expect(card.getByRole('button', { name: 'Copy pixel URL for Error' })).toBeTruthy();
    // The JSON webhook: its URL carries the key only, its body the tokens.
    const webhook = within(items.find((li) => within(li).queryByText('JSON body')) as HTMLElement);
    expect(webhook.getByText(`${origin}/api/v1/ingest/calls?key=ik_KEY`)).toBeTruthy();
    expect(webhook.getByText(/"callId": "\[Call:InboundCallId\]"/)).toBeTruthy();
    expect(webhook.getByText('Content-Type: application/json')).toBeTruthy();
    for (const note of ringba.notes) expect(screen.getByText(note)).toBeTruthy();
  });

  it('says how a signed integration is checked', () => {
    renderWithApp(
      <SetupInstructions
        integration={{
          name: 'CallRail',
          tracker: 'callrail',
          signature: { scheme: 'callrail', header: 'signature', secret_hint: 'wxyz' },
        }}
        keyValue={null}
      />,
    );
    expect(screen.getByText(/must carry a valid CallRail signature/)).toBeTruthy();
    expect(screen.getByText(/Replace/).textContent).toContain('YOUR_KEY');
  });
});
