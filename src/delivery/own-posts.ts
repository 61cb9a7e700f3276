/** How long this process remembers its posts: longer than any look's span. */
const keptMs = 10 * 60_000;
/** Times kept per channel: a channel busier than this is busier than any look's page. */
const keptPerChannel = 500;

/**
 * This process's own posts per channel (or thread), in memory: the part of the
 * channel's pace it sees itself, before a look has measured every voice in it.
 */
export class OwnPosts {
  readonly #times = new Map<string, number[]>();

  noted(channel: string, at: number): void {
    const times = this.#times.get(channel) ?? [];
    times.push(at);
    while (times.length > keptPerChannel || (times[0] !== undefined && times[0] < at - keptMs)) times.shift();
    this.#times.set(channel, times);
  }

  /** Posts made between `from` and `to` (epoch ms, inclusive). */
  between(channel: string, from: number, to: number): number {
    return (this.#times.get(channel) ?? []).filter((at) => at >= from && at <= to).length;
  }
}
