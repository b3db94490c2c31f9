/**
 * Calls `renew` every `everyMs` until the returned stop is called: for a lease a run holds
 * while it works through a batch (the mail worker's claimed mails). A renewal still under way
 * when the next is due is not doubled; a failed one goes to `onError` and the next tries again.
 * The timer is unref'd.
 */
export function keepAlive(
  everyMs: number,
  renew: () => Promise<unknown>,
  onError: (err: unknown) => void,
): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    renew()
      .catch(onError)
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
