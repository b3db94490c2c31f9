import type { AdminWaiting } from '@contract/notifications.ts';
import { adminPaths } from '@/app/routes.ts';

/** One thing waiting for the admin: how many, the sentence, and its filtered list. */
export type AttentionItem = { key: string; count: number; text: string; to: string };

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * What waits for the admin (issue 34), each linking to its filtered list: the bell's queues,
 * and on the dashboard also the refused calls of the last 24 h and the held payouts.
 */
export function attentionItems(
  w: AdminWaiting & { refused_calls_24h?: number; held_payouts?: number },
  refusedCap?: number,
): AttentionItem[] {
  const items: AttentionItem[] = [
    {
      key: 'publishers',
      count: w.pending_publishers,
      text: `${plural(w.pending_publishers, 'publisher waits', 'publishers wait')} for approval`,
      to: `${adminPaths.publishers}?status=pending`,
    },
    {
      key: 'applications',
      count: w.pending_applications,
      text: `${plural(w.pending_applications, 'application waits', 'applications wait')} for review`,
      to: `${adminPaths.applications}?status=pending`,
    },
    {
      key: 'disputes',
      count: w.open_disputes,
      text: `${plural(w.open_disputes, 'dispute is', 'disputes are')} open`,
      to: `${adminPaths.disputes}?status=open`,
    },
  ];
  if (w.refused_calls_24h !== undefined) {
    const n = w.refused_calls_24h;
    const shown =
      refusedCap !== undefined && n >= refusedCap
        ? `${refusedCap.toLocaleString('en-US')}+ calls`
        : plural(n, 'call', 'calls');
    items.push({
      key: 'refused',
      count: n,
      text: `${shown} refused in the last 24 hours`,
      to: `${adminPaths.integrations}#refused-calls`,
    });
  }
  if (w.held_payouts !== undefined) {
    items.push({
      key: 'held',
      count: w.held_payouts,
      text: `${plural(w.held_payouts, 'publisher is', 'publishers are')} owed money a run would hold`,
      to: `${adminPaths.payouts}?tab=balances`,
    });
  }
  return items;
}

/** How many things wait in the bell's sense (the three queues). */
export function waitingTotal(w: AdminWaiting | undefined): number {
  return w ? w.pending_publishers + w.pending_applications + w.open_disputes : 0;
}
