import type { ApiErrorBody } from '@contract/errors.ts';
import type { Endpoint, EndpointBody, EndpointQuery, EndpointResult } from './api-routes.ts';

/** An API answer that was not 2xx, typed from `{error:{code,message}}`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, string[]> | undefined;
  constructor(status: number, code: string, message: string, details?: Record<string, string[]>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

type TokenSource = () => Promise<string | null>;
let getAccessToken: TokenSource = async () => null;

/** The auth layer tells the client how to get the current access token (the one token source). */
export function setAccessTokenSource(source: TokenSource) {
  getAccessToken = source;
}

/** What a query string may carry; empty values are left out. */
type QueryValues = Record<string, string | number | boolean | null | undefined>;

const networkError = () =>
  new ApiError(0, 'network_error', 'Could not reach the server. Check your connection.');

/** The one error parser: an answer's status and body text as an ApiError. */
export function parseApiError(status: number, text: string): ApiError {
  let body: ApiErrorBody | null = null;
  try {
    body = text ? (JSON.parse(text) as ApiErrorBody) : null;
  } catch {
    /* not JSON */
  }
  const e = body?.error;
  return new ApiError(
    status,
    e?.code ?? 'http_error',
    e?.message ?? `The server answered ${status}.`,
    e?.details,
  );
}

/** `/api/v1/<path>?<query>` on this origin. */
export function apiUrl(path: string, query?: object): URL {
  const url = new URL(`/api/v1/${path}`, window.location.origin);
  for (const [k, v] of Object.entries((query ?? {}) as QueryValues)) {
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  }
  return url;
}

/** The bearer header of the current session (empty when signed out). */
export async function authHeaders(): Promise<Record<string, string>> {
  const token = await getAccessToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** A call's query, body and abort signal, typed by the endpoint. */
export type CallOptions<E extends Endpoint> = {
  query?: EndpointQuery<E>;
  body?: EndpointBody<E>;
  signal?: AbortSignal;
};

async function send(endpoint: Endpoint, query?: object, body?: unknown, signal?: AbortSignal) {
  const headers: Record<string, string> = { accept: 'application/json', ...(await authHeaders()) };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  try {
    return await fetch(apiUrl(endpoint.path, query), {
      method: endpoint.method,
      headers,
      body: payload,
      signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw networkError();
  }
}

/**
 * Calls one endpoint of `apiRoutes` (bearer token, JSON or FormData body, query string) and
 * returns its typed answer; a non-2xx answer throws ApiError with the server's sentence.
 */
export async function apiCall<E extends Endpoint>(
  endpoint: E,
  opts: CallOptions<E> = {},
): Promise<EndpointResult<E>> {
  const res = await send(endpoint, opts.query as object | undefined, opts.body, opts.signal);
  if (res.status === 204) return undefined as EndpointResult<E>;
  const text = await res.text();
  if (!res.ok) throw parseApiError(res.status, text);
  try {
    return (text ? JSON.parse(text) : null) as EndpointResult<E>;
  } catch {
    throw new ApiError(res.status, 'bad_response', 'The server sent an unreadable answer.');
  }
}

function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (utf8?.[1]) {
    try {
      return decodeURIComponent(utf8[1]);
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename="([^"]+)"/i.exec(disposition);
  return plain?.[1] ?? fallback;
}

/**
 * Downloads a protected file endpoint (e.g. a CSV export) with the bearer token: fetched as a
 * blob, then saved under the server's file name (or `fallbackName`).
 */
export async function apiDownload<E extends Endpoint>(
  endpoint: E,
  query: EndpointQuery<E>,
  fallbackName: string,
): Promise<void> {
  const res = await send(endpoint, query as object);
  if (!res.ok) throw parseApiError(res.status, await res.text());
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileNameFrom(res.headers.get('content-disposition'), fallbackName);
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the blob goes away.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * Sends a multipart upload with XMLHttpRequest rather than fetch: only XHR reports upload
 * progress, which a user sending a large recording needs to see. `onProgress` gets 0–100.
 */
export async function apiUpload<E extends Endpoint>(
  endpoint: E,
  form: FormData,
  onProgress?: (percent: number) => void,
): Promise<EndpointResult<E>> {
  const headers = await authHeaders();
  return new Promise<EndpointResult<E>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(endpoint.method, apiUrl(endpoint.path).href);
    xhr.setRequestHeader('accept', 'application/json');
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(parseApiError(xhr.status, xhr.responseText));
        return;
      }
      try {
        resolve((xhr.responseText ? JSON.parse(xhr.responseText) : null) as EndpointResult<E>);
      } catch {
        reject(new ApiError(xhr.status, 'bad_response', 'The server sent an unreadable answer.'));
      }
    };
    xhr.onerror = () => reject(networkError());
    xhr.send(form);
  });
}

/** The multipart body of a one-file upload (`file` is the field every such route reads). */
export function fileForm(file: File, field = 'file'): FormData {
  const form = new FormData();
  form.append(field, file, file.name);
  return form;
}
