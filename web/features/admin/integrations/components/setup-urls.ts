import { KEY_PARAM, type TokenSyntax } from '@contract/ingest-mapping.ts';
import type { SetupStep } from '@contract/tracker-presets.ts';

/** The endpoint trackers post to, as seen from this browser. */
export const ingestUrl = () => `${window.location.origin}/api/v1/ingest/calls`;

/** What stands for the key where it is not known any more (it is shown once, at creation). */
export const KEY_PLACEHOLDER = 'YOUR_KEY';

/** A token of each syntax, found anywhere inside a value (`+[Call:CallerId]`). */
const tokenParts: Record<TokenSyntax, string> = {
  brackets: String.raw`\[[^[\]]+\]`,
  double_braces: String.raw`\{\{[^{}]+\}\}`,
  percent: '%[A-Za-z0-9_.:-]+%',
  braces: String.raw`\{[^{}]+\}`,
};
// Double braces before single ones, so `{{zip}}` is one token, not `{` + `{zip}` + `}`.
const order: readonly TokenSyntax[] = ['brackets', 'double_braces', 'percent', 'braces'];

/**
 * A query value as the tracker needs it typed: its own text URL-encoded, its tokens left as
 * they are, since the tracker looks for them literally and replaces them before it calls us
 * (`[tag:InboundNumber:Number]` stays readable; a space or `&` around it is encoded).
 */
export function encodeKeepingTokens(value: string, syntaxes: readonly TokenSyntax[]): string {
  const parts = order.filter((s) => syntaxes.includes(s)).map((s) => tokenParts[s]);
  if (parts.length === 0) return encodeURIComponent(value);
  const re = new RegExp(parts.join('|'), 'g');
  let out = '';
  let last = 0;
  for (const m of value.matchAll(re)) {
    out += encodeURIComponent(value.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  return out + encodeURIComponent(value.slice(last));
}

/**
 * The URL to paste into the tracker for one setup step: our endpoint, the key (or
 * `YOUR_KEY`), then the step's parameters with the tracker's tokens.
 */
export function stepUrl(
  step: Pick<SetupStep, 'query'>,
  key: string | null,
  syntaxes: readonly TokenSyntax[],
): string {
  const keyPart = `${KEY_PARAM}=${key ? encodeURIComponent(key) : KEY_PLACEHOLDER}`;
  const params = Object.entries(step.query ?? {}).map(
    ([name, value]) => `${encodeURIComponent(name)}=${encodeKeepingTokens(value, syntaxes)}`,
  );
  return `${ingestUrl()}?${[keyPart, ...params].join('&')}`;
}

/** A webhook's JSON body template, as the tracker's body editor takes it. */
export const jsonTemplate = (json: Record<string, string>): string => JSON.stringify(json, null, 2);

/** The Content-Type a step's POST carries. */
export function contentTypeOf(step: Pick<SetupStep, 'method' | 'body' | 'json'>): string | null {
  if (step.method !== 'POST') return null;
  if (step.body === 'form') return 'application/x-www-form-urlencoded';
  return 'application/json';
}
