import type { LaneDeps } from './lane-deps.js';
import type { Sighting } from './ports.js';

/** Posts confirmed lately, kept to recognise their own events without a store read. */
const recentKept = 500;

interface Posting {
  readonly key: string;
  readonly mark: string | undefined;
}

/**
 * What one channel lane knows of its own posts, to match the platform's events for them without the store:
 * the posts in the air (by key and mark) and those confirmed lately, with their message ids.
 */
export class LaneSightings {
  readonly #inFlight = new Map<string, Posting>();
  /** Notices held after a doubt, by their mark: key. */
  readonly #heldByMark = new Map<string, string>();

  constructor(private readonly deps: Pick<LaneDeps, 'witness'>) {}
  readonly #recent = new Map<
    string,
    { readonly id: string; readonly mark: string | undefined; readonly messageId: string }
  >();

  started(key: string, mark: string | undefined): void {
    this.#inFlight.set(key, { key, mark });
  }

  /**
   * A notice held for the catch-up after a doubt: its first attempt may still land, and the platform's event
   * may name it only by its mark (Discord's nonce), which cannot be turned back into its key.
   */
  held(key: string, mark: string | undefined): void {
    if (mark === undefined) return;
    this.#heldByMark.delete(mark);
    this.#heldByMark.set(mark, key);
    if (this.#heldByMark.size > recentKept)
      this.#heldByMark.delete(this.#heldByMark.keys().next().value as string);
  }

  /** The key of the held notice a sighting that names no key is of (by its mark), if any. */
  heldAs(sighting: Sighting): string | undefined {
    if (sighting.key !== undefined) return sighting.key;
    return sighting.mark === undefined ? undefined : this.#heldByMark.get(sighting.mark);
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

  /** The key of the delivery this process confirmed under `messageId` lately, if any. */
  confirmedAs(messageId: string): string | undefined {
    for (const [key, r] of this.#recent) if (r.messageId === messageId) return key;
    return undefined;
  }

  /**
   * Whether the sighting is of a post in the air (its event came before its answer): kept in the witness for
   * the attempt when it ends, and stored at once for another replica, since this one may die before the
   * answer never comes (one small write, only for a post whose event outran its answer).
   */
  inFlight(sighting: Sighting): boolean {
    const flying = [...this.#inFlight.values()].find((p) => matches(sighting, p.key, p.mark));
    if (!flying) return false;
    void this.deps.witness.store(flying.key, sighting.messageId).catch(() => {});
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
