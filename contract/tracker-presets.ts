import { callFields, type Mapping, type Tracker, tokenSyntaxes } from './ingest-mapping.ts';

/**
 * What each call tracker sends, as its vendor documents it publicly (issue 26): a preset fills
 * a new integration's mapping, token syntax, secret parameters and suggested signature, and
 * lists the settings to paste into the tracker per event it can fire. Everything a preset sets
 * stays editable on the integration. Each preset names its sources.
 */

import type { SetupStep, TrackerPreset } from './presets/preset.ts';

export type { SetupStep, TrackerPreset };

/**
 * Our own names, for trackers we have no preset for and for integrations made before presets
 * (issue 13): each field read by its own name; an event-less post is judged by what it carries
 * (a duration over 0 s completed, 0 s not connected, none pending).
 */
export const genericPreset: TrackerPreset = {
  tracker: 'generic',
  label: 'Other tracker (our parameter names)',
  sources: [],
  tokens: tokenSyntaxes,
  mapping: Object.fromEntries(callFields.map((f) => [f, { names: [f] }])) as Mapping,
  secretParams: [],
  sendsPublisher: true,
  setup: [
    {
      trigger: 'Each call event',
      meaning: 'any',
      method: 'GET',
      query: {
        call_id: '{call id}',
        event: 'completed',
        publisher: '{publisher id}',
        offer: '{offer or campaign id}',
        caller: '{caller number}',
        duration: '{seconds}',
      },
      note: 'Or POST the same fields as JSON or a form; event is one of incoming, connected, completed, converted, payout, not_connected, error.',
    },
  ],
  notes: [],
};

// ---------------------------------------------------------------------------
// The presets, by tracker
// ---------------------------------------------------------------------------

import { callrailPreset } from './presets/callrail.ts';
import { invocaPreset } from './presets/invoca.ts';
import { retreaverPreset } from './presets/retreaver.ts';
import { ringbaPreset } from './presets/ringba.ts';
import { trackdrivePreset } from './presets/trackdrive.ts';
import { twilioPreset } from './presets/twilio.ts';

/** Every tracker's preset (each file under contract/presets names its vendor's sources). */
export const trackerPresets: Record<Tracker, TrackerPreset> = {
  ringba: ringbaPreset,
  retreaver: retreaverPreset,
  trackdrive: trackdrivePreset,
  invoca: invocaPreset,
  callrail: callrailPreset,
  twilio: twilioPreset,
  generic: genericPreset,
};

/** The preset of a tracker (generic for one we do not know, e.g. an old row). */
export function presetOf(t: Tracker): TrackerPreset {
  return trackerPresets[t] ?? genericPreset;
}
