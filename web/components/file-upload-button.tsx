import { Button, FileButton } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { toast } from '@/lib/notify.ts';

/**
 * Shared upload button of a list row or a detail page (agreements, IOs): opens the file
 * picker, refuses a file of the wrong type with the caller's toast, and hands a good one on.
 * Clicks never reach the row underneath.
 */
export function FileUploadButton({
  label,
  ariaLabel,
  accept,
  isAllowed,
  wrongType,
  onFile,
  loading,
  size = 'xs',
}: {
  label: string;
  ariaLabel: string;
  /** The picker's `accept` (extensions and MIME types). */
  accept: string;
  isAllowed: (fileName: string) => boolean;
  /** The toast for a file of the wrong type. */
  wrongType: { title: string; description: string };
  onFile: (file: File) => void;
  loading: boolean;
  size?: 'xs' | 'sm';
}) {
  const handle = (file: File | null) => {
    if (!file) return;
    if (!isAllowed(file.name)) {
      toast({ ...wrongType, variant: 'destructive' });
      return;
    }
    onFile(file);
  };
  return (
    <FileButton onChange={handle} accept={accept}>
      {(props) => (
        <Button
          {...props}
          onClick={(e) => {
            e.stopPropagation();
            props.onClick();
          }}
          size={size}
          variant="default"
          leftSection={<IconUpload size={14} />}
          loading={loading}
          aria-label={ariaLabel}
        >
          {label}
        </Button>
      )}
    </FileButton>
  );
}
