import { z } from 'zod';
import { contactFields } from './admin-common.ts';
import { Role, userStatuses } from './roles.ts';

/** The signed-in user's own profile (`GET /api/v1/me`); the web reads the role from here. */
export const MeProfile = z.object({
  id: z.string(),
  email: z.string(),
  role: Role,
  status: z.enum(userStatuses),
  name: z.string().nullable(),
  ...contactFields,
  created_at: z.string(),
  /** MFA_REQUIRED_FOR names this user's role: the web takes them to enrolment until they have a factor. */
  mfa_required: z.boolean(),
});
export type MeProfile = z.infer<typeof MeProfile>;

/** GoTrue identity (contract §2); one e-mail identity per user. */
export const GoTrueIdentity = z.object({
  identity_id: z.string(),
  id: z.string(),
  user_id: z.string(),
  provider: z.literal('email'),
  email: z.string(),
  identity_data: z.record(z.string(), z.unknown()),
  last_sign_in_at: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** GoTrue's User JSON: email/phone are "" when unset, empty timestamps are left out. */
export const GoTrueUser = z.object({
  id: z.string(),
  aud: z.string(),
  role: z.string(),
  email: z.string(),
  phone: z.string(),
  email_confirmed_at: z.string().optional(),
  confirmed_at: z.string().optional(),
  confirmation_sent_at: z.string().optional(),
  recovery_sent_at: z.string().optional(),
  new_email: z.string().optional(),
  email_change_sent_at: z.string().optional(),
  last_sign_in_at: z.string().optional(),
  app_metadata: z.record(z.string(), z.unknown()),
  user_metadata: z.record(z.string(), z.unknown()),
  identities: z.array(GoTrueIdentity),
  created_at: z.string(),
  updated_at: z.string(),
  is_anonymous: z.boolean(),
  /** Second factors (GoTrue leaves the key out when there are none). */
  factors: z
    .array(
      z.object({
        id: z.string(),
        friendly_name: z.string(),
        factor_type: z.literal('totp'),
        status: z.enum(['unverified', 'verified']),
        created_at: z.string(),
        updated_at: z.string(),
        last_challenged_at: z.string().optional(),
      }),
    )
    .optional(),
});
export type GoTrueUser = z.infer<typeof GoTrueUser>;

/** GoTrue's AccessTokenResponse, the Session the client stores. */
export const GoTrueSession = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number(),
  expires_at: z.number(),
  refresh_token: z.string(),
  user: GoTrueUser,
  weak_password: z.object({ message: z.string(), reasons: z.array(z.string()) }).optional(),
});
export type GoTrueSession = z.infer<typeof GoTrueSession>;
