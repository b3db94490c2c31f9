import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { AA_CONTRAST, contrastRatio, cssVariablesResolver, theme } from './theme.ts';

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const light = cssVariablesResolver(resolved).light;

describe('theme: variant="light" colours', () => {
  it('reads at AA on the resting and on the hover background, for every theme colour', () => {
    const problems: string[] = [];
    for (const [name, shades] of Object.entries(resolved.colors)) {
      const text = light[`--mantine-color-${name}-light-color`];
      if (!text) {
        problems.push(`${name}: no light-color`);
        continue;
      }
      // Mantine's light variant: shade 1 at rest, shade 2 under the pointer.
      for (const [state, background] of [
        ['rest', shades[1]],
        ['hover', shades[2]],
      ] as const) {
        const ratio = contrastRatio(text, background);
        if (ratio < AA_CONTRAST) problems.push(`${name} ${state}: ${ratio.toFixed(2)}:1`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("blue's hover was under AA with Mantine's text (shade 9) and is not with the theme's", () => {
    const blue = resolved.colors.blue;
    expect(contrastRatio(blue[9], blue[2])).toBeLessThan(AA_CONTRAST);
    expect(
      contrastRatio(light['--mantine-color-blue-light-color']!, blue[2]),
    ).toBeGreaterThanOrEqual(AA_CONTRAST);
  });

  it('leaves a text colour that already reads at AA as it is (gray)', () => {
    expect(light['--mantine-color-gray-light-color']).toBe(resolved.colors.gray[9]);
  });
});
