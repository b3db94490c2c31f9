import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { NoteDialog } from './note-dialog.tsx';

describe('NoteDialog', () => {
  it('refuses an empty note, then hands the trimmed note over and empties the box on clear', async () => {
    const onConfirm = vi.fn((_note: string, clear: () => void) => clear());
    renderWithApp(
      <NoteDialog
        opened
        title="Confirm fraud"
        note={{ label: 'Reason', required: true }}
        missing="Say why (a reason is required)."
        confirmLabel="Reject calls"
        pending={false}
        onConfirm={onConfirm}
        onCancel={() => {}}
      >
        The calls will be rejected.
      </NoteDialog>,
    );
    const action = await screen.findByRole('button', { name: 'Reject calls' });
    fireEvent.click(action);
    expect(screen.getByText('Say why (a reason is required).')).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();

    const box = screen.getByRole('textbox', { name: /Reason/ }) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: '  stolen numbers ' } });
    expect(screen.queryByText('Say why (a reason is required).')).toBeNull();
    fireEvent.click(action);
    expect(onConfirm).toHaveBeenCalledWith('stolen numbers', expect.any(Function));
    expect(box.value).toBe('');
  });
});
