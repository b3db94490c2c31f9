/**
 * The money capability (see README.md): what other capabilities may use. The figures are read
 * here only (`balanceOf`, `networkBalance`), a manual payout is written here only.
 */
export { balanceOf, networkBalance } from './figures.ts';
export { adminHoldRoutes, publisherTaxFormRoutes } from './holds.routes.ts';
export { enabledConditions, heldPublisherCount } from './holds.service.ts';
export { adminMoneyRoutes, publisherMoneyRoutes } from './money.routes.ts';
export { adminPaymentFilesRoutes } from './payment-files.routes.ts';
export { adminPayoutsRoutes } from './payouts.routes.ts';
export { createManualPayout } from './runs.service.ts';
/** PDF text helpers: wrapped by measured width (the signed PDF uses it too), money with its symbol. */
export { moneyFormat, wrapText } from './statement-pdf.ts';
