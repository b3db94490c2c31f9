import { describe, expect, it } from 'vitest';
import { svgFile } from '../test/fixtures.ts';
import { checkSvg } from './svg-check.ts';

const svg = (body: string, attrs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg"${attrs}>${body}</svg>`;

describe('checkSvg', () => {
  it('accepts plain drawings, with comments, doctype, CDATA styles and links', () => {
    expect(checkSvg(svgFile.toString())).toBeNull();
    expect(
      checkSvg(
        '\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n' +
          '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">' +
          svg(
            '<style><![CDATA[ .a { fill: red } ]]></style><a href="https://example.com"><circle class="a" r="4" opacity="0.5" offset="1"/></a>',
          ),
      ),
    ).toBeNull();
  });

  it.each([
    ['a script element', svg('<script>alert(1)</script>')],
    ['an upper-case, namespaced script', svg('<svg:SCRIPT>alert(1)</svg:SCRIPT>')],
    ['an onload handler', svg('<rect/>', ' onload="alert(1)"')],
    ['a handler after a slash', '<svg/onload=alert(1)></svg>'],
    ['a handler on a child', svg('<image href="x.png" onerror="alert(1)"/>')],
    ['a javascript: link', svg('<a href="javascript:alert(1)"><rect/></a>')],
    ['an entity-encoded javascript: link', svg('<a href="jav&#x09;a&#115;cript&colon;alert(1)"/>')],
    ['javascript: inside CSS', svg('<style>@import url(javascript:alert(1))</style>')],
    [
      'an animation writing an href',
      svg('<a><set attributeName="href" to="javascript:alert(1)"/></a>'),
    ],
    ['an animation writing a handler', svg('<set attributeName="onmouseover" to="alert(1)"/>')],
    [
      'foreignObject',
      svg('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"/></foreignObject>'),
    ],
    ['an entity declaration', `<!DOCTYPE svg [<!ENTITY x "y">]>${svg('<text>&x;</text>')}`],
  ])('refuses %s', (_what, text) => {
    expect(checkSvg(text)).toBe('active_content');
  });

  it.each([
    ['HTML', '<html><body><svg></svg></body></html>'],
    ['plain text', 'just text'],
    ['an unclosed tag', '<svg xmlns="http://www.w3.org/2000/svg"'],
    ['an unclosed comment', '<!-- <svg></svg>'],
  ])('says %s is not an SVG', (_what, text) => {
    expect(checkSvg(text)).toBe('not_svg');
  });
});
