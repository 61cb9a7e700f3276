/**
 * An exponentially weighted rate of events (per ms) with time constant `tauMs`: each event adds
 * 1/τ and the sum decays as e^(-t/τ), so a steady rate λ reads λ after a few τ. Pure state on the
 * times it is given (the engine's clock), no timer.
 */
export class DecayingRate {
  #rate = 0;
  #at: number;

  constructor(
    readonly tauMs: number,
    now: number,
  ) {
    this.#at = now;
  }

  /** `count` events at `now`. */
  record(now: number, count: number): void {
    this.#decay(now);
    this.#rate += count / this.tauMs;
  }

  /** The rate at `now` in events per ms. */
  rate(now: number): number {
    this.#decay(now);
    return this.#rate;
  }

  #decay(now: number): void {
    if (now <= this.#at) return;
    this.#rate *= Math.exp(-(now - this.#at) / this.tauMs);
    this.#at = now;
  }
}
