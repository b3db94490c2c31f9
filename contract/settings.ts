import { z } from 'zod';

/** What anyone, signed in or not, may read of the settings row. */
export const PublicSettings = z.object({
  company_name: z.string(),
  logo_url: z.string().nullable(),
  welcome_message: z.string(),
  support_email: z.string(),
});
export type PublicSettings = z.infer<typeof PublicSettings>;

export const DEFAULT_SETTINGS = {
  company_name: 'MR.LEADS Network',
  welcome_message: 'Welcome to the portal!',
  support_email: 'support@example.com',
} as const;
