import { AttemptCancel } from './attempt-cancel.js';

/** The reason a copy is cancelled: the other one answered first. */
export class HedgeLost extends Error {
  override readonly name = 'HedgeLost';
  constructor() {
    super('the other copy of this request answered first');
  }
}

/**
 * Copies of one request at most. A copy meets the same slow tail as the first send (one
 * request in a hundred at the bench's 1%): with one copy such a request waited the whole
 * hold, 5 s (about once per replica at the first polls of 1,000 projects, bench scaleRedis);
 * a second copy after another delay bounds it to two delays. It goes only when both are
 * still unanswered, and counts against the same share as the first copy.
 */
const MAX_COPIES = 2;

/**
 * Runs `send` once and, each time it has not settled after another `delayMs` of real
 * time and `mayHedge()` agrees at that moment, once more (`hedge` true), at most
 * {@link MAX_COPIES} times. The first to resolve wins and the others are cancelled
 * through their {@link AttemptCancel}. A failure waits for the other copies still running; when
 * all failed, the first send's error is thrown, so the caller's retry policy sees
 * what it always saw.
 *
 * Real time on purpose, like the request timeout: it is about the network, and a
 * virtual clock that auto-advances would fire every copy at once.
 */
export function hedgedAttempt<T>(
  send: (cancel: AttemptCancel, hedge: boolean) => Promise<T>,
  delayMs: number,
  mayHedge: () => boolean,
): Promise<T> {
  const cancels: AttemptCancel[] = [];
  const errors: unknown[] = [];
  let failed = 0;
  let settled = false;
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const launch = (hedge: boolean) => {
      const index = cancels.length;
      const cancel = new AttemptCancel();
      cancels.push(cancel);
      send(cancel, hedge).then(
        (value) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          for (const other of cancels) if (other !== cancel) other.cancel(new HedgeLost());
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          errors[index] = error;
          failed += 1;
          if (failed < cancels.length) return; // the other copy may still answer
          settled = true;
          clearTimeout(timer);
          reject(errors[0]);
        },
      );
    };
    const hedgeLater = () => {
      timer = setTimeout(() => {
        if (settled || !mayHedge()) return;
        launch(true);
        if (cancels.length <= MAX_COPIES) hedgeLater();
      }, delayMs);
    };
    launch(false);
    hedgeLater();
  });
}
