import {
  type PostbackEvent,
  type PostbackToken,
  postbackTokens,
  TAG_TOKEN_PREFIX,
} from '../../../contract/outbound.ts';

/**
 * A publisher's postback template filled in (issue 30, item 1): `{token}` in the URL becomes its
 * URL-encoded value, in a POST body its JSON-escaped value (the body is JSON). `{tag:name}`
 * passes the tracker tag `name` when the operator marked it passable. Pure: no database.
 */

/** `{name}` or `{tag:name}`; JSON's own braces (`{"a":1}`) never match. */
const TOKEN = /\{([a-z0-9_]+|tag:[A-Za-z0-9_.-]{1,64})\}/g;

/** What a call gives its tokens. */
export type PostbackFacts = Record<PostbackToken, string> & { tags: Record<string, unknown> };

/** The tokens of a template that it may not use, as the sentence a 400 says; null when fine. */
export function unknownTokensOf(text: string, passableTags: readonly string[]): string | null {
  const bad: string[] = [];
  for (const [, name] of text.matchAll(TOKEN)) {
    if (!name) continue;
    if (name.startsWith(TAG_TOKEN_PREFIX)) {
      if (!passableTags.includes(name.slice(TAG_TOKEN_PREFIX.length))) bad.push(`{${name}}`);
    } else if (!(name in postbackTokens)) bad.push(`{${name}}`);
  }
  if (bad.length === 0) return null;
  return `Unknown token${bad.length > 1 ? 's' : ''} ${bad.join(', ')}: use ${Object.keys(
    postbackTokens,
  )
    .map((t) => `{${t}}`)
    .join(
      ', ',
    )}${passableTags.length ? `, or a passable tag as ${passableTags.map((t) => `{tag:${t}}`).join(', ')}` : ''}.`;
}

function tokenValue(name: string, facts: PostbackFacts, passableTags: readonly string[]): string {
  if (name.startsWith(TAG_TOKEN_PREFIX)) {
    const tag = name.slice(TAG_TOKEN_PREFIX.length);
    if (!passableTags.includes(tag)) return '';
    const v = facts.tags[tag];
    return v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  }
  return name in postbackTokens ? facts[name as PostbackToken] : `{${name}}`;
}

/** Fills a template in: the request the postback sends. */
export function renderPostback(
  template: { method: string; url: string; body: string | null },
  facts: PostbackFacts,
  passableTags: readonly string[],
): { method: string; url: string; body: string | null } {
  const url = template.url.replace(TOKEN, (_, name: string) =>
    encodeURIComponent(tokenValue(name, facts, passableTags)),
  );
  const body =
    template.method === 'POST' && template.body
      ? template.body.replace(TOKEN, (_, name: string) =>
          JSON.stringify(tokenValue(name, facts, passableTags)).slice(1, -1),
        )
      : null;
  return { method: template.method, url, body };
}

/** The last 4 digits of a phone number ('' without one). */
export const last4 = (phone: string | null) => (phone ?? '').replace(/\D/g, '').slice(-4);

/** A sample call for the Test button. */
export function sampleFacts(event: PostbackEvent, currency: string): PostbackFacts {
  return {
    call_id: '00000000-0000-7000-8000-000000000000',
    tracker_call_id: 'TEST-CALL-1',
    offer_id: '00000000-0000-4000-8000-000000000000',
    offer_name: 'Sample offer',
    payout: '12.50',
    currency,
    status: event === 'rejected' ? 'rejected' : 'approved',
    reason: event === 'rejected' ? 'Sample: call too short' : '',
    duration: '95',
    state: 'TX',
    caller_last4: '4567',
    timestamp: new Date().toISOString(),
    event,
    tags: { sub_id: 'sample-sub' },
  };
}
