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

type BulkDecisionOptions<T, V> = {
  /** One row, lower case: "application" (the texts add the plural "s"). */
  noun: string;
  mutation: BulkMutation<V>;
  /** The request of a decision about these rows (a rejection with its reason). */
  body: (ids: string[], approve: boolean, why?: ReviewReason) => V;
  /** The reasons a rejection may give (contract/review-reasons.ts). */
  reasons: Record<string, string>;
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
export function useBulkDecision<T extends { id: string; status: string }, V>({
  noun,
  mutation,
  body,
  reasons,
  rejectText,
  rowLabel,
}: BulkDecisionOptions<T, V>) {
  const [picked, setPicked] = useState<T[]>([]);
  const [rejecting, setRejecting] = useState(false);
  const plural = (n: number) => `${noun}${n === 1 ? '' : 's'}`;

  const run = (approve: boolean, why?: ReviewReason) =>
    mutation.mutate(
      body(
        picked.map((row) => row.id),
        approve,
        why,
      ),
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
