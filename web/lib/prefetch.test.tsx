import {
  QueryClient,
  QueryClientProvider,
  QueryObserver,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { prefetchFirst, unlessPrefetched } from './prefetch.ts';

/** A query counting its requests, read the way the screens' hooks read it. */
function counted(key: string) {
  const calls = { n: 0 };
  const options = queryOptions({
    queryKey: [key],
    queryFn: async () => ++calls.n,
    refetchOnMount: unlessPrefetched,
  });
  return { calls, options };
}

/** Mounts the query as a screen would (an observer), waits for what it asks, unmounts. */
async function mount(client: QueryClient, options: ReturnType<typeof counted>['options']) {
  const observer = new QueryObserver(client, options);
  const off = observer.subscribe(() => {});
  await new Promise((r) => setTimeout(r, 10));
  off();
}

type Step = 'prefetchFirst' | 'prefetch' | 'mount';

/** Runs the steps in order on a new client and query; the count of requests after each step. */
async function countsAfter(key: string, steps: Step[]): Promise<number[]> {
  const client = new QueryClient();
  const { calls, options } = counted(key);
  const counts: number[] = [];
  for (const step of steps) {
    if (step === 'mount') await mount(client, options);
    else if (step === 'prefetch') await client.prefetchQuery(options);
    else await prefetchFirst(client, options);
    counts.push(calls.n);
  }
  return counts;
}

describe('the first load’s prefetch', () => {
  it('is not asked again by the screen that mounts it first; later mounts read it again', async () => {
    expect(await countsAfter('stats', ['prefetchFirst', 'mount', 'mount'])).toEqual([1, 1, 2]);
  });

  it('a plain prefetch is asked again at mount (what prefetchFirst saves)', async () => {
    expect(await countsAfter('plain', ['prefetch', 'mount'])).toEqual([1, 2]);
  });
});

describe('a late prefetch', () => {
  it('asks nothing when a screen already read the query', async () => {
    expect(await countsAfter('late', ['mount', 'prefetchFirst'])).toEqual([1, 1]);
  });
});

/** A screen reading the query with its hook, as the dashboards do. */
function HookedScreen({ options }: { options: ReturnType<typeof counted>['options'] }) {
  const { data } = useQuery(options);
  return <p>answer {String(data ?? '…')}</p>;
}

describe('the first load’s prefetch, read by a screen’s hook (useQuery)', () => {
  /** Renders a screen reading `options` with useQuery; resolves once it shows the answer. */
  async function showScreen(client: QueryClient, options: ReturnType<typeof counted>['options']) {
    const view = render(
      <QueryClientProvider client={client}>
        <HookedScreen options={options} />
      </QueryClientProvider>,
    );
    await screen.findByText(/answer \d/);
    // Long enough for a refetch the mount started to have answered.
    await new Promise((r) => setTimeout(r, 30));
    view.unmount();
  }

  it('shows the prefetched answer without asking again; a later visit asks again', async () => {
    const client = new QueryClient();
    const { calls, options } = counted('hooked');
    await prefetchFirst(client, options);
    expect(calls.n).toBe(1);
    await showScreen(client, options);
    expect(calls.n).toBe(1);
    await showScreen(client, options);
    expect(calls.n).toBe(2);
  });
});
