import { z } from 'zod';
import { nonBlankText } from './admin-common.ts';
import {
  hasAtMostTwoDecimals,
  IsoDateTime,
  isInDateRange,
  isRealDate,
  listQuery,
  MAX_DATE,
  MAX_MONEY,
  MIN_DATE,
  Money,
  pageOf,
  searchParam,
} from './list.ts';
import { CampaignStatus, campaignPausers } from './roles.ts';

/** Texts of the campaign form (spec §5, §8). */
export const CAMPAIGN_MESSAGES = {
  nameRequired: 'Campaign name is required.',
  nameTooLong: 'Campaign name can be at most 200 characters.',
  textTooLong: 'This field can be at most 2000 characters.',
  budgetNotNumber: 'Budget must be a number.',
  budgetNegative: 'Budget cannot be negative.',
  budgetDecimals: 'Budget can have at most 2 decimals.',
  budgetTooLarge: 'Budget cannot be more than 9,999,999,999.99.',
  startDate: 'Start date must be a real date in the form YYYY-MM-DD.',
  endDate: 'End date must be a real date in the form YYYY-MM-DD.',
  startDateRange: `Start date must be between ${MIN_DATE} and ${MAX_DATE}.`,
  endDateRange: `End date must be between ${MIN_DATE} and ${MAX_DATE}.`,
  endBeforeStart: 'The end date cannot be before the start date.',
  notLoggedIn: 'You must be logged in to create a campaign.',
  created: 'Campaign created successfully!',
  updated: 'Campaign updated.',
  nothingToChange: 'Send the budget, the start date or the end date to change.',
} as const;

/** Blank strings and undefined become null; other strings are trimmed. */
const blankToNull = (v: unknown) => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  return v;
};

const campaignText = z.preprocess(
  blankToNull,
  z
    .string({ error: CAMPAIGN_MESSAGES.textTooLong })
    .max(2000, CAMPAIGN_MESSAGES.textTooLong)
    .nullable(),
);

/** A form sends budget as a number, a numeric string, or blank (null). */
const budget = z.preprocess((v) => {
  const b = blankToNull(v);
  return typeof b === 'string' && /^-?\d+(\.\d+)?$/.test(b) ? Number(b) : b;
}, z
  .number({ error: CAMPAIGN_MESSAGES.budgetNotNumber })
  .min(0, CAMPAIGN_MESSAGES.budgetNegative)
  .max(MAX_MONEY, CAMPAIGN_MESSAGES.budgetTooLarge)
  .refine(hasAtMostTwoDecimals, CAMPAIGN_MESSAGES.budgetDecimals)
  .nullable());

const day = (message: string, rangeMessage: string) =>
  z.preprocess(
    blankToNull,
    z
      .string({ error: message })
      .regex(/^\d{4}-\d{2}-\d{2}$/, message)
      .refine(isRealDate, message)
      .refine(isInDateRange, rangeMessage)
      .nullable(),
  );

/** POST /api/v1/buyer/campaigns body; also drives the Create Campaign dialog's validation. */
export const CreateCampaignBody = z
  .object({
    name: nonBlankText(200, {
      required: CAMPAIGN_MESSAGES.nameRequired,
      tooLong: CAMPAIGN_MESSAGES.nameTooLong,
    }),
    goal: campaignText,
    target_audience: campaignText,
    location: campaignText,
    budget,
    start_date: day(CAMPAIGN_MESSAGES.startDate, CAMPAIGN_MESSAGES.startDateRange),
    end_date: day(CAMPAIGN_MESSAGES.endDate, CAMPAIGN_MESSAGES.endDateRange),
  })
  .superRefine((v, ctx) => {
    if (v.start_date && v.end_date && v.end_date < v.start_date) {
      ctx.addIssue({
        code: 'custom',
        message: CAMPAIGN_MESSAGES.endBeforeStart,
        path: ['end_date'],
      });
    }
  });
export type CreateCampaignBody = z.input<typeof CreateCampaignBody>;
export type CreateCampaignInput = z.output<typeof CreateCampaignBody>;

/**
 * PATCH /api/v1/buyer/campaigns/:id body: what a buyer may change after creating a campaign
 * (budget and dates). A key left out keeps its value; null clears it. The dates' order is
 * checked against the stored ones by the server.
 */
export const UpdateCampaignBody = z
  .object({
    budget: budget.optional(),
    start_date: day(CAMPAIGN_MESSAGES.startDate, CAMPAIGN_MESSAGES.startDateRange).optional(),
    end_date: day(CAMPAIGN_MESSAGES.endDate, CAMPAIGN_MESSAGES.endDateRange).optional(),
  })
  .strict()
  .refine(
    (v) => v.budget !== undefined || v.start_date !== undefined || v.end_date !== undefined,
    CAMPAIGN_MESSAGES.nothingToChange,
  );
export type UpdateCampaignBody = z.input<typeof UpdateCampaignBody>;
export type UpdateCampaignInput = z.output<typeof UpdateCampaignBody>;

/** A campaign as its buyer sees it (the admin adds its buyer); budget: two decimals or null. */
export const campaignFields = {
  /** pending → active (approved) or rejected; active ⇄ paused; ended (issue 31). */
  status: CampaignStatus,
  /** Why it is paused or rejected, in a sentence. */
  status_reason: z.string().nullable(),
  /** Who or what paused it: buyer, admin, budget, end_date, daily_cap. */
  paused_by: z.enum(campaignPausers).nullable(),
  /** The terms the admin approved: price per billable call, billable duration, daily cap. */
  price_per_call: Money.nullable(),
  buffer_seconds: z.number().int().nullable(),
  daily_cap: z.number().int().nullable(),
  /** Billed so far, less accepted returns. */
  spent: Money,
  name: z.string(),
  goal: z.string().nullable(),
  target_audience: z.string().nullable(),
  location: z.string().nullable(),
  budget: Money.nullable(),
  /** YYYY-MM-DD or null. */
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  created_at: IsoDateTime,
};
export const Campaign = z.object({ id: z.uuid(), buyer_id: z.uuid(), ...campaignFields });
export type Campaign = z.infer<typeof Campaign>;

/** Columns the campaigns list sorts by; empty values (no budget, no date) come last either way. */
export const CAMPAIGN_SORTS = [
  'created_at',
  'name',
  'goal',
  'target_audience',
  'location',
  'budget',
  'start_date',
  'end_date',
] as const;
export type CampaignSortKey = (typeof CAMPAIGN_SORTS)[number];

/** `q`: a case-insensitive part of the name, goal, target audience or location. */
export const CampaignListQuery = listQuery(CAMPAIGN_SORTS, 'created_at', { q: searchParam }, 50);
export type CampaignListQuery = z.input<typeof CampaignListQuery>;

/** GET /api/v1/buyer/campaigns: own campaigns, newest first unless sorted otherwise. */
export const CampaignList = pageOf(Campaign);
export type CampaignList = z.infer<typeof CampaignList>;

/** POST /api/v1/buyer/campaigns/:id/pause and …/resume answer the campaign. */
export const CAMPAIGN_LIFECYCLE_MESSAGES = {
  notPausable: 'Only an active campaign can be paused.',
  notPaused: 'Only a paused campaign can be resumed.',
  pausedByAdmin: 'An administrator paused this campaign; only an administrator can resume it.',
  dailyCap: 'The daily cap is reached; the campaign resumes by itself tomorrow.',
  balance: 'The prepaid balance is spent; the campaign resumes at the next deposit.',
  budgetSpent: 'The budget is spent: raise the budget before resuming.',
  endDatePassed: 'The end date has passed: move the end date before resuming.',
  notPending: 'Only a pending campaign can be approved or rejected.',
  notEndable: 'This campaign has already ended or was never approved.',
} as const;
