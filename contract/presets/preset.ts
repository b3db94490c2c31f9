import type {
  CallField,
  EventTarget,
  Mapping,
  SignatureScheme,
  TokenSyntax,
  Tracker,
} from '../ingest-mapping.ts';

/** The shape of a tracker preset (the presets import this, tracker-presets.ts lists them). */

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
  /**
   * A parameter that marks the tracker's call-flow request (Twilio's `<Dial action>` sends
   * DialCallStatus): the tracker runs the answer as instructions (TwiML), so an accepted request
   * with it is answered with an empty `<Response/>` (the call ends) instead of JSON, which
   * Twilio refuses there (its error 12300) and whose caller would hear an application error.
   */
  twimlWhen?: string;
  setup: readonly SetupStep[];
  /** Anything else the operator must know, one sentence each. */
  notes: readonly string[];
};

/**
 * The GET steps of a tracker that reports each event to a URL of its own, one per trigger: the
 * call's id first, then the event as a constant of the URL (none for an event-less step, which
 * is judged by the call's duration), then `tokens`, the tracker's tokens of the other fields.
 */
export function eventUrlSteps(
  callId: Record<string, string>,
  tokens: Record<string, string>,
  note: (trigger: string) => string,
) {
  return (trigger: string, event: string | null, meaning: EventTarget | 'any'): SetupStep => ({
    trigger,
    meaning,
    method: 'GET',
    query: { ...callId, ...(event ? { event } : {}), ...tokens },
    note: note(trigger),
  });
}
