/** Buyer billing (issue 31, item 6): prepaid balances and deposits, postpaid monthly invoices. */
export { adminBillingRoutes, buyerBillingRoutes } from './billing.routes.ts';
export { creditBuyer, recordDeposit, setBillingMode } from './billing.service.ts';
export { generateInvoice } from './invoices.service.ts';
