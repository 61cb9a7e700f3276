/** The reason a copy is cancelled: the other one answered first. */
export class HedgeLost extends Error {
  override readonly name = 'HedgeLost';
  constructor() {
    super('the other copy of this request answered first');
  }
}

/**
 * Runs `send` once and, when it has not settled after `delayMs` of real time and
 * `mayHedge()` agrees at that moment, once more (`hedge` true). The first to
 * resolve wins and the other is aborted through its signal. A failure waits for
 * the other copy when one is running; with none (or both failed) the first
 * copy's error is thrown, so the caller's retry policy sees what it always saw.
 *
 * Real time on purpose, like the request timeout: it is about the network, and a
 * virtual clock that auto-advances would fire every copy at once.
 */
export function hedgedAttempt<T>(
  send: (signal: AbortSignal, hedge: boolean) => Promise<T>,
  delayMs: number,
  mayHedge: () => boolean,
): Promise<T> {
  const controllers: AbortController[] = [];
  const errors: unknown[] = [];
  let failed = 0;
  let settled = false;
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const launch = (hedge: boolean) => {
      const index = controllers.length;
      const controller = new AbortController();
      controllers.push(controller);
      send(controller.signal, hedge).then(
        (value) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          for (const other of controllers) if (other !== controller) other.abort(new HedgeLost());
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          errors[index] = error;
          failed += 1;
          if (failed < controllers.length) return; // the other copy may still answer
          settled = true;
          clearTimeout(timer);
          reject(errors[0]);
        },
      );
    };
    launch(false);
    timer = setTimeout(() => {
      if (!settled && mayHedge()) launch(true);
    }, delayMs);
  });
}
