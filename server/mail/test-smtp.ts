import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as a real SMTP server received it, with its MIME parts decoded. */
export type ReceivedMail = {
  envelopeFrom: string;
  envelopeTo: string[];
  headers: Map<string, string>;
  from: string;
  to: string;
  subject: string;
  text: string | undefined;
  html: string | undefined;
  /** The attached files (Content-Disposition: attachment), decoded. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
  raw: string;
};

export type TestSmtpServer = {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Recipients whose RCPT TO was seen, including rejected ones, in order. */
  rcptSeen: string[];
  /** The same, with the sending client's port (which process sends it). */
  rcptClients: { to: string; remotePort: number }[];
  /** Resolves once a message to this address has arrived (or rejects after timeoutMs). */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

/**
 * Starts a real SMTP server on a random local port for tests. Recipients starting with
 * `reject` are refused with 550 at RCPT TO; those starting with `slow` are accepted after
 * `slowMs` (to have a mail in flight).
 */
export async function startTestSmtpServer(opts: { slowMs?: number } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const rcptSeen: string[] = [];
  const rcptClients: { to: string; remotePort: number }[] = [];
  const waiters: { to: string; resolve: (m: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 1000,
    onRcptTo(address, session, callback) {
      rcptSeen.push(address.address);
      rcptClients.push({ to: address.address, remotePort: session.remotePort });
      if (address.address.startsWith('reject')) {
        const err = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = parseMessage(raw, session.envelope);
        const finish = () => {
          received.push(mail);
          for (const w of waiters.splice(0)) {
            if (mail.envelopeTo.includes(w.to)) w.resolve(mail);
            else waiters.push(w);
          }
          callback();
        };
        if (mail.envelopeTo.some((t) => t.startsWith('slow'))) {
          setTimeout(finish, opts.slowMs ?? 500);
        } else finish();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    rcptSeen,
    rcptClients,
    waitFor(to, timeoutMs = 8000) {
      const already = received.find((m) => m.envelopeTo.includes(to));
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          to,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Envelope = {
  mailFrom: false | { address: string };
  rcptTo: { address: string }[];
};

function splitHead(raw: string): { headers: Map<string, string>; body: string } {
  const cut = raw.search(/\r?\n\r?\n/);
  const head = cut < 0 ? raw : raw.slice(0, cut);
  const body = cut < 0 ? '' : raw.slice(cut).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  // Folded header lines continue with leading white space.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return { headers, body };
}

function param(value: string, name: string): string | undefined {
  const m = new RegExp(`${name}="?([^";]+)"?`, 'i').exec(value);
  return m?.[1];
}

function decodeQuotedPrintable(s: string): Buffer {
  const joined = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(bytes);
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '7bit').toLowerCase();
  let out: string;
  if (enc === 'base64') out = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (enc === 'quoted-printable') out = decodeQuotedPrintable(body).toString('utf8');
  else out = body;
  return out.replace(/\r\n/g, '\n');
}

/** Decodes RFC 2047 encoded words (=?utf-8?Q?…?= and =?utf-8?B?…?=) in a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_m, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

type Parts = { text?: string; html?: string; attachments: ReceivedMail['attachments'] };

function collectParts(headers: Map<string, string>, body: string, out: Parts) {
  const type = headers.get('content-type') ?? 'text/plain';
  if (type.toLowerCase().startsWith('multipart/')) {
    const boundary = param(type, 'boundary');
    if (!boundary) return;
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      const part = splitHead(section.replace(/^\r?\n/, '').replace(/\r?\n$/, ''));
      collectParts(part.headers, part.body, out);
    }
    return;
  }
  const disposition = headers.get('content-disposition') ?? '';
  if (disposition.toLowerCase().startsWith('attachment')) {
    const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
    out.attachments.push({
      filename: decodeWords(param(disposition, 'filename') ?? ''),
      contentType: type.split(';')[0]!.trim(),
      content:
        encoding === 'base64'
          ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
          : Buffer.from(body, 'utf8'),
    });
    return;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding'));
  if (type.toLowerCase().startsWith('text/html')) out.html ??= decoded;
  else if (type.toLowerCase().startsWith('text/plain')) out.text ??= decoded;
}

function parseMessage(raw: string, envelope: Envelope): ReceivedMail {
  const { headers, body } = splitHead(raw);
  const parts: Parts = { attachments: [] };
  collectParts(headers, body, parts);
  return {
    envelopeFrom: envelope.mailFrom ? envelope.mailFrom.address : '',
    envelopeTo: envelope.rcptTo.map((r) => r.address),
    headers,
    from: decodeWords(headers.get('from') ?? ''),
    to: decodeWords(headers.get('to') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    text: parts.text,
    html: parts.html,
    attachments: parts.attachments,
    raw,
  };
}
