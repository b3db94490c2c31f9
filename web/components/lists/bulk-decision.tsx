import type { BulkDecisionResult } from '@contract/admin.ts';
import { type ReactNode, useState } from 'react';
import { failedToast, toast } from '@/lib/notify.ts';
import { BulkDecisionBar } from '../bulk-decision-bar.tsx';
import { ReasonDialog, type ReviewReason } from '../reason-dialog.tsx';

/** The part of a bulk-decision mutation the flow needs. */
type BulkMutation<V> = {
  mutate: (
    vars: V,
    callbacks: { onSuccess: (r: BulkDecisionResult) => void; onError: (err: Error) => void },
  ) => void;
  isPending: boolean;
};

/** The request of one decision about many rows: a rejection carries its reason and note. */
type BulkRequest<S, K> = { ids: string[]; status: S; reason?: K; note?: string | undefined };

type BulkDecisionOptions<T, S extends string, K extends string, R extends K> = {
  /** One row, lower case: "application" (the texts add the plural "s"). */
  noun: string;
  mutation: BulkMutation<BulkRequest<S, K>>;
  /** The statuses the server takes for Approve and for Reject. */
  statuses: { approve: S; reject: S };
  /** The reasons a rejection may give here (contract/review-reasons.ts), some of the server's. */
  reasons: Record<R, string>;
  /** What a rejection does, under the reasons. */
  rejectText: ReactNode;
  /** Names a row's checkbox for screen readers. */
  rowLabel: (row: T) => string;
};

/**
 * Pending rows picked and decided together (issue 16): the list's selection (only pending rows
 * stay picked), the bar with Approve / Reject selected, and the dialog asking a rejection's
 * reason; the toast counts what was decided and names the first row left unchanged.
 */
export function useBulkDecision<
  T extends { id: string; status: string },
  S extends string,
  K extends string,
  R extends K,
>({ noun, mutation, statuses, reasons, rejectText, rowLabel }: BulkDecisionOptions<T, S, K, R>) {
  const [picked, setPicked] = useState<T[]>([]);
  const [rejecting, setRejecting] = useState(false);
  const plural = (n: number) => `${noun}${n === 1 ? '' : 's'}`;

  const run = (approve: boolean, why?: ReviewReason) =>
    mutation.mutate(
      {
        ids: picked.map((row) => row.id),
        status: approve ? statuses.approve : statuses.reject,
        // The dialog offers only the listed reasons.
        ...(why ? { reason: why.reason as R, note: why.note } : {}),
      },
      {
        onSuccess: (r) => {
          setRejecting(false);
          setPicked([]);
          const left = r.skipped.length
            ? ` ${r.skipped.length} left unchanged: ${r.skipped[0]!.message}`
            : '';
          toast({
            title: `${noun[0]!.toUpperCase()}${noun.slice(1)}s Updated`,
            description: `${r.decided} ${plural(r.decided)} ${approve ? 'approved' : 'rejected'}.${left}`,
          });
        },
        onError: (err) => {
          setRejecting(false);
          failedToast('Update failed')(err);
        },
      },
    );

  return {
    selection: {
      selected: picked,
      onChange: (rows: T[]) => setPicked(rows.filter((row) => row.status === 'pending')),
      rowLabel,
    },
    bar: (
      <BulkDecisionBar
        picked={picked.length}
        noun={noun}
        onClear={() => setPicked([])}
        onApprove={() => run(true)}
        onReject={() => setRejecting(true)}
      />
    ),
    dialog: (
      <ReasonDialog
        opened={rejecting}
        title={`Reject ${picked.length} ${plural(picked.length)}?`}
        reasons={reasons}
        confirmLabel="Reject selected"
        pending={mutation.isPending}
        onCancel={() => setRejecting(false)}
        onConfirm={(why) => run(false, why)}
      >
        {rejectText}
      </ReasonDialog>
    ),
  };
}
