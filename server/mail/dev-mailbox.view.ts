import type { OutboxMail } from './dev-mailbox.service.ts';
import { escapeHtml } from './layout.ts';

const urlPattern = /https?:\/\/[^\s<>"'`]+/g;
/** Punctuation that ends a sentence rather than a URL. */
const trailing = /[.,;:!?)\]}]+$/;

/** Escapes plain text and turns every http(s) URL in it into a link that opens in a new tab. */
export function linkify(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(urlPattern)) {
    const start = m.index;
    const url = m[0].replace(trailing, '');
    out += escapeHtml(text.slice(last, start));
    out += `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(url)}</a>`;
    last = start + url.length;
  }
  return out + escapeHtml(text.slice(last));
}

function formatTime(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const statusColor: Record<OutboxMail['status'], string> = {
  pending: '#e67700',
  sent: '#2b8a3e',
  failed: '#c92a2a',
};

function mailCard(mail: OutboxMail): string {
  const id = escapeHtml(mail.id);
  const htmlUrl = `/dev/mail/messages/${id}/html`;
  return `<article id="mail-${id}" style="background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:16px 20px;margin:0 0 16px">
<h2 style="font-size:17px;margin:0 0 8px">${escapeHtml(mail.subject)}</h2>
<p style="margin:0 0 12px;color:#495057;font-size:14px">To <strong data-field="to">${escapeHtml(mail.to)}</strong> · <time datetime="${mail.createdAt.toISOString()}">${formatTime(mail.createdAt)}</time> · <span style="color:${statusColor[mail.status]}">${escapeHtml(mail.status)}</span></p>
${
  mail.attachments.length
    ? `<p data-field="attachments" style="margin:0 0 12px;font-size:14px">Attached: ${mail.attachments.map((a) => `<strong>${escapeHtml(a.filename)}</strong>`).join(', ')}</p>\n`
    : ''
}<pre data-field="text" style="white-space:pre-wrap;word-break:break-word;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace;background:#f8f9fa;border-radius:6px;padding:12px;margin:0 0 12px">${linkify(mail.text)}</pre>
<details><summary style="cursor:pointer">HTML body</summary>
<iframe title="HTML body of ${escapeHtml(mail.subject)}" src="${htmlUrl}" sandbox="allow-popups allow-popups-to-escape-sandbox" loading="lazy" style="width:100%;height:480px;border:1px solid #dee2e6;border-radius:6px;margin-top:8px;background:#fff"></iframe>
<p style="margin:8px 0 0"><a href="${htmlUrl}" target="_blank" rel="noopener">Open the HTML body on its own</a></p>
</details>
</article>`;
}

/** The dev mailbox page: every outbox mail, newest first, with clickable links; no scripts. */
export function renderMailboxPage(opts: { mails: OutboxMail[]; to: string | undefined }): string {
  const { mails, to } = opts;
  const query = to ? escapeHtml(`?to=${encodeURIComponent(to)}`) : '';
  const filter = to ? ` to <strong>${escapeHtml(to)}</strong>` : '';
  const list = mails.length
    ? mails.map(mailCard).join('\n')
    : `<p style="color:#868e96">No mails${filter} yet.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev mailbox</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,Arial,sans-serif;background:#f1f3f5;color:#212529;margin:0;padding:24px">
<main style="max-width:900px;margin:0 auto">
<h1 style="font-size:24px;margin:0 0 4px">Dev mailbox</h1>
<p style="margin:0 0 16px;color:#495057">Mails the portal would send; SMTP is not configured, so nothing leaves this machine. ${mails.length} shown${filter}, newest first. <a href="/dev/mail${query}">Refresh</a> · <a href="/dev/mail/messages${query}">JSON</a></p>
<form method="get" action="/dev/mail" style="margin:0 0 20px;display:flex;gap:8px;align-items:center">
<label for="to">Recipient</label>
<input id="to" name="to" type="email" value="${escapeHtml(to ?? '')}" placeholder="someone@example.com" style="padding:6px 8px;border:1px solid #ced4da;border-radius:4px;min-width:260px">
<button type="submit" style="padding:6px 12px">Filter</button>${to ? ' <a href="/dev/mail">Show all</a>' : ''}
</form>
${list}
</main></body></html>`;
}
