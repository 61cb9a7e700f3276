/**
 * A binary min-heap: `push` and `pop` in O(log n), `peek` in O(1). `before(a, b)` is true when `a`
 * must come out first; items it calls equal come out in no particular order, so give it a
 * tie-breaker where the order matters.
 */
export class MinHeap<T> {
  readonly #items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let child = items.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.before(item, items[parent] as T)) break;
      items[child] = items[parent] as T;
      child = parent;
    }
    items[child] = item;
  }

  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let parent = 0;
    for (;;) {
      const left = 2 * parent + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && this.before(items[right] as T, items[left] as T) ? right : left;
      if (!this.before(items[child] as T, last)) break;
      items[parent] = items[child] as T;
      parent = child;
    }
    items[parent] = last;
    return top;
  }

  /** Empties the heap. */
  clear(): void {
    this.#items.length = 0;
  }
}
