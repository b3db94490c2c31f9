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

describe('area().preload', () => {
  it('starts the download of the screen at the address the app opened at, and only that one', () => {
    const { a, loads } = table();
    a.preload('/x');
    expect(loads.home).toHaveBeenCalledTimes(1);
    expect(loads.list).not.toHaveBeenCalled();
    expect(loads.item).not.toHaveBeenCalled();
  });

  it('matches a screen whose path has a parameter', () => {
    const { a, loads } = table();
    a.preload('/x/things/42');
    expect(loads.item).toHaveBeenCalledTimes(1);
    expect(loads.list).not.toHaveBeenCalled();
    expect(loads.home).not.toHaveBeenCalled();
  });

  it('downloads nothing for an address outside the area or unknown inside it', () => {
    const { a, loads } = table();
    a.preload('/y');
    a.preload('/x/nothing-here');
    a.preload('/');
    expect(loads.home).not.toHaveBeenCalled();
    expect(loads.list).not.toHaveBeenCalled();
    expect(loads.item).not.toHaveBeenCalled();
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
