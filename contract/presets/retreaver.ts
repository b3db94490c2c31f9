import { eventUrlSteps, type TrackerPreset } from './preset.ts';

/** A campaign webhook per trigger, Retreaver's URL-parameter kind, its event a constant. */
const webhook = eventUrlSteps(
  { call_uuid: '[call_uuid]' },
  {
    publisher_id: '[publisher_id]',
    // from memory; verify: the tag keys of the campaign id, dialed number, duration,
    // revenue, payout and recording (call_uuid, caller_number, caller_zip, caller_state and
    // publisher_id are in Retreaver's articles cited in `sources`).
    campaign_id: '[campaign_id]',
    caller_number: '[caller_number]',
    inbound_number: '[inbound_number]',
    duration: '[duration]',
    revenue: '[revenue]',
    payout: '[payout]',
    caller_state: '[caller_state]',
    caller_zip: '[caller_zip]',
  },
  (trigger) =>
    `Campaign → Webhooks → Add, trigger "${trigger}", this URL (Replacement Tokens are the call's tag keys in brackets).`,
);

/**
 * Retreaver (issue 26). Campaign-triggered webhooks are URLs with replacement tokens
 * (`[call_uuid]`, `[caller_number]`, any tag key in brackets), fired at the start of a call
 * (Start and Selected "pings", before the caller reaches a buyer), when the buyer answers, at
 * a timer (the call reached N seconds: Retreaver's "timer pixels", the usual conversion point)
 * and when the call ends. The Webhook Configurator can send the same tokens as a JSON body.
 * A call is identified by its UUID; Retreaver also hands out a per-call key (`[call_key]`)
 * that lets its holder update the call, a secret never to be stored in the clear. Retreaver
 * knows its publisher (publisher_id, formerly affiliate_id); tracking numbers are read too.
 */
export const retreaverPreset: TrackerPreset = {
  tracker: 'retreaver',
  label: 'Retreaver',
  sources: [
    'https://learn.retreaver.com/guides/webhooks',
    'https://help.retreaver.com/hc/en-us/articles/360000579443-Retreaver-Campaign-Webhooks-Data-appending-ad-hoc-integrations',
    'https://help.retreaver.com/hc/en-us/articles/360000579423-Buyer-Postback-Postback-Conversions-Adding-Data-to-Calls',
    'https://help.retreaver.com/hc/en-us/articles/360051363431-Configuring-the-Retreaver-Call-Reservation-API-to-ping-Campaigns-for-Buyers',
    'https://learn.retreaver.com/news/allow-rtb-requests-without-caller-number-on-a-postback-key-part-2',
    'https://learn.retreaver.com/guides/retreaver-webhook-configurator',
    // The call object (V2 "Get a specific Call"): its field names and an unanswered call's
    // values (dialed_call_duration 0, forwarded_time null, connected false).
    'https://github.com/retreaver/core-api-docs/blob/018a2bae0581dfe319a06b332e246364675ecebb/source/index.html.md',
  ],
  tokens: ['brackets'],
  mapping: {
    // `uuid` and `call.uuid`: the call object as Retreaver's API and JSON templates name it.
    // Each field below also reads that object's own name (`call.…`, Retreaver Core API "V2 -
    // Get a specific Call"): a body that wraps the call object is read field by field.
    call_id: { names: ['call_uuid', 'uuid', 'call.uuid'] },
    event: {
      names: ['event', 'trigger'],
      map: {
        // The pings run before a buyer is chosen or dialed: a pre-transfer ping is not a
        // connected call.
        start: 'incoming',
        selected: 'incoming',
        ringing: 'incoming',
        answered: 'connected',
        timer: 'converted',
        converted: 'converted',
        // The ends of a call that never reached a buyer (from memory; verify: Retreaver's
        // call statuses follow its carrier's words).
        'no-answer': 'not_connected',
        no_answer: 'not_connected',
        busy: 'not_connected',
        failed: 'not_connected',
        canceled: 'not_connected',
        unanswered: 'not_connected',
        // "ended"/"hangup" is fired for every call, answered or not: not mapped. Its webhook
        // below sends no event, so the call is judged by its duration (0 s = not connected).
      },
    },
    // afid/cid: the customer-editable publisher (affiliate) and campaign ids.
    publisher: { names: ['publisher_id', 'affiliate_id', 'call.afid'] },
    offer: { names: ['campaign_id', 'call.cid'] },
    caller: { names: ['caller_number', 'caller_id', 'caller', 'call.caller'] },
    // The Retreaver number the call came in on. Not `dialed_number`: in Retreaver's call object
    // that is the number Retreaver dialed, the buyer's (the target's own number in the API's
    // examples). `call.number` is a string up to API V2, an object {number, name} from V3.
    tracking_number: { names: ['inbound_number', 'number', 'call.number', 'call.number.number'] },
    // The length with the buyer (dialed_call_duration: 0 when no buyer answered), not
    // total_duration, which counts the IVR and the hold too.
    duration: {
      names: ['duration', 'call_duration', 'call.dialed_call_duration'],
      format: 'seconds',
    },
    revenue: { names: ['revenue', 'call.revenue'], format: 'dollars' },
    payout: { names: ['payout', 'call.payout'], format: 'dollars' },
    recording_url: { names: ['recording_url', 'call.recording_url'] },
    state: { names: ['caller_state', 'call.caller_state'] },
    zip: { names: ['caller_zip', 'call.caller_zip'] },
    timestamp: { names: ['received_at', 'created_at', 'call.start_time'], format: 'auto' },
  },
  // The per-call key that lets its holder change the call in Retreaver.
  secretParams: ['call_key'],
  sendsPublisher: true,
  setup: [
    webhook('Start', 'start', 'incoming'),
    webhook('Answered', 'answered', 'connected'),
    webhook('Timer (the call reached its conversion length)', 'timer', 'converted'),
    webhook('Hangup (call ended)', null, 'any'),
    {
      trigger: 'Converted (Webhook Configurator, JSON)',
      meaning: 'converted',
      method: 'POST',
      body: 'json',
      json: {
        call_uuid: '[call_uuid]',
        event: 'converted',
        publisher_id: '[publisher_id]',
        caller_number: '[caller_number]',
        payout: '[payout]',
      },
      note: 'Webhook Configurator: method POST, Content-Type application/json, this body.',
    },
  ],
  notes: [
    'The Hangup webhook sends no event: a call is then judged by its duration (over 0 s completed, 0 s not connected).',
    'Attach Retreaver publisher ids to your publishers, or assign tracking numbers for calls without one.',
    'Do not put [call_key] in the URL unless you need it: it is a secret, kept redacted.',
  ],
};
