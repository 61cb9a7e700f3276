import { errorSummary } from '../domain/error-summary.js';
import type { ExtraCopies } from './extra-copies.js';
import type { LaneDeps } from './lane-deps.js';

/**
 * Runs one channel's late-copy watches (extra-copies.ts) on their own, beside the lane's attempts: a watch only
 * looks and removes, so it never waits for a post in flight. Run between the lane's attempts, a watch due while
 * a post hung waited for that post's timeout (issue 29: a Discord late copy stood 11.7 s behind a post that
 * ended in its 10 s timeout). One pass at a time per channel, so the same watches are never looked for twice at
 * once; the look budget (look-budget.ts) spaces the looks as before.
 */
export class CopyWatchRunner {
  #copies: ExtraCopies | undefined;
  #running = false;

  constructor(
    /** The wake-up's name: its own, so the lane's wake-ups and this one never replace each other. */
    private readonly name: string,
    private readonly deps: Pick<LaneDeps, 'clock' | 'wakeups' | 'track' | 'logger'>,
    private readonly describe: () => object,
  ) {}

  /** The watches it runs (set once: ExtraCopies is built with this runner's `wakeAt`). */
  attach(copies: ExtraCopies): void {
    this.#copies = copies;
  }

  /** A watch comes due at `at`: the runner passes then (an earlier request under its name stays). */
  wakeAt(at: number): void {
    this.deps.wakeups.at(this.name, at, () => this.#kick());
  }

  #kick(): void {
    if (this.#running) return;
    this.#running = true;
    void this.deps.track(this.#run()).catch((error: unknown) => {
      this.deps.logger.warn(
        { ...this.describe(), ...errorSummary(error) },
        'late-copy watch failed: it looks again at its next time',
      );
    });
  }

  async #run(): Promise<void> {
    const copies = this.#copies;
    if (!copies) return;
    let failed = true;
    try {
      // handle() moves every watch it took to its next look (or ends it), so this loop ends.
      for (
        let due = copies.due(this.deps.clock.now());
        due.length > 0;
        due = copies.due(this.deps.clock.now())
      )
        await copies.handle(due);
      failed = false;
    } finally {
      this.#running = false;
      // A wake-up that fired during the pass found it running: the next due time is asked for here. After a
      // failed pass a watch may still be due: not before a second from now, never a wake that fires at once.
      const times = copies.times();
      const floor = failed ? this.deps.clock.now() + 1_000 : 0;
      if (times.length > 0) this.wakeAt(Math.max(floor, Math.min(...times)));
    }
  }
}
