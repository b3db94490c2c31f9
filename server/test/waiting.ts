/** A promise and the function that settles it: holds something until the test lets it go. */
export function gate(): { p: Promise<void>; open: () => void } {
  let open!: () => void;
  const p = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { p, open };
}

/**
 * Resolves once `done()` is true, checking every few milliseconds; rejects naming `what` when
 * it is still false after `timeoutMs`.
 */
export async function until(done: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
