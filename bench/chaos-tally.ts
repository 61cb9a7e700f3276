import type { SeedFigures } from '../test/chaos/judge.js';

/**
 * The sums and worsts of judged chaos seeds (test/chaos/judge.ts), for `deliveryChaos`: its virtual-clock seeds
 * and its real-bot seeds each keep one, and the section adds the two for the figures over all seeds.
 */
export class ChaosTally {
  notices = 0;
  supporters = 0;
  duplicates = 0;
  misses = 0;
  /** Every judged live notice's supporter-to-channel time. */
  readonly latenciesMs: number[] = [];
  /** Those that met no fault: the ones the latency bound is on. */
  readonly undisturbedLatenciesMs: number[] = [];
  readonly worst = { stallMs: 0, doubtMs: 0, countedDoubtMs: 0, secondCopyMs: 0 };

  add(f: SeedFigures): void {
    this.notices += f.notices;
    this.supporters += f.supporters;
    this.duplicates += f.duplicates;
    this.misses += f.misses;
    this.latenciesMs.push(...f.latenciesMs);
    this.undisturbedLatenciesMs.push(...f.undisturbedLatenciesMs);
    this.worst.stallMs = Math.max(this.worst.stallMs, f.maxStallMs);
    this.worst.doubtMs = Math.max(this.worst.doubtMs, f.maxDoubtMs);
    this.worst.countedDoubtMs = Math.max(this.worst.countedDoubtMs, f.maxCountedDoubtMs);
    this.worst.secondCopyMs = Math.max(this.worst.secondCopyMs, f.maxSecondCopyMs);
  }
}
