import { Textarea } from '@mantine/core';
import { useState } from 'react';

/** The message typed under an open dispute and what is wrong with it. */
export type DisputeMessage = ReturnType<typeof useDisputeMessage>;

/** State of a dispute's answer box: its message and its error (null when none). */
export function useDisputeMessage() {
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  return { message, setMessage, error, setError };
}

/** The growing box a message under an open dispute is typed in; typing clears its error. */
export function DisputeMessageField({
  state,
  label,
  placeholder,
}: {
  state: DisputeMessage;
  label: string;
  placeholder?: string;
}) {
  return (
    <Textarea
      label={label}
      placeholder={placeholder}
      autosize
      minRows={2}
      maxRows={8}
      value={state.message}
      error={state.error}
      onChange={(e) => {
        state.setMessage(e.currentTarget.value);
        state.setError(null);
      }}
    />
  );
}
