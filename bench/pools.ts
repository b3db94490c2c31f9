// The parameter pools of `npm run bench`: each request of a row draws its page, publisher, date
// range, sort or search term from a pool, so a row measures a screen used by many people, not
// one URL answered again and again. The draws come from a seeded generator (one per row, seeded
// by the row's name), so two runs on the same fill ask the same sequence of questions; the
// dry run that captures a row's SQL draws from the same generator. See docs/benchmark.md.

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed from a row's name (FNV-1a), so each row has its own sequence. */
export function seedOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** What one request draws from: the pools, through the row's own generator. */
export type Draw = {
  /** A whole number in [lo, hi]. */
  int(lo: number, hi: number): number;
  /** One of the values. */
  pick<T>(values: readonly T[]): T;
  /** `from=…&to=…` (whole days, UTC) spanning `days`, ending on one of the last `endWithin` days. */
  range(days: number, endWithin: number): string;
  /** A page in the row's deep band: the last twentieth up to page `deepPage` (≈1000 at 1M). */
  deepPage(): number;
  /** One of the big publishers (each ~10% of the leads in the bench fill). */
  bigPublisher(): string;
  /** One of the publishers of the first pages of the admin list (any size). */
  publisher(): string;
  /** One of the first offers of the admin list. */
  offer(): string;
  /** A day (YYYY-MM-DD, UTC) among the last `within` days. */
  day(within: number): string;
  /** A part of a real publisher's name, as typed in the search box. */
  searchTerm(): string;
};

export type Pools = {
  /** The last page of the admin leads list (25 a page). */
  lastPage: number;
  /** The deepest page of the deep band (page 1000 at 1M leads, the middle page of small fills). */
  deepPage: number;
  bigPublishers: string[];
  publishers: string[];
  offers: string[];
  searchTerms: string[];
};

const day = (d: Date) => d.toISOString().slice(0, 10);

export function drawFrom(pools: Pools, random: () => number, now = new Date()): Draw {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  return {
    int,
    pick,
    range(days, endWithin) {
      const end = new Date(now.getTime() - int(0, Math.max(0, endWithin - 1)) * 86_400_000);
      const start = new Date(end.getTime() - (days - 1) * 86_400_000);
      return `from=${day(start)}&to=${day(end)}`;
    },
    deepPage: () =>
      int(Math.max(2, pools.deepPage - Math.floor(pools.deepPage / 20)), pools.deepPage),
    bigPublisher: () => pick(pools.bigPublishers),
    publisher: () => pick(pools.publishers),
    offer: () => pick(pools.offers),
    day: (within) => day(new Date(now.getTime() - int(0, Math.max(0, within - 1)) * 86_400_000)),
    searchTerm: () => pick(pools.searchTerms),
  };
}

/**
 * Search terms from publishers' e-mail addresses: the part before the @ (at most 12 letters),
 * as someone types a publisher they know ("publisher-42" in the bench fill).
 */
export function searchTermsOf(emails: string[]): string[] {
  return [...new Set(emails.map((e) => e.toLowerCase().split('@')[0]!.slice(0, 12)))].filter(
    (t) => t.length >= 3,
  );
}
