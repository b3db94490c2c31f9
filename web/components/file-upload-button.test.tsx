import { fireEvent } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { FileUploadButton } from './file-upload-button.tsx';

// The toasts as the button shows them.
const notify = vi.hoisted(() => ({ toast: vi.fn() }));
vi.mock('@/lib/notify.ts', () => ({
  toast: notify.toast,
  failedToast: (title: string) => (err: unknown) =>
    notify.toast({ title, description: (err as Error).message, variant: 'destructive' }),
}));

/** A stand-in for the upload mutation: answers as `outcome` says. */
function fakeUpload(outcome: 'stored' | Error) {
  return {
    isPending: false,
    mutate: vi.fn(
      (_vars: unknown, opts: { onSuccess: () => void; onError: (e: unknown) => void }) =>
        outcome === 'stored' ? opts.onSuccess() : opts.onError(outcome),
    ),
  };
}

function pick(upload: ReturnType<typeof fakeUpload>, fileName: string) {
  const { container } = renderWithApp(
    <FileUploadButton
      label="Upload IO"
      ariaLabel="Upload IO for Pat"
      accept=".pdf"
      isAllowed={(name) => name.endsWith('.pdf')}
      wrongType={{ title: 'IO Upload Failed', description: 'The IO must be a PDF.' }}
      upload={upload}
      vars={(file) => ({ id: 'app-1', file })}
      done={{ title: 'IO Uploaded', description: 'Ready.' }}
      failTitle="IO Upload Failed"
    />,
  );
  const input = container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
  const file = new File(['%PDF'], fileName);
  fireEvent.change(input, { target: { files: [file] } });
  return file;
}

beforeEach(() => notify.toast.mockReset());

describe('FileUploadButton', () => {
  it('sends a file of the right type with its variables and says it is stored', () => {
    const upload = fakeUpload('stored');
    const file = pick(upload, 'io.pdf');
    expect(upload.mutate).toHaveBeenCalledWith({ id: 'app-1', file }, expect.anything());
    expect(notify.toast).toHaveBeenCalledWith({ title: 'IO Uploaded', description: 'Ready.' });
  });

  it("shows the server's reason under the failure title", () => {
    pick(fakeUpload(new Error('The file is too large.')), 'io.pdf');
    expect(notify.toast).toHaveBeenCalledWith({
      title: 'IO Upload Failed',
      description: 'The file is too large.',
      variant: 'destructive',
    });
  });

  it('refuses a file of the wrong type without sending it', () => {
    const upload = fakeUpload('stored');
    pick(upload, 'io.exe');
    expect(upload.mutate).not.toHaveBeenCalled();
    expect(notify.toast).toHaveBeenCalledWith({
      title: 'IO Upload Failed',
      description: 'The IO must be a PDF.',
      variant: 'destructive',
    });
  });
});
