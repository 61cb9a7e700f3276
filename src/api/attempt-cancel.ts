/**
 * Cancels one attempt from outside: the other copy of a hedged read answered first (hedged-attempt.ts). A plain
 * object with one watcher instead of an AbortController: an attempt watches one cancel at most, and an
 * AbortController with its EventTarget and listeners per copy (two per request with the attempt's own) was about
 * 4 % of a replica's CPU to its first polls (bench scaleRedis profile).
 */
export class AttemptCancel {
  #cancelled = false;
  #reason: unknown;
  #onCancel: ((reason: unknown) => void) | undefined;

  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Why it was cancelled (undefined until then). */
  get reason(): unknown {
    return this.#reason;
  }

  /** Cancels, once: the watcher is told the reason; later calls change nothing. */
  cancel(reason: unknown): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#reason = reason;
    const onCancel = this.#onCancel;
    this.#onCancel = undefined;
    onCancel?.(reason);
  }

  /**
   * `onCancel` is told the reason when this is cancelled (at once when it already is); one watcher at a time,
   * `undefined` stops watching.
   */
  watch(onCancel: ((reason: unknown) => void) | undefined): void {
    if (this.#cancelled) {
      onCancel?.(this.#reason);
      return;
    }
    this.#onCancel = onCancel;
  }
}
