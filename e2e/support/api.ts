/** Calls to the running server's HTTP API, for seeding and checks the browser does not do. */
import { findLink, waitForMail } from './mailbox.ts';

/** Headers every /auth/v1 call sends (supabase-js sends the same). */
export const authHeaders = {
  'content-type': 'application/json',
  apikey: 'public-anon-key',
  'x-supabase-api-version': '2024-01-01',
};

/** Signs in with e-mail and password (/auth/v1/token) and returns the access token. */
export async function passwordToken(
  baseUrl: string,
  email: string,
  password: string,
): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: authHeaders,
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * Calls /api/v1/<path> with a bearer token; a FormData body goes as multipart, anything else
 * as JSON. Returns the JSON answer (null when empty) and throws with the answer on non-2xx.
 */
export async function callApi<T>(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${baseUrl}/api/v1/${path.replace(/^\//, '')}`, {
    method,
    headers,
    body: payload,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** The sign-up form's publisher details; tests override what they show on screen. */
export type PublisherDetails = {
  full_legal_name: string;
  business_legal_name: string;
  address: string;
  phone_number: string;
  whatsapp_number: string;
  ms_teams_id: string;
};

/** Signs a publisher up through /auth/v1 directly (publishers need no e-mail confirmation). */
export async function signUpPublisherViaApi(
  baseUrl: string,
  email: string,
  password: string,
  details: Partial<PublisherDetails> = {},
) {
  const res = await fetch(`${baseUrl}/auth/v1/signup`, {
    method: 'POST',
    headers: authHeaders,
    body: JSON.stringify({
      email,
      password,
      data: {
        full_legal_name: 'Api Publisher',
        business_legal_name: 'Api Publishing LLC',
        address: '1 Test Street',
        phone_number: '+1 555 0100',
        whatsapp_number: '+1 555 0101',
        ms_teams_id: 'api.publisher',
        ...details,
      },
    }),
  });
  if (!res.ok) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
}

/** The buyer sign-up form's details. */
export type BuyerDetails = { full_name: string; company_name?: string };

/** Signs a buyer up through /auth/v1 directly (not confirmed: a buyer cannot sign in yet). */
export async function signUpBuyerViaApi(
  baseUrl: string,
  email: string,
  password: string,
  details: BuyerDetails,
) {
  const res = await fetch(`${baseUrl}/auth/v1/signup`, {
    method: 'POST',
    headers: authHeaders,
    body: JSON.stringify({ email, password, data: { ...details, role: 'buyer' } }),
  });
  if (!res.ok) throw new Error(`buyer signup answered ${res.status}: ${await res.text()}`);
}

/** A buyer signed up through /auth/v1 who followed the link of the confirmation mail. */
export async function confirmedBuyerViaApi(
  baseUrl: string,
  email: string,
  password: string,
  details: BuyerDetails,
) {
  await signUpBuyerViaApi(baseUrl, email, password, details);
  const mail = await waitForMail(baseUrl, email, /confirm/i);
  const res = await fetch(findLink(mail, '/auth/v1/verify'), { redirect: 'manual' });
  if (res.status >= 400) throw new Error(`the confirmation link answered ${res.status}`);
}
