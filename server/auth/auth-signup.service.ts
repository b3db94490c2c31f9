// POST /signup: new publishers and buyers, and what a repeated sign-up answers.

import type { GoTrueSession, GoTrueUser } from '../../contract/auth.ts';
import { normalizeEmail } from '../../contract/email.ts';
import type { Config } from '../config.ts';
import type { DbOrTx } from '../db/client.ts';
import { isUniqueViolation } from '../db/pg-errors.ts';
import { users } from '../db/schema.ts';
import { emitEvent } from '../events/emit.ts';
import { appLinks } from '../notify/links.ts';
import { notifyAdmins } from '../notify/notify.ts';
import {
  type Client,
  type Ctx,
  checkNewPassword,
  findUserByEmail,
  invalidEmail,
  lockUser,
  mailLink,
  remailLink,
  sessionJson,
} from './auth-common.ts';
import { GoTrueError } from './auth-errors.ts';
import { hashPassword } from './password.ts';
import { createSession } from './sessions.ts';
import { madeUpUser, toGoTrueUser, type UserRow } from './user-json.ts';

const PROFILE_FIELDS = [
  'full_legal_name',
  'full_name',
  'business_legal_name',
  'company_name',
  'address',
  'phone_number',
  'whatsapp_number',
  'ms_teams_id',
] as const;

/** Checks the sign-up `data`: role buyer or absent, profile fields short strings. */
function checkSignupData(data: Record<string, unknown>): {
  role: 'publisher' | 'buyer';
  profile: Partial<typeof users.$inferInsert>;
} {
  const role = data.role;
  if (role !== undefined && role !== null && role !== 'buyer') {
    throw new GoTrueError(
      400,
      'validation_failed',
      "Accounts can only be created for publishers or buyers: leave data.role out or set it to 'buyer'.",
    );
  }
  if (JSON.stringify(data).length > 16_000) {
    throw new GoTrueError(400, 'validation_failed', 'The sign-up data is too large.');
  }
  const text: Partial<Record<(typeof PROFILE_FIELDS)[number], string | null>> = {};
  for (const field of PROFILE_FIELDS) {
    const v = data[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') {
      throw new GoTrueError(400, 'validation_failed', `data.${field} must be text.`);
    }
    if (v.length > 500) {
      throw new GoTrueError(
        400,
        'validation_failed',
        `data.${field} is too long (at most 500 characters).`,
      );
    }
    text[field] = v.trim() || null;
  }
  if (role === 'buyer') {
    return {
      role: 'buyer',
      profile: { name: text.full_name ?? null, businessLegalName: text.company_name ?? null },
    };
  }
  return {
    role: 'publisher',
    profile: {
      name: text.full_legal_name ?? null,
      businessLegalName: text.business_legal_name ?? null,
      address: text.address ?? null,
      phoneNumber: text.phone_number ?? null,
      whatsappNumber: text.whatsapp_number ?? null,
      msTeamsId: text.ms_teams_id ?? null,
    },
  };
}

export type SignUpResult = { session: GoTrueSession } | { user: GoTrueUser };

/**
 * POST /signup. Publishers are confirmed at once (status pending until an admin approves);
 * buyers get a confirmation mail. AUTH_AUTOCONFIRM confirms everyone and answers a Session.
 * A repeated sign-up never reveals whether the address is registered (contract §3).
 */
export async function signUp(
  opts: Ctx &
    Client & {
      input: { email?: string; password?: string; data?: Record<string, unknown> };
      redirectTo: string;
    },
): Promise<SignUpResult> {
  const { db, config, input } = opts;
  const password = input.password ?? '';
  if (password === '') {
    throw new GoTrueError(400, 'validation_failed', 'Signup requires a valid password');
  }
  checkNewPassword(password);
  if (!input.email) {
    throw new GoTrueError(400, 'validation_failed', 'To signup, please provide your email');
  }
  const email = normalizeEmail(input.email);
  if (!email) throw invalidEmail();
  const data = input.data ?? {};
  const { role, profile } = checkSignupData(data);

  const existing = await findUserByEmail(db, email);
  if (existing) return repeatedSignUp({ ...opts, existing, email, data, role });

  const passwordHash = await hashPassword(password);
  try {
    return await db.transaction(async (tx): Promise<SignUpResult> => {
      const now = new Date();
      const confirmNow = config.authAutoconfirm || role === 'publisher';
      const [row] = await tx
        .insert(users)
        .values({
          ...profile,
          email,
          passwordHash,
          role,
          status: role === 'publisher' ? 'pending' : 'active',
          userMetadata: confirmNow ? { ...data, email_verified: true } : { ...data },
          emailConfirmedAt: confirmNow ? now : null,
          confirmationSentAt: confirmNow ? null : now,
          lastSignInAt: config.authAutoconfirm ? now : null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const user = row!;
      if (role === 'publisher') await announceSignUp(tx, config, user);
      if (config.authAutoconfirm) {
        const s = await createSession(tx, {
          userId: user.id,
          method: 'password',
          ip: opts.ip,
          userAgent: opts.userAgent,
        });
        return { session: await sessionJson(config, { user, ...s }) };
      }
      if (!confirmNow) {
        const redirectTo = opts.redirectTo;
        await mailLink(tx, config, { user, kind: 'confirmation', to: user.email, redirectTo, now });
      }
      return { user: toGoTrueUser(user) };
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Someone signed up with this address at the same moment: answer as for a repeat.
    const raced = await findUserByEmail(db, email);
    if (!raced) throw err;
    return repeatedSignUp({ ...opts, existing: raced, email, data, role });
  }
}

/** Tells the admins a publisher signed up and waits for approval (issue 16). */
async function announceSignUp(tx: DbOrTx, config: Config, user: UserRow): Promise<void> {
  const who = user.name?.trim() || user.email;
  const company = user.businessLegalName?.trim();
  await notifyAdmins(tx, {
    kind: 'publisher_signed_up',
    title: `New publisher sign-up: ${who}`,
    body: `${who} (${user.email}${company ? `, ${company}` : ''}) signed up as a publisher and waits for approval.`,
    link: appLinks.adminPublisher(user.id),
    publicUrl: config.publicUrl,
  });
  await emitEvent(tx, 'publisher.signed_up', {
    publisher_id: user.id,
    email: user.email,
    name: user.name,
    company: company || null,
    status: user.status,
  });
}

async function repeatedSignUp(
  opts: Ctx & {
    existing: UserRow;
    email: string;
    data: Record<string, unknown>;
    role: 'publisher' | 'buyer';
    redirectTo: string;
  },
): Promise<SignUpResult> {
  const { db, config, existing } = opts;
  if (config.authAutoconfirm) {
    throw new GoTrueError(422, 'user_already_exists', 'User already registered');
  }
  if (existing.emailConfirmedAt) {
    return {
      user: madeUpUser({
        email: opts.email,
        data: opts.data,
        confirmedAtSignup: opts.role === 'publisher',
      }),
    };
  }
  // Not confirmed yet: send the confirmation again; the password and data stay as they were.
  return db.transaction(async (tx) => {
    const user = (await lockUser(tx, existing.id)) ?? existing;
    if (user.status === 'blocked') return { user: toGoTrueUser(user) };
    const updated = await remailLink(tx, config, {
      user,
      kind: 'confirmation',
      to: user.email,
      redirectTo: opts.redirectTo,
      now: new Date(),
    });
    return { user: toGoTrueUser(updated) };
  });
}
