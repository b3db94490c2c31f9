import { eventUrlSteps, type TrackerPreset } from './preset.ts';

/** One GET pixel per "Fire Pixel On" option, its event a constant of the URL. */
const pixel = eventUrlSteps(
  { call_id: '[Call:InboundCallId]' },
  {
    publisher_id: '[tag:Publisher:Id]',
    // from memory; verify: the tags of Ringba's campaign id, dialed number and call length
    // (only the other tokens here are on Ringba's "Most Common Tokens" page).
    campaign_id: '[tag:Campaign:Id]',
    caller: '[tag:InboundNumber:Number]',
    number_called: '[tag:DialedNumber:Number]',
    duration: '[tag:CallLength:Total]',
    revenue: '[Call:ConversionAmount]',
    payout: '[Call:ConversionPayout]',
    state: '[tag:InboundNumber:State]',
    zip: '[tag:Geo:ZipCode]',
    zip_icp: '[tag:Address:Zip 5]',
  },
  (trigger) =>
    `Integrations → Pixels → Create Pixel, Fire Pixel On "${trigger}", this URL; add the pixel to each campaign.`,
);

/**
 * Ringba (issue 26). Ringba reports a call by firing a "tracking pixel" per call event (Fire
 * Pixel On: Incoming, Connected, Completed, Converted, Error, Payout, Finalized, Recording) to a
 * URL the operator writes, its values filled from tokens: `[Call:…]` for call facts and
 * `[tag:Group:Name]` for tags. The same pixel can be a POST with a JSON body written from the
 * same tokens (Advanced Options → HTTP Method, Body): that is what operators call a Ringba
 * "JSON webhook". Ringba sends its publisher ([tag:Publisher:Id]); a Ringba account commonly has
 * a GET pixel and a JSON webhook reporting the same calls, so the preset reads both spellings and
 * the integrations should carry the same account id (one call, one lead).
 *
 * A token Ringba cannot fill (a caller without a number-pool session has no
 * `[tag:Geo:ZipCode]`) arrives as the token itself, hence `tokens: ['brackets']`.
 */
export const ringbaPreset: TrackerPreset = {
  tracker: 'ringba',
  label: 'Ringba',
  sources: [
    'https://support.ringba.com/hc/en-us/articles/17998491616535-Pixels',
    'https://support.ringba.com/hc/en-us/articles/17993303467799-Most-Common-Tokens',
    'https://support.ringba.com/hc/en-us/articles/33636912201751-Call-Details-Report-Events-Reference',
    'https://www.ringba.com/support/webhooks',
  ],
  tokens: ['brackets'],
  mapping: {
    // snake_case: the pixel URL below; camelCase: the JSON webhook body below; `callid` is the
    // name of Ringba's own inbound webhook ("callid" = [callUUID]) that some operators reuse.
    call_id: { names: ['call_id', 'callId', 'inboundCallId', 'callid'] },
    event: {
      // hasConnected: the call-log column some operators post in their webhook body.
      names: ['event', 'eventName', 'hasConnected'],
      map: {
        true: 'completed',
        false: 'not_connected',
        incoming: 'incoming',
        connected: 'connected',
        answered: 'connected',
        completed: 'completed',
        converted: 'converted',
        payout: 'payout',
        // "Error: the call was marked as an error" and the report's own outcomes for a target
        // that never picked up (Call Details events: No Answer, Busy Call, Blocked Call,
        // Incomplete Call) all mean the caller never reached a buyer: never payable.
        error: 'not_connected',
        'no answer': 'not_connected',
        'no-answer': 'not_connected',
        noanswer: 'not_connected',
        busy: 'not_connected',
        blocked: 'not_connected',
        incomplete: 'not_connected',
        // The same events as the Call Details report's Events tab names them ("Busy Call",
        // "Blocked Call", "Incomplete Call", "Inbound Call"): an operator who copies the
        // report's word into a pixel's event sends it whole.
        'busy call': 'not_connected',
        'blocked call': 'not_connected',
        'incomplete call': 'not_connected',
        'inbound call': 'incoming',
        // "Recording: fired when the recording is available" (Pixels): it says nothing of the
        // outcome, so it ranks lowest; the lead keeps its status and gains the recording link.
        recording: 'incoming',
        // "Finalized" fires for every call however it ended (picked up or not): it cannot say
        // whether to pay, so it is not mapped (such a post is refused with its reason and kept
        // for replay); use the Completed and Error pixels instead.
      },
    },
    publisher: { names: ['publisher_id', 'publisherId'] },
    offer: { names: ['campaign_id', 'campaignId'] },
    caller: { names: ['caller', 'callerId', 'caller_id', 'CID', 'inboundPhoneNumber'] },
    tracking_number: { names: ['number_called', 'dialedNumber', 'number'] },
    // The connected length first: what a buffer judges (call-log names: connectedCallLengthInSeconds,
    // callConnectionLength; callLengthInSeconds counts the ringing too).
    duration: {
      names: [
        'duration',
        'connectedCallLengthInSeconds',
        'callConnectionLength',
        'callLengthInSeconds',
      ],
      format: 'seconds',
    },
    revenue: { names: ['revenue', 'conversionAmount'], format: 'dollars' },
    payout: { names: ['payout', 'conversionPayout', 'payoutAmount'], format: 'dollars' },
    recording_url: { names: ['recording_url', 'recordingUrl'] },
    state: { names: ['state', 'callerState'] },
    // The ZIP from the number pool first, then Instant Caller Profile's: the one Ringba could
    // not fill arrives as its token and counts as not sent.
    zip: { names: ['zip', 'zipCode', 'zip_icp'] },
    timestamp: { names: ['timestamp', 'callDt'], format: 'auto' },
  },
  secretParams: [],
  sendsPublisher: true,
  setup: [
    pixel('Incoming', 'incoming', 'incoming'),
    pixel('Connected (answered)', 'connected', 'connected'),
    pixel('Completed', 'completed', 'completed'),
    pixel('Converted', 'converted', 'converted'),
    pixel('Payout', 'payout', 'payout'),
    pixel('Error', 'error', 'not_connected'),
    {
      trigger: 'Completed (JSON webhook)',
      meaning: 'completed',
      method: 'POST',
      // The same pixel as a JSON POST; another event is another pixel with its own "event".
      body: 'json',
      json: {
        callId: '[Call:InboundCallId]',
        event: 'completed',
        publisherId: '[tag:Publisher:Id]',
        campaignId: '[tag:Campaign:Id]',
        callerId: '[tag:InboundNumber:Number]',
        callLengthInSeconds: '[tag:CallLength:Total]',
        conversionAmount: '[Call:ConversionAmount]',
        conversionPayout: '[Call:ConversionPayout]',
        callerState: '[tag:InboundNumber:State]',
        zipCode: '[tag:Geo:ZipCode]',
      },
      note: 'Pixels → Create Pixel → Advanced Options: method POST, Content-Type application/json, this body. Give this integration the same Ringba account id as your GET pixels.',
    },
  ],
  notes: [
    'Give every Ringba integration of one Ringba account the same account id: a pixel and a JSON webhook then report one lead, paid once.',
    'Attach Ringba publisher ids ([tag:Publisher:Id]) to your publishers and campaign ids to your offers.',
    'The Finalized trigger fires for unanswered calls too: use Completed and Error instead.',
  ],
};
