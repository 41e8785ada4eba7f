/**
 * Writes that arrive together are stored together: each caller hands its item and waits for the
 * transaction that stores it. While one batch is being written the next ones gather, so under a
 * burst one transaction (and one commit) serves hundreds of requests, and a lone request is
 * written at once, without waiting for company.
 */
export function groupCommit<T>(
  write: (items: T[]) => Promise<void>,
  options: { maxBatch: number; maxInFlight: number },
) {
  let waiting: { item: T; done: () => void; fail: (error: unknown) => void }[] = [];
  let inFlight = 0;

  function pump() {
    while (inFlight < options.maxInFlight && waiting.length > 0) {
      const batch = waiting.slice(0, options.maxBatch);
      waiting = waiting.slice(batch.length);
      inFlight++;
      write(batch.map((entry) => entry.item))
        .then(
          () => {
            for (const entry of batch) entry.done();
          },
          (error: unknown) => {
            for (const entry of batch) entry.fail(error);
          },
        )
        .finally(() => {
          inFlight--;
          pump();
        });
    }
  }

  return (item: T) =>
    new Promise<void>((done, fail) => {
      waiting.push({ item, done, fail });
      pump();
    });
}
