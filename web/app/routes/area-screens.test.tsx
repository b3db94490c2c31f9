import { describe, expect, it, vi } from 'vitest';
import { area, home, screen } from './area-screens.tsx';

const Page = () => null;

function table() {
  const loads = {
    home: vi.fn(async () => ({ HomePage: Page })),
    list: vi.fn(async () => ({ ListPage: Page })),
    item: vi.fn(async () => ({ ItemPage: Page })),
  };
  const a = area('x', [
    home('/x', 'HomePage', loads.home),
    screen('/x/things', 'ListPage', loads.list),
    screen('/x/things/:id', 'ItemPage', loads.item),
  ]);
  return { a, loads };
}

/** Only `which` of the table's screens started downloading, once (none when `which` is null). */
function expectOnlyLoaded(
  loads: ReturnType<typeof table>['loads'],
  which: keyof typeof loads | null,
) {
  for (const [name, load] of Object.entries(loads)) {
    if (name === which) expect(load).toHaveBeenCalledTimes(1);
    else expect(load).not.toHaveBeenCalled();
  }
}

describe('area().preload', () => {
  it('starts the download of the screen at the address the app opened at, and only that one', () => {
    const { a, loads } = table();
    a.preload('/x');
    expectOnlyLoaded(loads, 'home');
  });

  it('matches a screen whose path has a parameter', () => {
    const { a, loads } = table();
    a.preload('/x/things/42');
    expectOnlyLoaded(loads, 'item');
  });

  it('downloads nothing for an address outside the area or unknown inside it', () => {
    const { a, loads } = table();
    a.preload('/y');
    a.preload('/x/nothing-here');
    a.preload('/');
    expectOnlyLoaded(loads, null);
  });

  it('keeps a failed download quiet (the screen reports it when it renders)', async () => {
    const failing = vi.fn(() => Promise.reject(new Error('chunk gone')));
    const a = area('x', [home('/x', 'HomePage', failing)]);
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    a.preload('/x');
    await new Promise((r) => setTimeout(r, 10));
    process.off('unhandledRejection', unhandled);
    expect(failing).toHaveBeenCalledTimes(1);
    expect(unhandled).not.toHaveBeenCalled();
  });
});
