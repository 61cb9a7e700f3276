/** Randomness is injected so that simulations, jitter and tests are reproducible from a seed. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
}

export const systemRandom: Random = { next: () => Math.random() };

/** mulberry32: tiny, fast and good enough for simulation and jitter (not for secrets). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return {
    next() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

export function randomInt(random: Random, minInclusive: number, maxInclusive: number): number {
  return minInclusive + Math.floor(random.next() * (maxInclusive - minInclusive + 1));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random.next() * items.length)];
  if (item === undefined) throw new RangeError('pick() needs a non-empty list');
  return item;
}
