import type * as admin from '@contract/admin.ts';
import type { MeProfile } from '@contract/auth.ts';
import type * as buyer from '@contract/buyer.ts';
import type * as buyerCalls from '@contract/buyer-calls.ts';
import type * as integrations from '@contract/integrations.ts';
import type * as leadActions from '@contract/lead-actions.ts';
import type * as leadDetail from '@contract/lead-detail.ts';
import type * as money from '@contract/money.ts';
import type * as paymentFiles from '@contract/payment-files.ts';
import type * as publisher from '@contract/publisher.ts';
import type * as reports from '@contract/reports.ts';
import type { PublicSettings } from '@contract/settings.ts';
import type { z } from 'zod';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One /api/v1 endpoint: method and path, plus (as types only) its answer `R`, its query `Q` and
 * its body `B`, so `apiCall` is typed from the contract.
 */
export type Endpoint<R = unknown, Q = unknown, B = unknown> = {
  readonly method: Method;
  readonly path: string;
  /** Never set: carries the types. */
  readonly __types?: { result: R; query: Q; body: B };
};
export type EndpointResult<E> = E extends Endpoint<infer R, unknown, unknown> ? R : never;
export type EndpointQuery<E> = E extends Endpoint<unknown, infer Q, unknown> ? Q : never;
export type EndpointBody<E> = E extends Endpoint<unknown, unknown, infer B> ? B : never;

/**
 * What the web sends for a contract query schema: its fields as the server reads them, each
 * optional (the server fills the defaults). Derived, never restated by hand.
 */
export type QueryOf<S extends z.ZodType> = Partial<z.output<S>>;

/**
 * An endpoint by its method: `get<Answer, Query>('admin/offers')`, `post<Answer, undefined, Body>(…)`.
 * The endpoints typed beside their hooks (out of the /login bundle) are declared with them too.
 */
const at =
  (method: Method) =>
  <R, Q = undefined, B = undefined>(path: string): Endpoint<R, Q, B> => ({ method, path });
export const get = at('GET');
export const post = at('POST');
export const put = at('PUT');
export const patch = at('PATCH');
export const del = at('DELETE');
const id = (value: string) => encodeURIComponent(value);

/** A report's query as the URL carries it (`compare=true` stays text until the server reads it). */
export type ReportParams<S extends z.ZodType> = Partial<z.input<S>>;

/** A CSV export: the list's query without paging, answered as a file. */
type CsvQuery<S extends z.ZodType> = Omit<QueryOf<S>, 'page' | 'page_size'>;

/** Every /api/v1 path the web calls, defined once; features call `apiCall(apiRoutes.…)`. */
export const apiRoutes = {
  me: get<MeProfile>('me'),
  publicSettings: get<PublicSettings>('public/settings'),
  admin: {
    stats: get<admin.AdminStats>('admin/stats'),
    dailyStats: get<admin.DailyStats, QueryOf<typeof admin.DailyStatsQuery>>('admin/stats/daily'),
    rangeStats: get<reports.AdminRangeStats, ReportParams<typeof reports.DashboardRangeQuery>>(
      'admin/stats/range',
    ),
    publishers: get<admin.PublisherList, QueryOf<typeof admin.PublisherListQuery>>(
      'admin/publishers',
    ),
    publisher: (publisherId: string) =>
      get<admin.PublisherDetail>(`admin/publishers/${id(publisherId)}`),
    updatePublisher: (publisherId: string) =>
      patch<admin.AdminPublisher, undefined, admin.UpdatePublisherStatus>(
        `admin/publishers/${id(publisherId)}`,
      ),
    uploadAgreement: (publisherId: string) =>
      put<admin.AgreementUploaded, undefined, FormData>(
        `admin/publishers/${id(publisherId)}/agreement`,
      ),
    approvedPublishers: get<
      admin.ApprovedPublisherList,
      QueryOf<typeof admin.ApprovedPublishersQuery>
    >('admin/approved-publishers'),
    buyers: get<admin.BuyerList, QueryOf<typeof admin.BuyerListQuery>>('admin/buyers'),
    /** Removes every authenticator app of a user (lost phone); the user is e-mailed. */
    resetUserFactors: (userId: string) =>
      del<{ removed: number }>(`admin/users/${id(userId)}/factors`),
    updateBuyer: (buyerId: string) =>
      patch<admin.AdminBuyer, undefined, admin.UpdateBuyerStatus>(`admin/buyers/${id(buyerId)}`),
    offers: get<admin.OfferList, QueryOf<typeof admin.OfferListQuery>>('admin/offers'),
    createOffer: post<admin.AdminOffer, undefined, admin.CreateOffer>('admin/offers'),
    updateOffer: (offerId: string) =>
      patch<admin.AdminOffer, undefined, admin.UpdateOffer>(`admin/offers/${id(offerId)}`),
    deleteOffer: (offerId: string) => del<void>(`admin/offers/${id(offerId)}`),
    applications: get<admin.ApplicationList, QueryOf<typeof admin.ApplicationListQuery>>(
      'admin/applications',
    ),
    applicationSubmissions: (applicationId: string) =>
      get<admin.ApplicationSubmissions>(`admin/applications/${id(applicationId)}/submissions`),
    bulkDecideApplications: post<admin.BulkDecisionResult, undefined, admin.BulkDecideApplications>(
      'admin/applications/bulk',
    ),
    bulkDecidePublishers: post<admin.BulkDecisionResult, undefined, admin.BulkDecidePublishers>(
      'admin/publishers/bulk',
    ),
    decideApplication: (applicationId: string) =>
      patch<admin.AdminApplication, undefined, admin.DecideApplication>(
        `admin/applications/${id(applicationId)}`,
      ),
    uploadIo: (applicationId: string) =>
      put<admin.AdminApplication, undefined, FormData>(
        `admin/applications/${id(applicationId)}/io`,
      ),
    compliance: get<admin.ComplianceList, QueryOf<typeof admin.ComplianceListQuery>>(
      'admin/compliance',
    ),
    leads: get<admin.LeadList, QueryOf<typeof admin.LeadListQuery>>('admin/leads'),
    leadsCsv: get<Blob, CsvQuery<typeof admin.LeadListQuery>>('admin/leads.csv'),
    createLead: post<admin.AdminLead, undefined, admin.CreateLead>('admin/leads'),
    updateLead: (leadId: string) =>
      patch<admin.AdminLead, undefined, admin.UpdateLeadStatus>(`admin/leads/${id(leadId)}`),
    lead: (leadId: string) => get<leadDetail.AdminLeadDetail>(`admin/leads/${id(leadId)}`),
    uploadRecording: (leadId: string) =>
      put<leadDetail.AdminLeadDetail, undefined, FormData>(`admin/leads/${id(leadId)}/recording`),
    disputes: get<leadDetail.AdminDisputeList, QueryOf<typeof leadDetail.DisputeListQuery>>(
      'admin/disputes',
    ),
    replyDispute: (disputeId: string) =>
      post<{ id: string }, undefined, leadDetail.DisputeMessageInput>(
        `admin/disputes/${id(disputeId)}/messages`,
      ),
    acceptDispute: (disputeId: string) =>
      post<{ id: string }, undefined, leadDetail.AcceptDispute>(
        `admin/disputes/${id(disputeId)}/accept`,
      ),
    declineDispute: (disputeId: string) =>
      post<{ id: string }, undefined, leadDetail.DeclineDispute>(
        `admin/disputes/${id(disputeId)}/decline`,
      ),
    payouts: get<admin.PayoutList, QueryOf<typeof admin.PayoutListQuery>>('admin/payouts'),
    payoutsCsv: get<Blob, CsvQuery<typeof admin.PayoutListQuery>>('admin/payouts.csv'),
    createPayout: post<admin.AdminPayout, undefined, admin.CreatePayout>('admin/payouts'),
    balances: get<money.BalanceList, QueryOf<typeof money.BalanceListQuery>>('admin/balances'),
    payoutHold: (publisherId: string) =>
      get<money.PayoutHoldState>(`admin/publishers/${id(publisherId)}/payout-hold`),
    setPayoutReview: (publisherId: string) =>
      put<money.PayoutHoldState, undefined, money.SetPayoutReview>(
        `admin/publishers/${id(publisherId)}/payout-hold`,
      ),
    releasePayoutHold: (publisherId: string) =>
      post<money.PayoutHoldState, undefined, money.ReleasePayoutHold>(
        `admin/publishers/${id(publisherId)}/payout-hold/release`,
      ),
    taxForm: (publisherId: string) =>
      get<money.TaxForm>(`admin/publishers/${id(publisherId)}/tax-form`),
    setTaxFormStatus: (publisherId: string) =>
      patch<money.TaxForm, undefined, money.SetTaxFormStatus>(
        `admin/publishers/${id(publisherId)}/payment-details`,
      ),
    createAdjustment: (publisherId: string) =>
      post<money.Adjustment, undefined, money.CreateAdjustment>(
        `admin/publishers/${id(publisherId)}/adjustments`,
      ),
    previewRun: post<money.RunPreview, undefined, money.RunSelection>('admin/payout-runs/preview'),
    confirmRun: post<money.PayoutRun, undefined, money.RunSelection>('admin/payout-runs'),
    runs: get<money.RunList, QueryOf<typeof money.RunListQuery>>('admin/payout-runs'),
    runCsv: (runId: string) => get<Blob>(`admin/payout-runs/${id(runId)}/export.csv`),
    runFiles: (runId: string) =>
      get<paymentFiles.PaymentFileList>(`admin/payout-runs/${id(runId)}/files`),
    runFile: (runId: string, format: paymentFiles.PaymentFileFormat) =>
      get<Blob, paymentFiles.PaymentFileQuery>(`admin/payout-runs/${id(runId)}/files/${format}`),
    markRunPaid: (runId: string) =>
      post<money.PayoutRun, undefined, money.MarkRunPaid>(`admin/payout-runs/${id(runId)}/paid`),
    voidRun: (runId: string) =>
      post<money.PayoutRun, undefined, money.VoidRun>(`admin/payout-runs/${id(runId)}/void`),
    statementPdf: (payoutId: string) => get<Blob>(`admin/payouts/${id(payoutId)}/statement.pdf`),
    statementCsv: (payoutId: string) => get<Blob>(`admin/payouts/${id(payoutId)}/statement.csv`),
    campaigns: get<admin.CampaignList, QueryOf<typeof admin.CampaignListQuery>>('admin/campaigns'),
    /** Issue 31: the lifecycle of one campaign (`approve`, `reject`, `pause`, `resume`, `end`). */
    approveCampaign: (campaignId: string) =>
      post<admin.AdminCampaign, undefined, z.input<typeof admin.ApproveCampaign>>(
        `admin/campaigns/${id(campaignId)}/approve`,
      ),
    rejectCampaign: (campaignId: string) =>
      post<admin.AdminCampaign, undefined, admin.RejectCampaign>(
        `admin/campaigns/${id(campaignId)}/reject`,
      ),
    returns: get<buyerCalls.ReturnList, QueryOf<typeof buyerCalls.ReturnListQuery>>(
      'admin/returns',
    ),
    decideReturn: (decision: 'accept' | 'decline') => (returnId: string) =>
      post<buyerCalls.CallReturn, undefined, buyerCalls.DecideReturn>(
        `admin/returns/${id(returnId)}/${decision}`,
      ),
    campaignMove: (move: 'pause' | 'resume' | 'end') => (campaignId: string) =>
      post<admin.AdminCampaign, undefined, admin.PauseCampaign>(
        `admin/campaigns/${id(campaignId)}/${move}`,
      ),
    leadTotals: get<leadActions.LeadTotals, QueryOf<typeof leadActions.LeadFilter>>(
      'admin/leads/totals',
    ),
    bulkLeadStatus: post<leadActions.BulkLeadStatusResult, undefined, leadActions.BulkLeadStatus>(
      'admin/leads/bulk-status',
    ),
    uploadLeadImport: post<leadActions.LeadImport, undefined, FormData>('admin/lead-imports'),
    leadImport: (importId: string) =>
      get<leadActions.LeadImport>(`admin/lead-imports/${id(importId)}`),
    checkLeadImport: (importId: string) =>
      post<leadActions.LeadImport, undefined, leadActions.CheckLeadImport>(
        `admin/lead-imports/${id(importId)}/check`,
      ),
    runLeadImport: (importId: string) =>
      post<leadActions.LeadImport>(`admin/lead-imports/${id(importId)}/import`),
    settings: get<admin.AdminSettings>('admin/settings'),
    updateSettings: patch<admin.AdminSettings, undefined, admin.UpdateSettings>('admin/settings'),
    uploadLogo: put<admin.AdminSettings, undefined, FormData>('admin/settings/logo'),
    integrations: get<
      integrations.IntegrationList,
      QueryOf<typeof integrations.IntegrationListQuery>
    >('admin/integrations'),
    createIntegration: post<
      integrations.CreatedIntegration,
      undefined,
      integrations.CreateIntegration
    >('admin/integrations'),
    updateIntegration: (integrationId: string) =>
      patch<integrations.AdminIntegration, undefined, integrations.UpdateIntegration>(
        `admin/integrations/${id(integrationId)}`,
      ),
    revokeIntegration: (integrationId: string) =>
      post<integrations.AdminIntegration>(`admin/integrations/${id(integrationId)}/revoke`),
    externalIds: (integrationId: string) =>
      get<integrations.ExternalIdList, QueryOf<typeof integrations.ExternalIdListQuery>>(
        `admin/integrations/${id(integrationId)}/external-ids`,
      ),
    attachExternalId: (integrationId: string) =>
      put<integrations.ExternalIdMapping, undefined, integrations.AttachExternalId>(
        `admin/integrations/${id(integrationId)}/external-ids`,
      ),
    detachExternalId: (integrationId: string, mappingId: string) =>
      del<void>(`admin/integrations/${id(integrationId)}/external-ids/${id(mappingId)}`),
    refusals: get<integrations.RefusalList, QueryOf<typeof integrations.RefusalListQuery>>(
      'admin/integrations/refusals',
    ),
    replayRefusal: (refusalId: string) =>
      post<integrations.IngestAnswer>(`admin/integrations/refusals/${id(refusalId)}/replay`),
    report: get<reports.AdminReport, ReportParams<typeof reports.AdminReportQuery>>(
      'admin/reports',
    ),
    reportCsv: get<Blob, ReportParams<typeof reports.AdminReportQuery>>('admin/reports.csv'),
  },
  publisher: {
    overview: get<publisher.PublisherOverview>('publisher/overview'),
    overviewRange: get<
      reports.PublisherRangeOverview,
      ReportParams<typeof reports.DashboardRangeQuery>
    >('publisher/overview/range'),
    offers: get<publisher.PublisherOfferList, QueryOf<typeof publisher.PublisherOffersQuery>>(
      'publisher/offers',
    ),
    createApplication: post<
      publisher.PublisherApplication,
      undefined,
      publisher.CreateApplicationBody
    >('publisher/applications'),
    deleteApplication: (applicationId: string) =>
      del<void>(`publisher/applications/${id(applicationId)}`),
    submitCompliance: (applicationId: string) =>
      post<publisher.ComplianceSubmission, undefined, FormData>(
        `publisher/applications/${id(applicationId)}/compliance`,
      ),
    leads: get<publisher.PublisherLeadList, QueryOf<typeof publisher.PublisherLeadsQuery>>(
      'publisher/leads',
    ),
    lead: (leadId: string) => get<leadDetail.PublisherLeadDetail>(`publisher/leads/${id(leadId)}`),
    openDispute: (leadId: string) =>
      post<{ id: string }, undefined, FormData>(`publisher/leads/${id(leadId)}/disputes`),
    replyDispute: (disputeId: string) =>
      post<{ id: string }, undefined, leadDetail.DisputeMessageInput>(
        `publisher/disputes/${id(disputeId)}/messages`,
      ),
    payouts: get<publisher.PublisherPayoutList, QueryOf<typeof publisher.PublisherPayoutsQuery>>(
      'publisher/payouts',
    ),
    money: get<money.PublisherMoney>('publisher/money'),
    taxForm: get<money.TaxForm>('publisher/tax-form'),
    uploadTaxForm: put<money.TaxForm, undefined, FormData>('publisher/tax-form'),
    paymentDetails: get<money.PaymentDetails>('publisher/payment-details'),
    updatePaymentDetails: put<money.PaymentDetails, undefined, money.UpdatePaymentDetails>(
      'publisher/payment-details',
    ),
    payoutLeads: (payoutId: string) =>
      get<money.CoveredLeadList, QueryOf<typeof money.CoveredLeadsQuery>>(
        `publisher/payouts/${id(payoutId)}/leads`,
      ),
    statementPdf: (payoutId: string) =>
      get<Blob>(`publisher/payouts/${id(payoutId)}/statement.pdf`),
    statementCsv: (payoutId: string) =>
      get<Blob>(`publisher/payouts/${id(payoutId)}/statement.csv`),
    documents: get<publisher.PublisherDocuments>('publisher/documents'),
    report: get<reports.PublisherReport, ReportParams<typeof reports.PublisherReportQuery>>(
      'publisher/reports',
    ),
    reportCsv: get<Blob, ReportParams<typeof reports.PublisherReportQuery>>(
      'publisher/reports.csv',
    ),
    ios: get<publisher.PublisherIoList, QueryOf<typeof publisher.PublisherIosQuery>>(
      'publisher/ios',
    ),
  },
  buyer: {
    campaigns: get<buyer.CampaignList, QueryOf<typeof buyer.CampaignListQuery>>('buyer/campaigns'),
    createCampaign: post<buyer.Campaign, undefined, buyer.CreateCampaignBody>('buyer/campaigns'),
    updateCampaign: (campaignId: string) =>
      patch<buyer.Campaign, undefined, buyer.UpdateCampaignBody>(
        `buyer/campaigns/${id(campaignId)}`,
      ),
    /** Issue 31: the calls delivered to the buyer, the dashboard, returns. */
    calls: get<buyerCalls.BuyerCallList, QueryOf<typeof buyerCalls.BuyerCallListQuery>>(
      'buyer/calls',
    ),
    callsCsv: get<Blob, CsvQuery<typeof buyerCalls.BuyerCallListQuery>>('buyer/calls.csv'),
    dashboard: get<buyerCalls.BuyerDashboard>('buyer/dashboard'),
    returnCall: (callId: string) =>
      post<buyerCalls.CallReturn, undefined, buyerCalls.ReturnCallBody>(
        `buyer/calls/${id(callId)}/return`,
      ),
    /** Issue 31: the buyer pauses, resumes or ends their own campaign. */
    campaignMove: (move: 'pause' | 'resume' | 'end') => (campaignId: string) =>
      post<buyer.Campaign, undefined, object>(`buyer/campaigns/${id(campaignId)}/${move}`),
  },
} as const;
