/** Kinds of simulator-wide numeric ids. */
export type IdKind = 'project' | 'reward' | 'option' | 'wall' | 'blog' | 'user' | 'transaction';

const starts: Record<IdKind, number> = {
  project: 1001,
  reward: 5001,
  option: 9001,
  wall: 20_001,
  blog: 700,
  user: 100_001,
  transaction: 4_000_001,
};

/**
 * Simulator-wide id counters: ids are unique across projects (as on the platform)
 * and deterministic, so seeded runs are reproducible.
 */
export class IdSource {
  readonly #next = new Map<IdKind, number>();

  next(kind: IdKind): number {
    const id = this.#next.get(kind) ?? starts[kind];
    this.#next.set(kind, id + 1);
    return id;
  }

  /** Makes sure an explicitly chosen id is never handed out again. */
  reserve(kind: IdKind, id: number): void {
    const next = this.#next.get(kind) ?? starts[kind];
    if (id >= next) this.#next.set(kind, id + 1);
  }
}
