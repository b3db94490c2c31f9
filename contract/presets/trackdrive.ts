import { eventUrlSteps, type TrackerPreset } from './preset.ts';

/** A TrackDrive webhook (Company → Webhooks) on one trigger, its event a constant of the URL. */
const trigger = eventUrlSteps(
  { call_uuid: '[call_uuid]' },
  {
    // from memory; verify: the token names of the traffic source, offer, number called,
    // talk time, payout and revenue ([call_uuid], [caller_id], [zip], [state] are in
    // TrackDrive's articles cited in `sources`).
    traffic_source_id: '[traffic_source_id]',
    offer_id: '[offer_id]',
    caller_id: '[caller_id]',
    number_called: '[number_called]',
    duration: '[talk_time]',
    payout: '[payout]',
    revenue: '[revenue]',
    state: '[state]',
    zip: '[zip]',
    created_at: '[created_at]',
  },
  (name) => `Company → Webhooks → New, trigger "${name}", this URL with its Webhook Params.`,
);

/**
 * TrackDrive (issue 26). Three ways out of TrackDrive: webhooks on a trigger (Company →
 * Webhooks; tokens in square brackets, `[call_uuid]`, `[caller_id]`), traffic-source postbacks
 * (tokens in braces, `{call_id}`, `{payout}`, `{duration}`), and REST hooks (API
 * subscriptions to new_call, call_ringing, call_forwarded, call_ended…) that POST the call as
 * JSON, nested under `call`, its `status` one of TrackDrive's plain-text call statuses
 * (initiated, established, finished, no-buyer, ivr-hung-up, cancelled…). A call is its
 * UUID; its traffic source is our publisher, its offer our offer. Dates come as `2016-01-01 12:25:15 -0500`; booleans as true/false/1/yes. A
 * buyer's postback into TrackDrive carries `auth_token`, and SIP legs a `td_secure_token`:
 * secrets.
 */
export const trackdrivePreset: TrackerPreset = {
  tracker: 'trackdrive',
  label: 'TrackDrive',
  sources: [
    'https://support.trackdrive.com/en_US/integrations/posting-and-postback-basic',
    'https://support.trackdrive.com/integrations/creating-a-post-back-to-trackdrive',
    'https://support.trackdrive.net/articles/traffic-source-postbacks',
    'https://trackdrive.com/api/docs/1.0/subscriptions.html',
    'https://trackdrive.com/api/docs/1.0/calls/update.html',
    'https://trackdrive.com/api/docs/1.0/calls.html',
    'https://trackdrive.net/api/docs/1.0/calls/events.html',
    'https://support.trackdrive.com/articles/secure-calls-api-and-sip-headers',
    'https://cdn.trackdrive.net/features/hasoffers',
    'https://support.trackdrive.com/articles/call-lifecycle-and-status-values',
  ],
  tokens: ['brackets', 'braces'],
  mapping: {
    call_id: { names: ['call_uuid', 'call.uuid', 'uuid', 'trackdrive_call_uuid', 'call_id'] },
    event: {
      // `event`/`trigger`: a constant of the URL. `call.status`/`status`: the call's own status
      // as a REST hook posts it (the call object, whose status is plain text).
      names: ['event', 'trigger', 'call.status', 'status'],
      map: {
        // REST hook events and webhook triggers before a buyer answers (a forwarded call is
        // being offered to a buyer: not connected yet).
        new_call: 'incoming',
        call_ringing: 'incoming',
        call_forwarded: 'incoming',
        buyer_dialed: 'incoming',
        buyer_answered: 'connected',
        // "call_ended" fires for every call, answered or not, so alone it cannot make a call
        // payable: it records the call as connected at most, and the pay comes with the
        // conversion (or the event-less Call Ended webhook below, judged by its talk time).
        call_ended: 'connected',
        offer_converted: 'converted',
        buyer_converted: 'converted',
        either_converted: 'converted',
        both_converted: 'converted',
        // A call's own end states when no buyer took it (TrackDrive's legs carry the
        // carrier's words: completed, no-answer, busy, failed, canceled).
        'no-answer': 'not_connected',
        busy: 'not_connected',
        failed: 'not_connected',
        canceled: 'not_connected',
        // The call's status (support.trackdrive.com/articles/call-lifecycle-and-status-values,
        // "the complete list of valid statuses"). Live states first: the call is still running.
        initiated: 'incoming',
        'calling-leads': 'incoming',
        waiting: 'incoming',
        'on-hold': 'incoming',
        forwarded: 'incoming',
        established: 'connected',
        // A call that finalized normally: judged by its talk time (0 s = never connected).
        finished: 'completed',
        // The finalized outcomes of a call no buyer took: recorded, never payable. Both
        // spellings of cancelled are valid statuses. "caller-hung-up" is listed apart from
        // "finished" and from hanging up while a buyer rang: read as a hang-up before a buyer.
        cancelled: 'not_connected',
        'added-to-schedule': 'not_connected',
        blocked: 'not_connected',
        'caller-hung-up': 'not_connected',
        'caller-hung-up-while-ringing-buyer': 'not_connected',
        'hold-queue-no-buyer': 'not_connected',
        'hold-queue-waited-too-long': 'not_connected',
        'hold-queue-hung-up': 'not_connected',
        'invalid-number': 'not_connected',
        'ivr-hung-up': 'not_connected',
        'ivr-no-keypress': 'not_connected',
        'left-voicemail': 'not_connected',
        'no-answer-convert-on-attempt': 'not_connected',
        'no-buyer': 'not_connected',
        'no-buyer-all-filtered': 'not_connected',
        'no-buyer-prevent-dupes': 'not_connected',
        'no-route-to-destination': 'not_connected',
        'not-open': 'not_connected',
        'opt-out': 'not_connected',
        rejected: 'not_connected',
        'rejected-caller-concurrency-exceeded': 'not_connected',
        'rejected-ivr-hang-up': 'not_connected',
        'rejected-no-concurrency-cap-available': 'not_connected',
        'rejected-traffic-source-capped-hang-up': 'not_connected',
        voicemail: 'not_connected',
        'voicemail-detected': 'not_connected',
      },
    },
    publisher: {
      names: ['traffic_source_id', 'call.traffic_source_id', 'call.traffic_source.id'],
    },
    offer: { names: ['offer_id', 'call.offer_id', 'call.offer.id'] },
    caller: { names: ['caller_id', 'caller_number', 'call.caller_number', 'call.caller_id'] },
    tracking_number: { names: ['number_called', 'call.number_called', 'call.number'] },
    duration: {
      names: ['duration', 'talk_time', 'call.talk_time', 'call.total_duration', 'total_duration'],
      format: 'seconds',
    },
    revenue: { names: ['revenue', 'call.revenue'], format: 'dollars' },
    payout: { names: ['payout', 'call.payout'], format: 'dollars' },
    recording_url: { names: ['recording_url', 'call.recording_url'] },
    state: { names: ['state', 'call.state', 'call.contact.state'] },
    zip: { names: ['zip', 'zip_code', 'call.zip', 'call.contact.zip'] },
    // "2016-01-01 12:25:15 -0500", TrackDrive's documented date form.
    timestamp: { names: ['created_at', 'call.created_at'], format: 'auto' },
  },
  secretParams: ['auth_token', 'td_secure_token', 'secure_token'],
  sendsPublisher: true,
  setup: [
    trigger('New call started', 'new_call', 'incoming'),
    trigger('Buyer answered', 'buyer_answered', 'connected'),
    trigger('Offer converted (traffic source converted)', 'offer_converted', 'converted'),
    // No event: judged by its talk time, 0 s being a call no buyer answered.
    trigger('Call ended', null, 'any'),
    {
      trigger: 'REST hook: call_ended, trigger_fields {offer_converted: true}',
      meaning: 'converted',
      method: 'POST',
      body: 'json',
      query: { event: 'offer_converted' },
      note: 'POST /api/v1/subscriptions {event: "call_ended", trigger_fields: {offer_converted: true}, target_url: this URL}: TrackDrive posts the call as JSON.',
    },
  ],
  notes: [
    'Attach TrackDrive traffic source ids to your publishers and offer ids to your offers.',
    'The Call ended webhook sends no event: a call is judged by its talk time (over 0 s completed, 0 s not connected).',
    'A call_ended event alone never pays a call: it waits for the conversion.',
  ],
};
