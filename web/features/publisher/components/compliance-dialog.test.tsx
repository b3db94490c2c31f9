import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { publisherOffer } from '@/test/publisher-offer.ts';
import { renderWithApp } from '@/test/render.tsx';
import { ComplianceDialog } from './compliance-dialog.tsx';

const offer = publisherOffer({
  id: '6f1c1c3e-5d7a-4d0e-9a38-1f1b1e0c0a01',
  title: 'Final Expense Inbound',
  vertical: 'Insurance',
  payout: 42.5,
});
const draft = { applicationId: 'a2c4e6f8-0000-4000-8000-000000000001', offer };

const mp3 = (name: string) => new File(['ID3'], name, { type: 'audio/mpeg' });
const pdf = new File(['%PDF-1.4'], 'questionnaire.pdf', { type: 'application/pdf' });

function openDialog() {
  const closed: string[] = [];
  renderWithApp(
    <ComplianceDialog
      draft={draft}
      onCancel={(d) => closed.push(d.applicationId)}
      onDone={() => closed.push('done')}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Apply to Final Expense Inbound' });
  const input = (field: 'media' | 'document') =>
    dialog.querySelector<HTMLInputElement>(`input[type=file][name=${field}]`)!;
  const choose = (field: 'media' | 'document', files: File[]) =>
    fireEvent.change(input(field), { target: { files } });
  return { dialog, choose, closed };
}

/** The toast on screen: its title and text. */
async function toastText() {
  const toast = await waitFor(() => {
    const el = document.querySelector('.mantine-Notification-root');
    if (!el) throw new Error('no toast yet');
    return el;
  });
  return toast.textContent;
}

describe('ComplianceDialog', () => {
  it('asks for both kinds of files before sending anything', async () => {
    const { dialog } = openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit Application' }));
    expect(await toastText()).toContain(
      'Missing FilesPlease upload both media files and a document.',
    );
  });

  it('refuses a fourth recording with the spec message, and lists what was chosen', async () => {
    const { dialog, choose } = openDialog();
    choose('media', [mp3('one.mp3'), mp3('two.mp3'), mp3('three.mp3'), mp3('four.mp3')]);
    choose('document', [pdf]);
    const media = await within(dialog).findByRole('list', { name: 'Selected media files' });
    expect(within(media).getAllByRole('listitem')).toHaveLength(4);
    await within(dialog).findByRole('list', { name: 'Selected document' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit Application' }));
    expect(await toastText()).toContain('Too many filesYou can upload a maximum of 3 media files.');
  });

  it('says which file has the wrong type', async () => {
    const { dialog, choose } = openDialog();
    choose('media', [new File(['RIFF'], 'call.wav', { type: 'audio/wav' })]);
    const alert = await within(dialog).findByText('call.wav: only MP3 or MP4 files are accepted.');
    expect(alert.getAttribute('role')).toBe('alert');
  });

  it('Cancel closes without applying and hands the draft back for deletion', () => {
    const { dialog, closed } = openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(closed).toEqual([draft.applicationId]);
  });
});
