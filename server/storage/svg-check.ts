/** Why an SVG was refused; null when it is a plain, script-free image. */
export type SvgProblem = 'not_svg' | 'active_content';

// Elements that run script, embed other documents or define handlers.
const FORBIDDEN_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'iframe',
  'embed',
  'object',
  'handler',
  'listener',
]);

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  colon: ':',
  tab: '\t',
  newline: '\n',
  sol: '/',
  lpar: '(',
  rpar: ')',
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (whole, body: string) => {
    const lower = body.toLowerCase();
    if (lower.startsWith('#x')) return safeCodePoint(Number.parseInt(lower.slice(2), 16), whole);
    if (lower.startsWith('#')) return safeCodePoint(Number.parseInt(lower.slice(1), 10), whole);
    return NAMED_ENTITIES[lower] ?? whole;
  });
}

function safeCodePoint(n: number, fallback: string): string {
  return Number.isFinite(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : fallback;
}

/** Lower-case text with entities decoded and all whitespace/control characters removed. */
function squash(s: string): string {
  let out = '';
  for (const ch of decodeEntities(s)) {
    const c = ch.codePointAt(0)!;
    if (c > 0x20 && c !== 0x7f && !/\s/.test(ch)) out += ch;
  }
  return out.toLowerCase();
}

const SCRIPT_URL = /(?:java|vb)script:|data:text\/html/;

/** The local part of an XML name, lower case: 'svg:script' → 'script'. */
function localName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1).toLowerCase();
}

/**
 * Checks SVG text the way a browser would read it: the root element must be <svg>, and nothing
 * may run script (script/foreignObject elements, on* handlers, javascript: URLs, entities).
 */
export function checkSvg(text: string): SvgProblem | null {
  const src = text.replace(/^\uFEFF/, '');
  if (src.includes('\u0000')) return 'not_svg';
  // A URL that runs script, however it is spelled, anywhere in the file (attributes, CSS, CDATA).
  if (SCRIPT_URL.test(squash(src))) return 'active_content';

  let root: string | null = null;
  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    if (lt === -1) break;
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt + 4);
      if (end === -1) return 'not_svg';
      i = end + 3;
      continue;
    }
    if (src.startsWith('<![CDATA[', lt)) {
      const end = src.indexOf(']]>', lt + 9);
      if (end === -1) return 'not_svg';
      i = end + 3;
      continue;
    }
    if (src.startsWith('<?', lt)) {
      const end = src.indexOf('?>', lt + 2);
      if (end === -1) return 'not_svg';
      i = end + 2;
      continue;
    }
    if (src.startsWith('<!', lt)) {
      // DOCTYPE: an internal subset can declare entities (expansion attacks, hidden markup).
      const end = src.indexOf('>', lt + 2);
      if (end === -1) return 'not_svg';
      const decl = src.slice(lt, end + 1);
      if (decl.includes('[') || /<!entity/i.test(decl)) return 'active_content';
      if (!/^<!doctype\s/i.test(decl)) return 'not_svg';
      i = end + 1;
      continue;
    }
    // A start or end tag: scan to the '>' that is not inside a quoted value.
    let j = lt + 1;
    let quote: string | null = null;
    for (; j < src.length; j++) {
      const c = src[j];
      if (quote) {
        if (c === quote) quote = null;
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === '>') {
        break;
      }
    }
    if (j >= src.length) return 'not_svg';
    const tag = src.slice(lt + 1, j);
    i = j + 1;
    if (tag.startsWith('/')) continue;
    const m = /^([A-Za-z_][\w:.-]*)([\s\S]*)$/.exec(tag);
    if (!m) return 'not_svg';
    const name = localName(m[1]!);
    if (root === null) {
      if (name !== 'svg') return 'not_svg';
      root = name;
    }
    if (FORBIDDEN_ELEMENTS.has(name)) return 'active_content';
    const attrs = m[2]!;
    const attrRe = /([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;
    for (let a = attrRe.exec(attrs); a !== null; a = attrRe.exec(attrs)) {
      const attrName = localName(a[1]!);
      if (attrName.startsWith('on')) return 'active_content';
      const raw = a[2] ?? '';
      const value = squash(raw.replace(/^["']|["']$/g, ''));
      if (SCRIPT_URL.test(value)) return 'active_content';
      // <set>/<animate> could otherwise write an event handler at run time.
      if (attrName === 'attributename' && value.startsWith('on')) return 'active_content';
    }
  }
  return root === null ? 'not_svg' : null;
}
