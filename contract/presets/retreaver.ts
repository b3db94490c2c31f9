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
  ],
  tokens: ['brackets'],
  mapping: {
    // `uuid` and `call.uuid`: the call object as Retreaver's API and JSON templates name it.
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
    publisher: { names: ['publisher_id', 'affiliate_id'] },
    offer: { names: ['campaign_id'] },
    caller: { names: ['caller_number', 'caller_id', 'caller'] },
    tracking_number: { names: ['inbound_number', 'dialed_number', 'number'] },
    duration: { names: ['duration', 'call_duration'], format: 'seconds' },
    revenue: { names: ['revenue'], format: 'dollars' },
    payout: { names: ['payout'], format: 'dollars' },
    recording_url: { names: ['recording_url'] },
    state: { names: ['caller_state'] },
    zip: { names: ['caller_zip'] },
    timestamp: { names: ['received_at', 'created_at'], format: 'auto' },
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
