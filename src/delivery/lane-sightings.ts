import type { LaneDeps } from './lane-deps.js';
import type { Sighting } from './ports.js';

/**
 * A post in the air whose event came while its answer did not: after this long it is likely hanging (an
 * answered post takes a second or two), so its sighting is stored for whichever replica decides its doubt
 * (this process may die before the answer never comes).
 */
export const storeInFlightSightingAfterMs = 2_000;

/** Posts confirmed lately, kept to recognise their own events without a store read. */
const recentKept = 500;

interface Posting {
  readonly key: string;
  readonly mark: string | undefined;
  readonly since: number;
}

/**
 * What one channel lane knows of its own posts, to match the platform's events for them without the store:
 * the posts in the air (by key and mark) and those confirmed lately, with their message ids.
 */
export class LaneSightings {
  readonly #inFlight = new Map<string, Posting>();

  constructor(
    private readonly deps: Pick<LaneDeps, 'clock' | 'wakeups' | 'witness'>,
    private readonly name: string,
  ) {}
  readonly #recent = new Map<
    string,
    { readonly id: string; readonly mark: string | undefined; readonly messageId: string }
  >();

  started(key: string, mark: string | undefined, since: number): void {
    this.#inFlight.set(key, { key, mark, since });
  }

  ended(key: string): void {
    this.#inFlight.delete(key);
  }

  /** `key`: the idempotency key; `id`: the delivery's id (for the log). */
  confirmed(key: string, id: string, mark: string | undefined, messageId: string | undefined): void {
    if (messageId === undefined) return;
    this.#recent.delete(key);
    this.#recent.set(key, { id, mark, messageId });
    if (this.#recent.size > recentKept) this.#recent.delete(this.#recent.keys().next().value as string);
  }

  /**
   * Whether the sighting is of a post in the air: kept (the attempt finds it in the witness when it ends),
   * and stored for another replica once the post has been in the air {@link storeInFlightSightingAfterMs}.
   */
  inFlight(sighting: Sighting): boolean {
    const { clock, wakeups, witness } = this.deps;
    const flying = [...this.#inFlight.values()].find((p) => matches(sighting, p.key, p.mark));
    if (!flying) return false;
    const store = () => {
      if (this.#inFlight.has(flying.key)) void witness.store(flying.key, sighting.messageId).catch(() => {});
    };
    const at = flying.since + storeInFlightSightingAfterMs;
    if (clock.now() >= at) store();
    else wakeups.at(`${this.name}:sighted:${flying.key}`, at, store);
    return true;
  }

  /**
   * A confirmed post this sighting is of: `same` (its own event, nothing to do) or `other` (a second copy of
   * it, with the key and the ledger's copy), else undefined.
   */
  confirmedOf(
    sighting: Sighting,
  ): { readonly same: boolean; readonly id: string; readonly canonical: string } | undefined {
    for (const [key, r] of this.#recent) {
      if (matches(sighting, key, r.mark))
        return { same: r.messageId === sighting.messageId, id: r.id, canonical: r.messageId };
    }
    return undefined;
  }
}

function matches(sighting: Sighting, key: string, mark: string | undefined): boolean {
  return sighting.key === key || (mark !== undefined && sighting.mark === mark);
}
