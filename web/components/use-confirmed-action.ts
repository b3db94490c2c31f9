import { useState } from 'react';
import { toast } from '@/lib/notify.ts';
import { showFailure } from './forms/show-failure.ts';

/**
 * An action on one record behind a `ConfirmDialog`: the record waiting for it (null: no
 * dialog), its setter, and the dialog's props (open, pending, Confirm, Cancel). Confirm runs
 * `run`, then shows the `done` toast and closes; a failure shows the `failTitle` toast and leaves
 * the dialog open.
 */
export function useConfirmedAction<T>(
  run: (record: T) => Promise<unknown>,
  done: (record: T) => { title: string; description: string },
  failTitle: string,
) {
  const [target, setTarget] = useState<T | null>(null);
  const [pending, setPending] = useState(false);
  async function confirm() {
    if (target === null) return;
    setPending(true);
    try {
      await run(target);
      toast(done(target));
      setTarget(null);
    } catch (err) {
      showFailure(failTitle, err);
    } finally {
      setPending(false);
    }
  }
  const dialog = {
    opened: target !== null,
    pending,
    onConfirm: () => void confirm(),
    onCancel: () => setTarget(null),
  };
  return [target, setTarget, dialog] as const;
}
