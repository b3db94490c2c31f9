import { Textarea, type TextareaProps } from '@mantine/core';

/** Free text over several lines: the box grows with its text, from 2 lines to 6 unless told. */
export function GrowingTextarea({ minRows = 2, maxRows = 6, ...props }: TextareaProps) {
  return <Textarea autosize minRows={minRows} maxRows={maxRows} {...props} />;
}
