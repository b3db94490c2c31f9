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
};

/**
 * Invoca (issue 26). Invoca reports each call as a transaction (Transactions API fields:
 * transaction_id, complete_call_id, calling_phone_number as `866-555-1234`, duration and
 * connect_duration in seconds, start_time_xml/start_time_local with an offset, start_time_utc
 * in ms, affiliate_payout_localized, advertiser_payin_localized, region, verified_zip,
 * recording). A post-call webhook sends them when the call ends; a signal webhook when a
 * Signal (a sale, a quote) is applied to the call, as its own transaction whose
 * complete_call_id is the call's. Hence the call is identified by complete_call_id first: a
 * signal then updates the call's lead instead of making a second one.
 *
 * Invoca networks know their affiliates (affiliate_id_from_network = the id the network gave
 * it): that is our publisher. A call whose connect_duration is 0 never reached the advertiser.
 * The webhook's token syntax (`{{field}}`) is from memory; verify in Invoca's webhook editor.
 */
export const invocaPreset: TrackerPreset = {
  tracker: 'invoca',
  label: 'Invoca',
  sources: [
    'https://developers.invoca.net/en/latest/api_documentation/transactions_api/index.html',
    'https://github.com/Invoca/developer-docs/blob/2020-10-01/source/api_documentation/transactions_api/_network_param_table.rst',
    'https://github.com/Invoca/developer-docs/blob/2020-10-01/source/api_documentation/transactions_api/_signal_param_table.rst',
    'https://github.com/Invoca/developer-docs/blob/2020-10-01/source/api_documentation/signal_api/index.rst',
  ],
  tokens: ['double_braces', 'braces'],
  mapping: {
    call_id: { names: ['complete_call_id', 'transaction_id'] },
    event: {
      // `event` is a constant of each webhook's URL (signal below); a post-call webhook sends
      // none, and its connected duration says whether the call reached the advertiser.
      names: ['event', 'connect_duration'],
      map: {
        signal: 'converted',
        sale: 'converted',
        '0': 'not_connected',
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
      query: { ...fields, event: 'signal' },
      note: 'Integrations → Webhooks → Signal, for the Signal that means a sale: the same parameters plus event=signal.',
    },
  ],
  notes: [
    'Attach Invoca affiliate ids (affiliate_id_from_network) to your publishers and advertiser campaign ids to your offers.',
    'A signal updates its call (same complete_call_id): one lead per call.',
  ],
};
