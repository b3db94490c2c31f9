import { describe, expect, it } from 'vitest';
import { renderPostback, sampleFacts, unknownTokensOf } from './postback-template.ts';

const facts = {
  ...sampleFacts('approved', 'USD'),
  offer_name: 'Auto & Home "Plus"',
  reason: 'Too short / 30s',
  tags: { sub_id: 'a b&c', hidden: 'secret', n: 7 },
};

describe('postback templates', () => {
  it('puts each token URL-encoded into the URL', () => {
    const r = renderPostback(
      {
        method: 'GET',
        url: 'https://t.example/pb?cid={tracker_call_id}&o={offer_name}&p={payout}&r={reason}&s={tag:sub_id}&x={tag:hidden}',
        body: null,
      },
      facts,
      ['sub_id'],
    );
    expect(r.url).toBe(
      'https://t.example/pb?cid=TEST-CALL-1&o=Auto%20%26%20Home%20%22Plus%22&p=12.50&r=Too%20short%20%2F%2030s&s=a%20b%26c&x=',
    );
    expect(r.body).toBeNull();
  });

  it('JSON-escapes values in a POST body and leaves JSON braces alone', () => {
    const r = renderPostback(
      {
        method: 'POST',
        url: 'https://t.example/pb',
        body: '{"offer":"{offer_name}","payout":{payout},"n":"{tag:n}","last4":"{caller_last4}"}',
      },
      facts,
      ['n'],
    );
    expect(JSON.parse(r.body!)).toEqual({
      offer: 'Auto & Home "Plus"',
      payout: 12.5,
      n: '7',
      last4: '4567',
    });
  });

  it('names the tokens a template may not use, tags not marked passable among them', () => {
    expect(unknownTokensOf('https://x/?a={payout}&b={tag:sub_id}', ['sub_id'])).toBeNull();
    expect(unknownTokensOf('https://x/?a={payot}&b={tag:other}', ['sub_id'])).toMatch(
      /^Unknown tokens \{payot\}, \{tag:other\}: use \{call_id\}/,
    );
  });
});
