import type { TrackerPreset } from './preset.ts';

/**
 * Twilio (issue 26). Twilio posts a form (application/x-www-form-urlencoded) to the status
 * callback of a call: CallSid (the call, `CA…`), AccountSid (the account, `AC…`), From, To,
 * CallStatus (queued, initiated, ringing, in-progress, completed, busy, failed, no-answer,
 * canceled), CallDuration in seconds (on the final callback), Timestamp in RFC 2822
 * (`Mon, 16 Aug 2010 03:45:01 +0000`), SequenceNumber, RecordingUrl, and the caller's
 * FromCity, FromState, FromZip, FromCountry. A `<Dial action>` URL receives the outcome of the
 * dialed buyer instead: DialCallStatus (completed, answered, busy, no-answer, failed, canceled)
 * and DialCallDuration, with the inbound call's CallSid. Every request is signed
 * (X-Twilio-Signature: HMAC-SHA1 of the URL and the sorted POST parameters, keyed by the auth
 * token). Twilio knows no publisher: calls are attributed by the number called (`To`).
 *
 * A leg Twilio dials itself (Direction outbound-dial, with ParentCallSid: a <Number
 * statusCallback>) or an outbound-api call has the buyer or the customer as `To`, a number
 * assigned to no one: it is refused, never a lead of its own.
 */
export const twilioPreset: TrackerPreset = {
  tracker: 'twilio',
  label: 'Twilio',
  sources: [
    'https://www.twilio.com/docs/usage/webhooks/voice-webhooks',
    'https://www.twilio.com/docs/voice/api/call-resource#statuscallback',
    'https://www.twilio.com/docs/voice/twiml/dial#action',
    'https://www.twilio.com/docs/usage/webhooks/webhooks-security',
    'https://support.twilio.com/hc/en-us/articles/223132267-Tracking-the-Status-of-an-Outbound-Twilio-Voice-Call',
    'https://support.twilio.com/hc/en-us/articles/223132547-What-are-the-possible-call-statuses-and-what-do-they-mean',
    'https://www.twilio.com/docs/api/twiml/twilio_request',
    'https://www.twilio.com/docs/voice/twiml/number',
  ],
  tokens: [],
  mapping: {
    call_id: { names: ['CallSid'] },
    event: {
      // The dialed buyer's outcome when the <Dial action> reports it; else the call's status.
      names: ['DialCallStatus', 'CallStatus'],
      map: {
        queued: 'incoming',
        initiated: 'incoming',
        ringing: 'incoming',
        'in-progress': 'connected',
        completed: 'completed',
        // Only DialCallStatus says "answered", and only once the dial has ended.
        answered: 'completed',
        busy: 'not_connected',
        failed: 'not_connected',
        'no-answer': 'not_connected',
        canceled: 'not_connected',
      },
    },
    caller: { names: ['From', 'Caller'] },
    tracking_number: { names: ['To', 'Called'] },
    duration: { names: ['DialCallDuration', 'CallDuration'], format: 'seconds' },
    recording_url: { names: ['RecordingUrl'] },
    state: { names: ['FromState', 'CallerState'] },
    zip: { names: ['FromZip', 'CallerZip'] },
    // RFC 2822, always UTC.
    timestamp: { names: ['Timestamp'], format: 'auto' },
  },
  secretParams: [],
  signature: 'twilio',
  sendsPublisher: false,
  // The <Dial action> request: Twilio continues the call with the TwiML it gets back.
  twimlWhen: 'DialCallStatus',
  setup: [
    {
      trigger: 'Call status changes (the number’s status callback)',
      meaning: 'any',
      method: 'POST',
      body: 'form',
      note: 'Phone Numbers → the number → Voice → "Call status changes": this URL, HTTP POST. Put your AccountSid as the integration’s account id and the auth token as its signature secret (scheme twilio).',
    },
    {
      trigger: '<Dial action="…">',
      meaning: 'any',
      method: 'POST',
      body: 'form',
      note: 'In the TwiML that forwards the call: <Dial action="this URL" method="POST">, so the buyer’s answer (DialCallStatus) decides. The portal answers it with an empty TwiML <Response/>, which ends the call once the buyer’s leg is over.',
    },
  ],
  notes: [
    'Twilio answers every inbound call that runs TwiML, so the number’s own CallStatus is "completed" even when the forwarded buyer never picked up: to pay only calls a buyer answered, use the <Dial action> URL, not both for the same number.',
    'Assign your Twilio numbers to a publisher and an offer: Twilio sends neither.',
    'Do not use this URL as the statusCallback of the dialed <Number> or of calls you place through the API: those legs are "To" the buyer or the customer, so they are refused, not counted.',
    'The signature is over the URL exactly as Twilio calls it: keep the key in the URL you paste into Twilio.',
  ],
};
