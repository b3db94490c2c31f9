import { type CSSVariablesResolver, createTheme, type MantineTheme } from '@mantine/core';

// Shade 8 of blue keeps links and buttons at WCAG AA contrast (4.5:1) on white and gray.0.
// Every dialog's icon-only close button gets a name for screen readers (a dialog may name it
// more precisely).
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  // One page-title size in every area (PageHeader and the screens' own h1s): 28px, not 34px.
  headings: { sizes: { h1: { fontSize: '1.75rem', lineHeight: '1.3' } } },
  components: {
    // A plain object, not Modal.extend(): that would pull Modal's code into the first chunk.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

/** WCAG AA for normal-size text. */
export const AA_CONTRAST = 4.5;
// Aimed a little above AA, so rounding in a browser's colour maths never lands under it.
const TARGET_CONTRAST = 4.6;

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.slice(0, 6);
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance (WCAG 2). */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(parseHex(a)), luminance(parseHex(b))].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * `text`, darkened toward black in small steps until it reads at `TARGET_CONTRAST` on
 * `background`; `text` itself when it already does.
 */
export function darkenUntilReadable(text: string, background: string): string {
  const rgb = parseHex(text);
  for (let step = 0; step <= 50; step += 1) {
    const candidate = toHex(rgb.map((v) => v * (1 - step / 50)) as Rgb);
    if (contrastRatio(candidate, background) >= TARGET_CONTRAST) return candidate;
  }
  return '#000000';
}

/**
 * The `variant="light"` colours of every theme colour, light scheme. Mantine draws a light
 * button, badge or alert with shade 9 text on shade 1, and shade 2 under the pointer: blue's
 * hover measures 4.02:1, red's 3.76:1, green's and yellow's fail even at rest. The text is
 * darkened until it reads at AA on the hover shade (so also on the resting one, which is
 * lighter); the backgrounds stay Mantine's, so a hover still shows.
 */
export function lightVariantColors(t: MantineTheme): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(t.colors)) {
    const [rest, hover, text] = [shades[1], shades[2], shades[9]];
    if (!rest?.startsWith('#') || !hover?.startsWith('#') || !text?.startsWith('#')) continue;
    variables[`--mantine-color-${name}-light-color`] = darkenUntilReadable(text, hover);
  }
  return variables;
}

// Mantine's default dimmed (gray.6) and error (red.6) text fall below 4.5:1 on white.
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    ...lightVariantColors(t),
    '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057',
    '--mantine-color-error': t.colors.red[8] ?? '#e03131',
  },
  dark: {},
});
