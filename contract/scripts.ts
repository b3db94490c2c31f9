import { z } from 'zod';
import { ownOfferRef } from './admin-common.ts';
import { IsoDateTime } from './list.ts';

/**
 * Offer script versions (issue 33): each edit of an offer's script instructions is a version;
 * publishers approved for the offer read the change as a line diff and acknowledge it.
 */

/** What happens to calls of a publisher late to acknowledge the current version. */
export const scriptAckModes = ['flag', 'hold'] as const;
export const ScriptAckMode = z.enum(scriptAckModes, {
  error: 'Choose whether late publishers’ calls are flagged or held.',
});
export type ScriptAckMode = z.infer<typeof ScriptAckMode>;

export const scriptAckModeLabels: Record<ScriptAckMode, string> = {
  flag: 'Flag the calls (they are still judged as usual)',
  hold: 'Hold the calls as pending until an admin decides',
};

/** Days to acknowledge a new version before calls are held or flagged. */
export const ScriptAckDays = z
  .number({ error: 'Days to acknowledge must be a whole number.' })
  .int({ error: 'Days to acknowledge must be a whole number.' })
  .min(0, { error: 'Days to acknowledge cannot be negative.' })
  .max(365, { error: 'Days to acknowledge can be at most 365.' });

/** One line of a line diff: kept, added or removed. */
export const ScriptDiffLine = z.object({
  kind: z.enum(['same', 'added', 'removed']),
  text: z.string(),
});
export type ScriptDiffLine = z.infer<typeof ScriptDiffLine>;

export const ScriptVersion = z.object({
  version: z.number().int(),
  body: z.string(),
  created_at: IsoDateTime,
  /** The admin who saved it (null for versions recorded when the feature arrived). */
  created_by_email: z.string().nullable(),
  /** Lines added and removed against the version before, and the line diff itself. */
  added: z.number().int(),
  removed: z.number().int(),
  diff: z.array(ScriptDiffLine),
});
export type ScriptVersion = z.infer<typeof ScriptVersion>;

/** An approved publisher of the offer and the latest version they acknowledged. */
export const ScriptAcknowledger = z.object({
  publisher_id: z.uuid(),
  name: z.string().nullable(),
  email: z.string(),
  /** The latest version acknowledged (null: none yet). */
  acknowledged_version: z.number().int().nullable(),
  acknowledged_at: IsoDateTime.nullable(),
  /** Whether that is the current version. */
  current: z.boolean(),
});

/** One acknowledgement: who acknowledged which version when. */
export const ScriptAcknowledgement = z.object({
  publisher_id: z.uuid(),
  email: z.string(),
  version: z.number().int(),
  acknowledged_at: IsoDateTime,
});

/** GET /api/v1/admin/offers/{id}/script: versions (newest first) and acknowledgements. */
export const AdminOfferScript = z.object({
  offer_id: z.uuid(),
  current_version: z.number().int().nullable(),
  ack_mode: ScriptAckMode,
  ack_days: z.number().int(),
  versions: z.array(ScriptVersion),
  publishers: z.array(ScriptAcknowledger),
  acknowledgements: z.array(ScriptAcknowledgement),
});
export type AdminOfferScript = z.infer<typeof AdminOfferScript>;

/** GET /api/v1/publisher/offers/{id}/script: the script and what changed since the last read. */
export const PublisherOfferScript = z.object({
  ...ownOfferRef,
  /** Null: the offer has no script. */
  version: z.number().int().nullable(),
  body: z.string(),
  published_at: IsoDateTime.nullable(),
  acknowledged_version: z.number().int().nullable(),
  acknowledged_at: IsoDateTime.nullable(),
  needs_acknowledgement: z.boolean(),
  /** After this, calls are held or flagged (null when nothing is due). */
  due_at: IsoDateTime.nullable(),
  ack_mode: ScriptAckMode,
  /** The current version against the last acknowledged one (all added when none). */
  diff: z.array(ScriptDiffLine),
});
export type PublisherOfferScript = z.infer<typeof PublisherOfferScript>;

/** POST /api/v1/publisher/offers/{id}/script/acknowledge. */
export const AcknowledgeScriptBody = z.object({
  version: z
    .number({ error: 'Say which version you read.' })
    .int({ error: 'Say which version you read.' })
    .positive({ error: 'Say which version you read.' }),
});
export type AcknowledgeScriptBody = z.infer<typeof AcknowledgeScriptBody>;

/** GET /api/v1/publisher/scripts/pending: approved offers whose current script is unread. */
export const PendingScripts = z.object({
  items: z.array(
    z.object({
      ...ownOfferRef,
      version: z.number().int(),
      published_at: IsoDateTime,
      due_at: IsoDateTime,
    }),
  ),
});
export type PendingScripts = z.infer<typeof PendingScripts>;
