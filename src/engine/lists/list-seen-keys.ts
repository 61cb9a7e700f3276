/**
 * Every key a list ever evicted from its window, exact, as a sorted set of
 * (unix second, id) pairs (fundings: the supporter's user id). It is what makes
 * "older than the window" mean "seen" only when it is true: an entry below the
 * window floor is known only if its pair is in this set, so a support that turns
 * successful late (listed at its own, older `support_timestamp`) is found and
 * announced however deep it lands.
 *
 * Stored packed: pairs sorted by (second, id), each as a varint second delta and
 * a varint id, base64. A busy list's deltas are 0-2 s (1 byte) and user ids below
 * 2^21 take 3 bytes: about 4 bytes a supporter, so 100,000 supporters cost about
 * 400 KB packed (530 KB base64), stored in chunks of about 256 keys (project-state-layout.ts),
 * so a change rewrites one chunk. No false positives: a miss
 * cannot come from this set.
 */
export class SeenKeys {
  /** Parallel arrays sorted by (ts, id). */
  #ts: number[] = [];
  #id: number[] = [];

  static unpack(packed: string | undefined): SeenKeys {
    const set = new SeenKeys();
    if (packed === undefined || packed === '') return set;
    const bytes = Buffer.from(packed, 'base64');
    let at = 0;
    const varint = (): number => {
      let value = 0;
      let scale = 1;
      for (;;) {
        const byte = bytes[at++] ?? 0;
        value += (byte & 0x7f) * scale;
        if (byte < 0x80) return value;
        scale *= 128;
      }
    };
    let ts = 0;
    while (at < bytes.length) {
      ts += varint();
      set.#ts.push(ts);
      set.#id.push(varint());
    }
    return set;
  }

  /**
   * The set as packed chunks (each packed like {@link SeenKeys.pack}, deltas from 0), cut by
   * content: after a pair whose hash is 0 modulo `averageSize`. A new key or a late one
   * changes only the chunk it lands in, so storing the set costs one small chunk a change
   * instead of the whole set (project-state-store.ts). Concatenated in order they are the set.
   */
  packChunks(averageSize: number): string[] {
    const chunks: string[] = [];
    let from = 0;
    for (let i = 0; i < this.#ts.length; i++) {
      const boundary = pairHash(this.#ts[i] ?? 0, this.#id[i] ?? 0) % averageSize === 0;
      if (boundary || i + 1 - from >= 4 * averageSize) {
        chunks.push(this.#packRange(from, i + 1));
        from = i + 1;
      }
    }
    if (from < this.#ts.length) chunks.push(this.#packRange(from, this.#ts.length));
    return chunks;
  }

  /** The set whose {@link SeenKeys.packChunks} were `chunks` (in order). */
  static unpackChunks(chunks: readonly string[]): SeenKeys {
    const set = new SeenKeys();
    for (const chunk of chunks) {
      const part = SeenKeys.unpack(chunk);
      set.#ts.push(...part.#ts);
      set.#id.push(...part.#id);
    }
    return set;
  }

  pack(): string {
    return this.#packRange(0, this.#ts.length);
  }

  #packRange(from: number, to: number): string {
    const out: number[] = [];
    const varint = (n: number): void => {
      let value = n;
      while (value >= 0x80) {
        out.push((value % 128) | 0x80);
        value = Math.floor(value / 128);
      }
      out.push(value);
    };
    let previous = 0;
    for (let i = from; i < to; i++) {
      const ts = this.#ts[i] ?? 0;
      varint(ts - previous);
      varint(this.#id[i] ?? 0);
      previous = ts;
    }
    return Buffer.from(out).toString('base64');
  }

  get size(): number {
    return this.#ts.length;
  }

  /** Index of the first pair not below (ts, id). */
  rank(ts: number, id: number): number {
    let lo = 0;
    let hi = this.#ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = this.#ts[mid] ?? 0;
      if (t < ts || (t === ts && (this.#id[mid] ?? 0) < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(ts: number, id: number): boolean {
    const at = this.rank(ts, id);
    return this.#ts[at] === ts && this.#id[at] === id;
  }

  add(ts: number, id: number): boolean {
    const at = this.rank(ts, id);
    if (this.#ts[at] === ts && this.#id[at] === id) return false;
    this.#ts.splice(at, 0, ts);
    this.#id.splice(at, 0, id);
    return true;
  }

  delete(ts: number, id: number): boolean {
    const at = this.rank(ts, id);
    if (this.#ts[at] !== ts || this.#id[at] !== id) return false;
    this.#ts.splice(at, 1);
    this.#id.splice(at, 1);
    return true;
  }

  /** The pairs with from < ts < to (exclusive both ends). */
  between(from: number, to: number): { ts: number; id: number }[] {
    const pairs: { ts: number; id: number }[] = [];
    for (let i = this.rank(from + 1, 0); i < this.#ts.length && (this.#ts[i] ?? 0) < to; i++) {
      pairs.push({ ts: this.#ts[i] ?? 0, id: this.#id[i] ?? 0 });
    }
    return pairs;
  }
}

/** A cheap integer hash of a pair (chunk boundaries): spreads sequential seconds and ids evenly. */
function pairHash(ts: number, id: number): number {
  let h = Math.imul(ts ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ id, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
