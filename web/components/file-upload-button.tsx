import { Button, FileButton } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { failedToast, type Toast, toast } from '@/lib/notify.ts';

/** The upload mutation a button sends its file with (`useMutation`'s result, any variables). */
type UploadMutation<V> = {
  mutate: (vars: V, opts: { onSuccess: () => void; onError: (err: unknown) => void }) => void;
  isPending: boolean;
};

/**
 * Shared upload button of a list row or a detail page (agreements, IOs, recordings, tax forms):
 * opens the file picker, refuses a file of the wrong type with the caller's toast, sends a good
 * one with `upload` (its variables from `vars`), then shows `done`, or the server's reason under
 * `failTitle`. Clicks never reach the row underneath.
 */
export function FileUploadButton<V>({
  label,
  ariaLabel,
  accept,
  isAllowed,
  wrongType,
  upload,
  vars,
  done,
  failTitle,
  size = 'xs',
}: {
  label: string;
  ariaLabel: string;
  /** The picker's `accept` (extensions and MIME types). */
  accept: string;
  isAllowed: (fileName: string) => boolean;
  /** The toast for a file of the wrong type. */
  wrongType: { title: string; description: string };
  upload: UploadMutation<V>;
  vars: (file: File) => V;
  /** The toast once the file is stored. */
  done: Toast;
  failTitle: string;
  size?: 'xs' | 'sm';
}) {
  const handle = (file: File | null) => {
    if (!file) return;
    if (!isAllowed(file.name)) {
      toast({ ...wrongType, variant: 'destructive' });
      return;
    }
    upload.mutate(vars(file), { onSuccess: () => toast(done), onError: failedToast(failTitle) });
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
          loading={upload.isPending}
          aria-label={ariaLabel}
        >
          {label}
        </Button>
      )}
    </FileButton>
  );
}
