import { Modal, Stack, Text, Textarea, type TextareaProps } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { DialogActions, type DialogActionsProps } from './confirm-dialog.tsx';

/**
 * A dialog that asks for a note before its action (the reason fraud is confirmed, the audit
 * note of a payout hold): what will happen, the note, Cancel and the action. An empty note is
 * refused with `missing`; the action gets the trimmed note and `clear`, to empty the box once
 * it has gone through (a cancelled note stays for the next opening).
 */
export function NoteDialog({
  opened,
  title,
  children,
  note: noteProps,
  autoFocus,
  missing,
  onConfirm,
  ...actions
}: {
  opened: boolean;
  title: string;
  /** What will happen, in a sentence. */
  children: ReactNode;
  /** The note's box: its label, description, length… */
  note: TextareaProps;
  /** The note takes the focus when the dialog opens. */
  autoFocus?: boolean;
  /** The error shown when the note is empty. */
  missing: string;
  onConfirm: (note: string, clear: () => void) => void;
} & Omit<DialogActionsProps, 'onConfirm' | 'autoFocus' | 'mt'>) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    if (!note.trim()) return setError(missing);
    onConfirm(note.trim(), () => setNote(''));
  };
  return (
    <Modal opened={opened} onClose={actions.onCancel} title={title}>
      <Stack>
        <Text size="sm">{children}</Text>
        <Textarea
          {...noteProps}
          value={note}
          error={error}
          onChange={(e) => {
            setNote(e.currentTarget.value);
            setError(null);
          }}
          data-autofocus={autoFocus || undefined}
        />
        <DialogActions {...actions} onConfirm={confirm} />
      </Stack>
    </Modal>
  );
}
