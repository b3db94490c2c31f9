import {
  type CallField,
  callFields,
  type EventTarget,
  type Mapping,
  type SignatureScheme,
  type TokenSyntax,
  type Tracker,
  tokenSyntaxes,
} from './ingest-mapping.ts';

/**
 * What each call tracker sends, as its vendor documents it publicly (issue 26): a preset fills
 * a new integration's mapping, token syntax, secret parameters and suggested signature, and
 * lists the settings to paste into the tracker per event it can fire. Everything a preset sets
 * stays editable on the integration. Each preset names its sources.
 */

/** One thing to set up in the tracker: a pixel URL or a webhook for one of its events. */
export type SetupStep = {
  /** The tracker's own name of the event or trigger ("Call Completed", "status callback"). */
  trigger: string;
  /** What it means for us (shown beside it). */
  meaning: EventTarget | 'any';
  method: 'GET' | 'POST';
  /** How a POST carries its fields. */
  body?: 'json' | 'form';
  /**
   * Query parameters to put on our URL, values with the tracker's tokens
   * (`{call_id: '[Call:InboundCallId]'}`); constants (`event: 'completed'`) as they are.
   */
  query?: Record<string, string>;
  /** A JSON body template with the tracker's tokens, when the tracker lets one write it. */
  json?: Record<string, string>;
  /** One line: where in the tracker this goes. */
  note: string;
};

export type TrackerPreset = {
  tracker: Tracker;
  label: string;
  /** The public pages each name and meaning was read from. */
  sources: readonly string[];
  /** How this tracker writes a token it could not fill. */
  tokens: readonly TokenSyntax[];
  /** Per field, the tracker's names and meanings. */
  mapping: Mapping;
  /** Parameters (besides SECRET_NAME's) the tracker puts secrets in. */
  secretParams: readonly string[];
  /** The signature the tracker can send, if any. */
  signature?: SignatureScheme;
  /** When the tracker sends no call id: the fields that identify a call together. */
  callIdFields?: readonly CallField[];
  /** Whether the tracker reports which of our publishers sent a call (else tracking numbers). */
  sendsPublisher: boolean;
  setup: readonly SetupStep[];
  /** Anything else the operator must know, one sentence each. */
  notes: readonly string[];
};

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
