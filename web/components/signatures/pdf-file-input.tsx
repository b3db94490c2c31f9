import { FileInput, type FileInputProps } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';

/** A one-PDF file choice (the document to send, the signed copy to check). */
export function PdfFileInput(props: FileInputProps<false>) {
  return (
    <FileInput
      placeholder="Choose a file"
      accept=".pdf,application/pdf"
      leftSection={<IconFileTypePdf size={16} />}
      clearable
      {...props}
    />
  );
}
