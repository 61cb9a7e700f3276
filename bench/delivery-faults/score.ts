/**
 * The delivery-faults benchmark's judge: what happened on the platform (the supporters the bench added, each
 * with a unique name and the time it was added) against what reached each channel (the fakes' messages, with
 * the time each landed). Pure functions: every figure comes from ground truth, none from the bot's own counts.
 */
import { percentile } from '../stats.js';

export interface Arrival {
  /** Unique in the run ("Fan 0042"): a name appears in a channel once per notice that names it. */
  readonly name: string;
  /** Epoch ms the support was made on the platform. */
  readonly at: number;
}

/** One message as the platform stored it: its text (title and body) and when it landed. */
export interface LandedMessage {
  readonly at: number;
  readonly text: string;
}

/** One request the bot made to post in the channel, and whether the platform took it. */
export interface PostAttempt {
  readonly at: number;
  /**
   * `ok`: posted; `fault`: a 5xx, a hang or a refusal; `rate-limited`: a 429 asking to wait `retryAfterMs`;
   * `no-access`: the bot may not post in the channel at all (not_in_channel): every notice of the channel waits
   * for access, not behind this one, and that wait is the catch-up latency, not a stall.
   */
  readonly outcome: 'ok' | 'fault' | 'rate-limited' | 'no-access';
  readonly retryAfterMs?: number;
  /** The supporters the request named (its own notice). */
  readonly names?: readonly string[];
}

const supportersTitle = /(\d[\d,]*) new supporters?/;

export interface ChannelScore {
  readonly duplicates: number;
  readonly misses: number;
  /** Supporters a message counted ("389 new supporters") but no message of the channel named. */
  readonly unnamedSupporters: number;
  /** Landing time minus support time, per supporter named (first message naming it). */
  readonly latenciesMs: readonly number[];
  readonly missedNames: readonly string[];
}

/** How each supporter reached one channel: once, by name, counted where the count is stated. */
export function scoreChannel(arrivals: readonly Arrival[], messages: readonly LandedMessage[]): ChannelScore {
  const namedIn = new Map<string, LandedMessage[]>();
  for (const message of messages) {
    // A message names a supporter once however often its text repeats the name (Slack's notification text and blocks).
    for (const name of new Set(namesIn(message.text)))
      namedIn.set(name, [...(namedIn.get(name) ?? []), message]);
  }
  let duplicates = 0;
  const missedNames: string[] = [];
  const latenciesMs: number[] = [];
  for (const arrival of arrivals) {
    const found = namedIn.get(arrival.name) ?? [];
    if (found.length === 0) missedNames.push(arrival.name);
    duplicates += Math.max(0, found.length - 1);
    const first = found.reduce<LandedMessage | undefined>(
      (a, m) => (a === undefined || m.at < a.at ? m : a),
      undefined,
    );
    if (first) latenciesMs.push(Math.max(0, first.at - arrival.at));
  }
  // A message counts supporters in its title ("7 new supporters") or names one ("New supporter: X").
  const stated = messages.reduce((sum, m) => {
    const counted = supportersTitle.exec(m.text)?.[1];
    return sum + (counted !== undefined ? Number(counted.replaceAll(',', '')) : 0);
  }, 0);
  const namedInCounted = messages
    .filter((m) => supportersTitle.test(m.text))
    .reduce((sum, m) => sum + new Set(namesIn(m.text)).size, 0);
  const continued = messages
    .filter((m) => /continued \(\d+ of \d+\)/.test(m.text))
    .reduce((s, m) => s + new Set(namesIn(m.text)).size, 0);
  return {
    duplicates,
    misses: missedNames.length,
    unnamedSupporters: Math.max(0, stated - namedInCounted - continued),
    latenciesMs,
    missedNames,
  };
}

/** The bench's name of its `n`th supporter ("Fan 0042"), which {@link namesIn} finds again. */
export function fanName(n: number): string {
  return `Fan ${String(n).padStart(4, '0')}`;
}

/** The bench's supporter names in a text ("Fan 0042"): four digits, so one is never part of another. */
export function namesIn(text: string): string[] {
  return text.match(/Fan \d{4}\b/g) ?? [];
}

/**
 * The longest a notice waited in its channel behind another notice's fault, beyond the platform's Retry-After:
 * for each failed request, the time until the channel's next landed message naming a supporter who arrived
 * before the fault and whose own post never failed (a failed one waits for its own doubt or retry, resolved in
 * the background: that counts in the latency, not here). An arrival shortly before a fault may not have been read yet: the figure
 * then includes up to one poll interval.
 */
export function maxChannelStallMs(
  attempts: readonly PostAttempt[],
  landed: readonly LandedMessage[],
  arrivals: readonly Arrival[],
): number {
  const arrivedAt = new Map(arrivals.map((a) => [a.name, a.at]));
  // A notice whose own post failed waits for its own doubt or retry (counted in the latency), not behind another's.
  const faulted = new Set(attempts.filter((a) => a.outcome !== 'ok').flatMap((a) => a.names ?? []));
  let worst = 0;
  for (const fault of attempts) {
    if (fault.outcome === 'ok' || fault.outcome === 'no-access') continue;
    const own = faulted;
    const waited = landed
      .filter(
        (m) =>
          m.at > fault.at &&
          namesIn(m.text).some(
            (n) => !own.has(n) && (arrivedAt.get(n) ?? Number.POSITIVE_INFINITY) < fault.at,
          ),
      )
      .reduce((soonest, m) => Math.min(soonest, m.at), Number.POSITIVE_INFINITY);
    if (!Number.isFinite(waited)) continue;
    const allowed = fault.outcome === 'rate-limited' ? (fault.retryAfterMs ?? 0) : 0;
    worst = Math.max(worst, waited - fault.at - allowed);
  }
  return Math.max(0, Math.round(worst));
}

export function latencySummary(values: readonly number[]) {
  return {
    p50: Math.round(percentile(values, 50)),
    p95: Math.round(percentile(values, 95)),
    p99: Math.round(percentile(values, 99)),
    max: Math.round(values.reduce((m, v) => Math.max(m, v), 0)),
  };
}
