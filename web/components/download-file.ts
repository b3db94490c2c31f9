import { ApiError } from '../lib/api-client.ts';
import { authClient } from '../lib/auth.tsx';

type Query = Record<string, string | number | boolean | null | undefined>;

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
 * Shared: downloads a protected /api/v1 file (e.g. a CSV export) with the bearer token: fetched
 * as a blob, then saved under the server's file name. Throws ApiError with the server's message.
 */
export async function downloadApiFile(path: string, query: Query, fallbackName: string) {
  const url = new URL(`/api/v1/${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  }
  const { data } = await authClient.getSession();
  const headers: Record<string, string> = {};
  if (data.session?.access_token) headers.authorization = `Bearer ${data.session.access_token}`;
  let res: Response;
  try {
    res = await fetch(url, { headers });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection.');
  }
  if (!res.ok) {
    let code = 'http_error';
    let message = `The server answered ${res.status}.`;
    try {
      const body = (await res.json()) as { error?: { code?: string; message?: string } };
      code = body.error?.code ?? code;
      message = body.error?.message ?? message;
    } catch {
      /* not JSON */
    }
    throw new ApiError(res.status, code, message);
  }
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
