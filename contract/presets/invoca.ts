import type { TrackerPreset } from './preset.ts';

/** The transaction fields an Invoca webhook is asked to send, by their Transactions API names. */
const fields = {
  transaction_id: '{{transaction_id}}',
  complete_call_id: '{{complete_call_id}}',
  affiliate_id_from_network: '{{affiliate_id_from_network}}',
  advertiser_campaign_id_from_network: '{{advertiser_campaign_id_from_network}}',
  calling_phone_number: '{{calling_phone_number}}',
  connect_duration: '{{connect_duration}}',
  duration: '{{duration}}',
  affiliate_payout_localized: '{{affiliate_payout_localized}}',
  advertiser_payin_localized: '{{advertiser_payin_localized}}',
  region: '{{region}}',
  verified_zip: '{{verified_zip}}',
  start_time_xml: '{{start_time_xml}}',
  recording: '{{recording}}',
  hangup_cause: '{{hangup_cause}}',
};

/**
 * Invoca (issue 26). Invoca reports each call as a transaction (Transactions API fields:
 * transaction_id, complete_call_id, calling_phone_number as `866-555-1234`, duration and
 * connect_duration in seconds, start_time_xml/start_time_local with an offset, start_time_utc
 * in ms, affiliate_payout_localized, advertiser_payin_localized, region, verified_zip,
 * recording, hangup_cause: the End of Call Reason, "Destination: No Answer", "IVR: Hang-up").
 * A post-call webhook sends them when the call ends; a signal webhook when a Signal (a sale,
 * a quote) is applied to the call, as its own transaction whose complete_call_id is the
 * call's. Hence the call is identified by complete_call_id first: a
 * signal then updates the call's lead instead of making a second one.
 *
 * Invoca networks know their affiliates (affiliate_id_from_network = the id the network gave
 * it): that is our publisher. A call whose connect_duration is 0, or whose End of Call Reason
 * is a busy, unanswered, failed or blocked destination or an IVR hang-up, never reached the
 * advertiser. The webhook's token syntax (`{{field}}`) is from memory; verify in Invoca's
 * webhook editor ("Add substitution parameter" lists the parameters).
 */
export const invocaPreset: TrackerPreset = {
  tracker: 'invoca',
  label: 'Invoca',
  sources: [
    'https://developers.invoca.net/en/latest/api_documentation/transactions_api/index.html',
    'https://github.com/Invoca/developer-docs/blob/2020-10-01/source/api_documentation/transactions_api/_network_param_table.rst',
    'https://github.com/Invoca/developer-docs/blob/2020-10-01/source/api_documentation/transactions_api/_signal_param_table.rst',
    'https://github.com/Invoca/developer-docs/blob/2020-10-01/source/api_documentation/signal_api/index.rst',
    'https://github.com/Invoca/developer-docs/blob/master/source/api_documentation/transactions_api/signal_param_table.rst',
    'https://invoca.uservoice.com/knowledgebase/articles/943096-end-of-call-reason',
    'https://community.invoca.com/t5/dashboards/understanding-quot-end-of-call-reason-quot-in-your-call-details/ta-p/559',
    'https://invoca.uservoice.com/knowledgebase/articles/316416-webhook-overview',
  ],
  tokens: ['double_braces', 'braces'],
  mapping: {
    call_id: { names: ['complete_call_id', 'transaction_id'] },
    event: {
      // A Signal transaction says whether its Signal was met (signal_value, call_outcome_value
      // in the newer parameter names: "true or false … null if it is not a signal transaction",
      // `sources`): met converts the call, not met says nothing of it. `event` is a constant of
      // each webhook's URL (signal below); a post-call webhook sends none: its End of Call
      // Reason (hangup_cause) names the calls that never reached the advertiser, and else its
      // connected duration says (0 = not connected).
      names: ['signal_value', 'call_outcome_value', 'event', 'hangup_cause', 'connect_duration'],
      map: {
        true: 'converted',
        false: 'incoming',
        signal: 'converted',
        sale: 'converted',
        '0': 'not_connected',
        // End of Call Reasons of a call that was never connected (Invoca's list, `sources`).
        // The others (Caller: Hang-up, Destination: Hang-up, Invoca: Max Call Duration,
        // Unknown: Unknown Cause) fall to `*`: judged by the connected duration.
        'Destination: Busy': 'not_connected',
        'Destination: No Answer': 'not_connected',
        'Destination: Number Not in Service': 'not_connected',
        'Destination: Error (503 or Fast Busy)': 'not_connected',
        'IVR: Hang-up': 'not_connected',
        'Invoca: Hang-up': 'not_connected',
        'Invoca: Hang-up (Unknown Promo Number)': 'not_connected',
        'Invoca: Hang-up (Blacklisted Caller)': 'not_connected',
        'Invoca: Hang-up (Call Confidence Blocked)': 'not_connected',
        '*': 'completed',
      },
    },
    publisher: { names: ['affiliate_id_from_network', 'affiliate_id'] },
    offer: { names: ['advertiser_campaign_id_from_network', 'advertiser_campaign_id'] },
    caller: { names: ['calling_phone_number'] },
    // The connected time, not `duration` (which counts the IVR too), when both are sent.
    duration: { names: ['connect_duration', 'duration'], format: 'seconds' },
    revenue: { names: ['advertiser_payin_localized', 'revenue'], format: 'dollars' },
    payout: { names: ['affiliate_payout_localized'], format: 'dollars' },
    recording_url: { names: ['recording'] },
    state: { names: ['region'] },
    zip: { names: ['verified_zip'] },
    timestamp: { names: ['start_time_xml', 'start_time_local', 'start_time_utc'], format: 'auto' },
  },
  secretParams: [],
  sendsPublisher: true,
  setup: [
    {
      trigger: 'Post-call webhook',
      meaning: 'any',
      method: 'GET',
      query: fields,
      note: 'Integrations → Webhooks → Post Call: this URL with these parameters (connect_duration 0 = not connected).',
    },
    {
      trigger: 'Signal webhook',
      meaning: 'converted',
      method: 'GET',
      query: { ...fields, event: 'signal', signal_value: '{{signal_value}}' },
      note: 'Integrations → Webhooks → Signal, for the Signal that means a sale: the same parameters plus event=signal and signal_value (a Signal applied but not met is then not taken for a sale).',
    },
  ],
  notes: [
    'Attach Invoca affiliate ids (affiliate_id_from_network) to your publishers and advertiser campaign ids to your offers.',
    'A signal updates its call (same complete_call_id): one lead per call.',
  ],
};
