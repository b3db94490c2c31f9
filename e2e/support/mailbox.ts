/** One message of the dev mailbox (GET /dev/mail/messages), newest first. */
export type DevMail = {
  id: string | number;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
};

/** Reads the dev mailbox, optionally only the mail sent to `to`. */
export async function readMailbox(baseUrl: string, to?: string): Promise<DevMail[]> {
  const url = new URL('/dev/mail/messages', baseUrl);
  if (to) url.searchParams.set('to', to);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  const all = (await res.json()) as DevMail[];
  // Filter here too, in case the server ignores ?to=.
  return to ? all.filter((m) => m.to.toLowerCase().includes(to.toLowerCase())) : all;
}

/** Waits for a mail to `to` whose subject matches, and returns the newest such mail. */
export async function waitForMail(
  baseUrl: string,
  to: string,
  subject?: RegExp,
  timeoutMs = 20_000,
): Promise<DevMail> {
  const deadline = Date.now() + timeoutMs;
  let seen: DevMail[] = [];
  while (Date.now() < deadline) {
    seen = await readMailbox(baseUrl, to);
    const hit = seen.find((m) => !subject || subject.test(m.subject));
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(
    `No mail to ${to}${subject ? ` matching ${subject}` : ''} within ${timeoutMs} ms; saw: ${JSON.stringify(
      seen.map((m) => m.subject),
    )}`,
  );
}

/** The first link in a mail that contains `part` (e.g. '/auth/v1/verify'), HTML entities decoded. */
export function findLink(mail: DevMail, part: string): string {
  const candidates = [
    ...(mail.text.match(/https?:\/\/[^\s"'<>)\]]+/g) ?? []),
    ...[...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? ''),
  ].map((u) => u.replace(/&amp;/g, '&'));
  const link = candidates.find((u) => u.includes(part));
  if (!link) throw new Error(`No link containing ${part} in mail "${mail.subject}"`);
  return link;
}
