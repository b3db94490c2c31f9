import type { TrackerPreset } from './preset.ts';

/**
 * CallRail (issue 26). CallRail's webhooks (Pre-Call, Call Routing Complete, Post-Call, Call
 * Modified, Outbound Post-Call…) POST the call object as JSON: `id`/`resource_id`, `answered`
 * (boolean), `call_type` (abandoned, answered, in_progress, missed, outbound, voicemail,
 * voicemail_transcription), `customer_phone_number` and `tracking_phone_number` in E.164,
 * `duration` in seconds (a number, or a string in the webhook), `start_time` ISO 8601 with an
 * offset, `customer_state` (2 letters), `recording`. The legacy names (`callernum`,
 * `trackingnum`, `callerstate`) ride along. Each request is signed: HMAC-SHA1 of the raw body
 * with the company's signing key, base64, in the `Signature` header.
 *
 * "Abandoned" is a caller who hung up within 15 s, inbound or outbound; "outbound" is a call the
 * business placed, which the Post-Call webhook also reports ("Post-call (including outbound)"):
 * both are recorded, never paid. Call Routing Complete adds the business number the call was
 * routed to; like the pre-call it comes before the outcome, which only Post-Call carries.
 *
 * CallRail knows no publisher or offer: calls are attributed by their tracking number
 * (assign each number to a publisher and offer). The company is the account.
 */
export const callrailPreset: TrackerPreset = {
  tracker: 'callrail',
  label: 'CallRail',
  sources: [
    'https://apidocs.callrail.com/#webhooks',
    'https://apidocs.callrail.com/#calls',
    'https://support.callrail.com/hc/en-us/articles/201211133-Webhooks',
    'https://support.callrail.com/hc/en-us/articles/5711246459149-Webhooks',
    'https://support.callrail.com/hc/en-us/articles/5712088951437-Call-answer-status',
  ],
  // CallRail fills values itself; it has no tokens to leave unreplaced.
  tokens: [],
  mapping: {
    call_id: { names: ['resource_id', 'id'] },
    event: {
      // call_type first (its word becomes the reason: "Not connected: missed"); `answered`
      // when a webhook has no call_type.
      names: ['call_type', 'answered'],
      map: {
        answered: 'completed',
        in_progress: 'connected',
        missed: 'not_connected',
        voicemail: 'not_connected',
        voicemail_transcription: 'not_connected',
        abandoned: 'not_connected',
        // sic: CallRail's call_type list spells it this way.
        abandonded: 'not_connected',
        // A call the business placed is no inbound lead: never payable.
        outbound: 'not_connected',
        true: 'completed',
        false: 'not_connected',
      },
    },
    caller: { names: ['customer_phone_number', 'callernum'] },
    tracking_number: { names: ['tracking_phone_number', 'trackingnum'] },
    duration: { names: ['duration'], format: 'seconds' },
    recording_url: { names: ['recording'] },
    state: { names: ['customer_state', 'callerstate'] },
    // The ZIP codes a caller keyed in a geo-routing step; the first one.
    zip: { names: ['zip_code.0'] },
    timestamp: { names: ['start_time', 'created_at'], format: 'auto' },
  },
  secretParams: [],
  signature: 'callrail',
  sendsPublisher: false,
  setup: [
    {
      trigger: 'Post-Call webhook',
      meaning: 'any',
      method: 'POST',
      body: 'json',
      note: 'Integrations → Webhooks → the company → Post-Call: this URL. Copy the company signing key into the integration signature (scheme callrail).',
    },
    {
      trigger: 'Call Modified webhook',
      meaning: 'any',
      method: 'POST',
      body: 'json',
      note: 'Optional: the same URL, for recordings attached after the call.',
    },
  ],
  notes: [
    'The Pre-Call webhook says answered=false and call_type=missed before the call is connected: do not enable it, or such calls show as not connected until the Post-Call webhook arrives.',
    'Assign your CallRail tracking numbers to a publisher and an offer: CallRail sends neither.',
  ],
};
