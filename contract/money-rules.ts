// The money figures' words without zod: the publisher overview's first screen needs the words,
// not the schema library (scripts/bundle-report.ts holds that screen to its budget).

/**
 * The one definition of each money figure (issue 27), word for word on screen and in the docs.
 * Every screen and export reads them from server/modules/money/figures.ts.
 */
export const BALANCE_RULES = {
  earned: 'Payouts of approved calls, plus bonuses and corrections.',
  pending: 'Payouts of calls still under review; not earned yet.',
  rejected: 'Rejected calls pay nothing and are in no total.',
  owed: 'Earned and not in a payout run yet: the next run pays it.',
  recorded: 'In a payout run, not yet paid: the network is sending it.',
  paid: 'Payouts marked paid, with the bank’s or platform’s reference.',
  unpaid: 'Earned and not paid yet: waiting for a run, or in a run not yet paid.',
} as const;

/** What a run status reads as, to publishers and admins alike. */
export const PAYOUT_STATUS_LABELS = {
  recorded: 'In a run, not yet paid',
  paid: 'Paid',
} as const;
