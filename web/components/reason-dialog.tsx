import { Radio, Stack, Text, Textarea } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { ActionModal, DialogActions } from './confirm-dialog.tsx';

export type ReviewReason = { reason: string; note?: string | undefined };

type ReasonDialogProps = {
  opened: boolean;
  title: string;
  /** What will happen, in a sentence. */
  children: ReactNode;
  /**
   * The reasons of this action only (code → what the publisher reads): rejecting a sign-up and
   * blocking an account, say, each pass their own list (contract/review-reasons.ts).
   */
  reasons: Record<string, string>;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: (value: ReviewReason) => void;
  onCancel: () => void;
};

/**
 * Asks for the reason of a rejection or a block (issue 16): one of the listed reasons and the
 * reviewer's note, which the publisher reads on the application and in the e-mail. "Another
 * reason" needs the note.
 */
export function ReasonDialog({
  opened,
  title,
  children,
  reasons,
  confirmLabel,
  pending = false,
  onConfirm,
  onCancel,
}: ReasonDialogProps) {
  const [picked, setReason] = useState<string | null>(null);
  // A choice is only ever one of the reasons shown now.
  const reason = picked && Object.hasOwn(reasons, picked) ? picked : null;
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; note?: string }>({});

  // Each opening starts blank.
  useEffect(() => {
    if (!opened) return;
    setReason(null);
    setNote('');
    setErrors({});
  }, [opened]);

  const handleConfirm = () => {
    const found = {
      reason: reason ? undefined : 'Choose a reason',
      note:
        reason === 'other' && !note.trim() ? 'Write the reason the publisher will read' : undefined,
    };
    setErrors(found);
    if (found.reason || found.note || !reason) return;
    onConfirm({ reason, note: note.trim() || undefined });
  };

  return (
    <ActionModal opened={opened} title={title} size="lg" pending={pending} onCancel={onCancel}>
      <Stack gap="md">
        <Text size="sm" component="div">
          {children}
        </Text>
        <Radio.Group
          label="Reason"
          value={reason}
          onChange={(v) => {
            setReason(v);
            setErrors((e) => ({ ...e, reason: undefined }));
          }}
          error={errors.reason}
          withAsterisk
        >
          <Stack gap={8} mt={6}>
            {Object.entries(reasons).map(([value, label]) => (
              <Radio key={value} value={value} label={label} />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label="Note to the publisher"
          description={
            reason === 'other'
              ? 'Required with "Another reason"'
              : 'Optional: what to fix, in your words'
          }
          styles={{ description: { color: 'var(--mantine-color-dimmed)' } }}
          autosize
          minRows={2}
          maxLength={1000}
          value={note}
          error={errors.note}
          onChange={(e) => {
            setNote(e.currentTarget.value);
            setErrors((x) => ({ ...x, note: undefined }));
          }}
        />
        <DialogActions
          confirmLabel={confirmLabel}
          color="red"
          pending={pending}
          onConfirm={handleConfirm}
          onCancel={onCancel}
        />
      </Stack>
    </ActionModal>
  );
}
