/** Escapes text for HTML bodies. */
export function escapeHtml(s: string): string {
  return s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export type MailBrand = { companyName: string; supportEmail: string };

/**
 * One look for every mail: a heading, paragraphs, an optional button link, and a footer with
 * the company name and support e-mail. Returns the HTML and the plain-text alternative.
 */
export function renderMail(
  brand: MailBrand,
  content: { heading: string; paragraphs: string[]; action?: { label: string; url: string } },
): { html: string; text: string } {
  const p = content.paragraphs
    .map((x) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(x)}</p>`)
    .join('');
  const button = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#1c7ed6;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(content.action.label)}</a></p><p style="font-size:12px;color:#666;word-break:break-all">Or open this link: <a href="${escapeHtml(content.action.url)}">${escapeHtml(content.action.url)}</a></p>`
    : '';
  const footer = `${escapeHtml(brand.companyName)} · Questions? Write to <a href="mailto:${escapeHtml(brand.supportEmail)}">${escapeHtml(brand.supportEmail)}</a>`;
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222;background:#f6f7f9;padding:24px"><div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:32px"><h1 style="font-size:20px;margin:0 0 20px">${escapeHtml(content.heading)}</h1>${p}${button}<hr style="border:none;border-top:1px solid #eee;margin:24px 0"><p style="font-size:12px;color:#666;margin:0">${footer}</p></div></body></html>`;
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((x) => [x, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    '--',
    `${brand.companyName}. Questions? Write to ${brand.supportEmail}`,
  ].join('\n');
  return { html, text };
}
