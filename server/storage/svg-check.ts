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

// Markup that holds no elements, skipped whole: comments, CDATA sections, processing instructions.
const SKIPPED_SPANS: [open: string, close: string][] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
];

/** The local part of an XML name, lower case: 'svg:script' → 'script'. */
function localName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1).toLowerCase();
}

/** Where the tag opened at `lt` ends: its '>' that is not inside a quoted value (or the end). */
function tagEnd(src: string, lt: number): number {
  let quote: string | null = null;
  for (let j = lt + 1; j < src.length; j++) {
    const c = src[j];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return j;
    }
  }
  return src.length;
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
    const span = SKIPPED_SPANS.find(([open]) => src.startsWith(open, lt));
    if (span) {
      const [open, close] = span;
      const end = src.indexOf(close, lt + open.length);
      if (end === -1) return 'not_svg';
      i = end + close.length;
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
    // A start or end tag.
    const j = tagEnd(src, lt);
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

// ---------------------------------------------------------------------------------------------
// Sanitizing (issue 11): an uploaded SVG is rebuilt from an allow-list of static-drawing
// elements and attributes; anything else is dropped. References to anything outside the file
// (style sheets, images or fonts on other servers, SVG documents inside data: URLs) refuse it.

export type SvgSanitized = { ok: true; svg: string } | { ok: false; reason: string };

const ELEMENTS = new Set(
  `svg g defs symbol use title desc path rect circle ellipse line polyline polygon text tspan
  textpath lineargradient radialgradient stop clippath mask pattern marker image style switch
  filter feblend fecolormatrix fecomponenttransfer fecomposite feconvolvematrix
  fediffuselighting fedisplacementmap fedistantlight fedropshadow feflood fefunca fefuncb
  fefuncg fefuncr fegaussianblur femerge femergenode femorphology feoffset fepointlight
  fespecularlighting fespotlight fetile feturbulence`.split(/\s+/),
);
// Elements whose tag goes but whose children stay (a link around a drawing).
const UNWRAPPED = new Set(['a']);

const ATTRIBUTES = new Set(
  `id class style lang xml:lang xml:space width height x y x1 y1 x2 y2 cx cy r rx ry fx fy fr d
  points viewbox preserveaspectratio transform fill fill-opacity fill-rule stroke stroke-width
  stroke-opacity stroke-linecap stroke-linejoin stroke-miterlimit stroke-dasharray
  stroke-dashoffset opacity color display visibility overflow clip clip-path clip-rule mask
  filter font-family font-size font-style font-weight font-variant font-stretch text-anchor
  dominant-baseline alignment-baseline baseline-shift letter-spacing word-spacing
  text-decoration writing-mode direction unicode-bidi text-rendering shape-rendering
  image-rendering color-rendering color-interpolation color-interpolation-filters
  vector-effect paint-order marker-start marker-mid marker-end markerwidth markerheight
  markerunits refx refy orient offset stop-color stop-opacity gradientunits
  gradienttransform spreadmethod patternunits patterncontentunits patterntransform
  clippathunits maskunits maskcontentunits filterunits primitiveunits in in2 result mode
  type values operator k1 k2 k3 k4 stddeviation dx dy flood-color flood-opacity
  lighting-color radius scale xchannelselector ychannelselector basefrequency numoctaves seed
  stitchtiles surfacescale diffuseconstant specularconstant specularexponent kernelmatrix
  kernelunitlength order divisor bias targetx targety edgemode preservealpha azimuth
  elevation pointsatx pointsaty pointsatz limitingconeangle z tablevalues slope intercept
  amplitude exponent textlength lengthadjust rotate startoffset method spacing side
  pathlength version href xlink:href xmlns xmlns:xlink media`.split(/\s+/),
);

const SAFE_DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]*$/i;

const escapeText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/** Why a CSS text (a style attribute or a <style> element) reaches outside the file; or null. */
function cssProblem(css: string): string | null {
  const flat = squash(css);
  // CSS escapes (@\69mport, u\72l) would hide everything below from these checks.
  if (flat.includes('\\')) return 'uses escaped CSS';
  if (flat.includes('@import')) return 'imports a style sheet (@import)';
  if (/expression\(|behavior:|-moz-binding/.test(flat)) return 'contains CSS that runs code';
  for (const m of flat.matchAll(/url\(([^)]*)\)/g)) {
    const target = m[1]!.replace(/^["']|["']$/g, '');
    if (!target.startsWith('#'))
      return `loads a resource from outside the file (${target.slice(0, 80)})`;
  }
  return null;
}

type Attr = { name: string; value: string };

function parseAttributes(raw: string): Attr[] {
  const out: Attr[] = [];
  const attrRe = /([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;
  for (let a = attrRe.exec(raw); a !== null; a = attrRe.exec(raw)) {
    const value = (a[2] ?? '').replace(/^"([\s\S]*)"$|^'([\s\S]*)'$/, '$1$2');
    out.push({ name: a[1]!, value: decodeEntities(value) });
  }
  return out;
}

/** The attributes kept on an element, or a reason to refuse the whole file. */
function cleanAttributes(element: string, attrs: Attr[]): Attr[] | string {
  const kept: Attr[] = [];
  for (const { name, value } of attrs) {
    const lower = name.toLowerCase();
    if (!ATTRIBUTES.has(lower)) continue;
    if (lower === 'href' || lower === 'xlink:href') {
      const v = value.trim();
      if (v.startsWith('#')) {
        kept.push({ name: 'href', value: v });
        continue;
      }
      if (element === 'image' && SAFE_DATA_IMAGE.test(v)) {
        kept.push({ name: 'href', value: v.replace(/\s+/g, '') });
        continue;
      }
      if (/^data:/i.test(v)) {
        return `embeds another document in <${element}> (${v.slice(0, 40)}…); only PNG, JPG, GIF or WebP images may be embedded`;
      }
      return `links to a resource outside the file in <${element}> (${v.slice(0, 80)})`;
    }
    if (lower === 'xmlns' || lower === 'xmlns:xlink') continue; // set again on the root
    const css = cssProblem(value);
    if (css) return `${css} in <${element} ${lower}>`;
    kept.push({ name: lower === 'xml:space' || lower === 'xml:lang' ? lower : name, value });
  }
  return kept;
}

/**
 * Rebuilds an SVG from the allow-list: scripts and handlers refuse it (see checkSvg), so do
 * references outside the file (xml-stylesheet, external href or url(), @import, a data: SVG
 * in <use>); unknown elements (with their content), unknown attributes, comments, processing
 * instructions and the doctype are dropped. The answer is the clean SVG text or the reason.
 */
export function sanitizeSvg(text: string): SvgSanitized {
  const problem = checkSvg(text);
  if (problem === 'not_svg') return { ok: false, reason: 'is not a valid SVG image' };
  if (problem === 'active_content') {
    return { ok: false, reason: 'contains scripts, event handlers or links to scripts' };
  }
  const src = text.replace(/^\uFEFF/, '');
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n';
  // Open elements: their name as written out, or null for one being dropped or unwrapped.
  const stack: { name: string | null; dropped: boolean }[] = [];
  const dropping = () => stack.some((e) => e.dropped);
  let inStyle = false;
  let done = false;
  let i = 0;
  const emitText = (t: string) => {
    if (stack.length === 0 || dropping()) return;
    if (inStyle) {
      const css = cssProblem(t);
      if (css) throw new SvgRefusal(`${css} in <style>`);
    }
    out += escapeText(t);
  };
  try {
    while (i < src.length && !done) {
      const lt = src.indexOf('<', i);
      emitText(decodeEntities(src.slice(i, lt === -1 ? src.length : lt)));
      if (lt === -1) break;
      if (src.startsWith('<!--', lt)) {
        i = src.indexOf('-->', lt + 4) + 3;
        continue;
      }
      if (src.startsWith('<![CDATA[', lt)) {
        const end = src.indexOf(']]>', lt + 9);
        emitText(src.slice(lt + 9, end));
        i = end + 3;
        continue;
      }
      if (src.startsWith('<?', lt)) {
        const end = src.indexOf('?>', lt + 2);
        if (/^<\?xml-stylesheet\b/i.test(src.slice(lt, end))) {
          throw new SvgRefusal('links an external style sheet (xml-stylesheet)');
        }
        i = end + 2;
        continue;
      }
      if (src.startsWith('<!', lt)) {
        i = src.indexOf('>', lt + 2) + 1;
        continue;
      }
      const j = tagEnd(src, lt);
      const tag = src.slice(lt + 1, j);
      i = j + 1;
      if (tag.startsWith('/')) {
        const open = stack.pop();
        if (open?.name) out += `</${open.name}>`;
        if (open?.name?.toLowerCase() === 'style') inStyle = false;
        if (stack.length === 0) done = true;
        continue;
      }
      const m = /^([A-Za-z_][\w:.-]*)([\s\S]*?)(\/?)\s*$/.exec(tag)!;
      const qualified = m[1]!;
      const local = qualified.slice(qualified.lastIndexOf(':') + 1);
      const lower = local.toLowerCase();
      const selfClosing = m[3] === '/';
      const keep = !dropping() && ELEMENTS.has(lower);
      const entry = {
        name: keep ? local : null,
        dropped: !keep && !UNWRAPPED.has(lower),
      };
      if (keep) {
        const attrs = cleanAttributes(lower, parseAttributes(m[2]!));
        if (typeof attrs === 'string') throw new SvgRefusal(attrs);
        if (stack.length === 0) {
          attrs.unshift({ name: 'xmlns', value: 'http://www.w3.org/2000/svg' });
        }
        out += `<${local}${attrs.map((a) => ` ${a.name}="${escapeAttr(a.value)}"`).join('')}`;
        out += selfClosing ? '/>' : '>';
      }
      if (selfClosing) {
        if (stack.length === 0) done = true;
        continue;
      }
      stack.push(entry);
      if (keep && lower === 'style') inStyle = true;
    }
  } catch (err) {
    if (err instanceof SvgRefusal) return { ok: false, reason: err.message };
    throw err;
  }
  if (!done) return { ok: false, reason: 'is not a valid SVG image' };
  return { ok: true, svg: `${out}\n` };
}

class SvgRefusal extends Error {}
