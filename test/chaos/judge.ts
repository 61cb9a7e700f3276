/**
 * The chaos invariants, checked against ground truth after a seed (test/chaos/README.md): the simulator's
 * supporters, what each channel showed and when (the platform models' timeline), every request the bot made and
 * what it met (the wire's journal), and the delivery records as they landed in the store.
 */
import { percentile } from '../../bench/stats.js';
import type { WorldRecord } from './world/world-record.js';

/** How long a second copy of a name may stand in a channel (a repeat that removes its extra copy). */
export const secondCopyBoundMs = 5_000;
/** How long a notice may wait behind another notice's fault, beyond the platform's Retry-After. */
export const stallBoundMs = 10_000;
/** The post's own answer and the lane's turn, on top of the stall bound. */
const stallSlackMs = 1_000;
/** How long a delivery may stay in doubt. */
export const doubtBoundMs = 120_000;
/**
 * Supporter to channel, p99 of the live channels' notices that met no fault of their own, no storm and no process,
 * store, channel or API fault.
 */
export const latencyBoundMs = 60_000;

export interface SeedFigures {
  /** (supporter, channel) pairs judged. */
  readonly notices: number;
  readonly supporters: number;
  readonly duplicates: number;
  readonly misses: number;
  readonly maxSecondCopyMs: number;
  readonly maxStallMs: number;
  readonly maxDoubtMs: number;
  /**
   * The longest doubt less the time no look could decide it (the judge's excuses: a failed look's interval, the
   * time the bot was out of the channel plus one interval). The bound of 120 s applies to this figure.
   */
  readonly maxCountedDoubtMs: number;
  /** Supporter to first landing, live channels, every notice but those held for a closed channel. */
  readonly latenciesMs: readonly number[];
  /** Those of `latenciesMs` that met no fault, storm or disruption: the ones the latency bound is on. */
  readonly undisturbedLatenciesMs: readonly number[];
}

export interface Verdict {
  readonly seed: number;
  readonly violations: readonly string[];
  readonly figures: SeedFigures;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Which of `names` a text shows (whole names: "Fan 0001" is not in "Fan 00012"). */
function nameFinder(names: readonly string[]): (text: string) => Set<string> {
  if (names.length === 0) return () => new Set();
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])(${names.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`,
    'gu',
  );
  return (text) => new Set([...text.matchAll(pattern)].map((m) => m[1] as string));
}

export function judge(record: WorldRecord): Verdict {
  const { schedule, timeline } = record;
  const violations: string[] = [];
  // A world stopped on a timer spin judges nothing else: its channels stand as the spin left them.
  if (record.spin) violations.push(`spin: ${record.spin}`);
  const names = record.truth.map((t) => t.name);
  const namesIn = nameFinder(names);
  const arrivedAt = new Map(record.truth.map((t) => [t.name, t.at]));
  const current = timeline.current();
  let duplicates = 0;
  let misses = 0;
  let notices = 0;
  const latenciesMs: number[] = [];
  const undisturbed: number[] = [];
  const firstShown = firstShownTimes(record, namesIn);
  const metFault = new Set(
    record.journal
      .filter((e) => e.category === 'post' && e.fault !== 'ok')
      .flatMap((e) => [...namesIn(e.text)].map((name) => `${e.platform}|${name}`)),
  );

  for (const channel of schedule.channels) {
    const key = `${channel.platform}:${channel.id}`;
    const messages = current.get(key) ?? [];
    const counts = new Map<string, number>();
    for (const m of messages) {
      if (m.role === 'thread-parent') continue;
      for (const name of namesIn(m.text)) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    for (const name of names) {
      notices += 1;
      const n = counts.get(name) ?? 0;
      if (n === 0) {
        misses += 1;
        violations.push(`miss: ${key} never named "${name}"`);
      } else if (n > 1) {
        duplicates += n - 1;
        violations.push(`duplicate: ${key} names "${name}" ${n} times`);
      }
    }
    const digests = messages.filter((m) => m.role === 'digest').length;
    const expected = channel.digest ? 1 : 0;
    if (digests !== expected)
      violations.push(`digest: ${key} shows ${digests} digests, expected ${expected}`);
    const parents = messages.filter((m) => m.role === 'thread-parent').length;
    if (parents > 1) violations.push(`daily thread: ${key} shows ${parents} parents for one day`);
    if (channel.pacing !== 'live') continue;
    for (const name of names) {
      const shown = firstShown.get(`${key}|${name}`);
      const arrived = arrivedAt.get(name);
      if (shown === undefined || arrived === undefined) continue;
      const held = record.disruptions.some(
        (d) => d.what === 'access' && d.channel === key && arrived >= d.from - 60_000 && arrived < d.to,
      );
      if (held) continue;
      latenciesMs.push(shown - arrived);
      const stormy = schedule.storms.some(
        (st) =>
          st.platform === channel.platform &&
          (st.channel ?? channel.id) === channel.id &&
          st.from < shown &&
          st.to > arrived,
      );
      if (
        !stormy &&
        !metFault.has(`${channel.platform}|${name}`) &&
        // A supporter who arrived while the API failed is read after its Retry-Afters (six 429s of 10 s: 60 s).
        !overlapsDisruption(record, arrived, shown, key, true)
      )
        undisturbed.push(shown - arrived);
    }
  }
  const p99 = percentile(undisturbed, 99);
  if (p99 > latencyBoundMs)
    violations.push(
      `latency: p99 ${secs(p99)} of the live notices no fault held (bound ${secs(latencyBoundMs)})`,
    );

  const maxSecondCopyMs = secondCopies(record, namesIn, violations);
  const maxStallMs = stalls(record, namesIn, firstShown, violations);
  const { worst: maxDoubtMs, worstCounted: maxCountedDoubtMs } = doubts(record, violations);
  return {
    seed: schedule.seed,
    violations,
    figures: {
      notices,
      supporters: names.length,
      duplicates,
      misses,
      maxSecondCopyMs,
      maxStallMs,
      maxDoubtMs,
      maxCountedDoubtMs,
      latenciesMs,
      undisturbedLatenciesMs: undisturbed,
    },
  };
}

/** When each name first showed in each channel (`<channel>|<name>`), thread parents apart. */
function firstShownTimes(record: WorldRecord, namesIn: (text: string) => Set<string>): Map<string, number> {
  const first = new Map<string, number>();
  for (const e of record.timeline.events) {
    if (e.role === 'thread-parent') continue;
    for (const name of namesIn(e.text))
      if (!first.has(`${e.channel}|${name}`)) first.set(`${e.channel}|${name}`, e.at);
  }
  return first;
}

/**
 * Whether a disruption overlaps the stretch: a channel's closing only for that channel; a failing API (which
 * holds back reads, not posts) only when `api` says so (the latency of a notice, from its supporter's arrival).
 */
function overlapsDisruption(
  record: WorldRecord,
  from: number,
  to: number,
  channel: string,
  api = false,
): boolean {
  return record.disruptions.some(
    (d) =>
      d.from < to &&
      d.to > from &&
      (d.what !== 'access' || d.channel === channel) &&
      (d.what !== 'api' || api),
  );
}

/** The longest any name stood twice (or more) in one channel at once; over the bound is a violation. */
function secondCopies(
  record: WorldRecord,
  namesIn: (text: string) => Set<string>,
  violations: string[],
): number {
  const showing = new Map<string, Set<string>>();
  const since = new Map<string, number>();
  const texts = new Map<string, string>();
  let worst = 0;
  const worstBy = new Map<string, number>();
  const close = (key: string, at: number) => {
    const from = since.get(key);
    if (from === undefined) return;
    since.delete(key);
    worst = Math.max(worst, at - from);
    worstBy.set(key, Math.max(worstBy.get(key) ?? 0, at - from));
  };
  for (const e of record.timeline.events) {
    const before = e.role === 'thread-parent' ? new Set<string>() : namesIn(texts.get(e.id) ?? '');
    const after = e.role === 'thread-parent' ? new Set<string>() : namesIn(e.text);
    texts.set(e.id, e.text);
    for (const name of new Set([...before, ...after])) {
      const key = `${e.channel}|${name}`;
      const ids = showing.get(key) ?? new Set<string>();
      if (after.has(name)) ids.add(e.id);
      else ids.delete(e.id);
      showing.set(key, ids);
      if (ids.size >= 2 && !since.has(key)) since.set(key, e.at);
      if (ids.size < 2) close(key, e.at);
    }
  }
  for (const key of [...since.keys()]) close(key, record.endedAt);
  for (const [key, ms] of worstBy) {
    if (ms > secondCopyBoundMs)
      violations.push(
        `second copy: "${key.split('|')[1]}" stood twice in ${key.split('|')[0]} for ${secs(ms)}`,
      );
  }
  return worst;
}

/**
 * The longest a live channel stood still behind one failed request while another notice waited: from the failed
 * request's answer (a 5xx, a 429, a reset; the client's timeout when none came) to the channel's next request,
 * less the 429's Retry-After. A
 * notice waited when the API had served its supporter before the fault and its own first request came after.
 * Stretches in which a process, the store or the channel was down, and a daily thread's parent in doubt, are not
 * judged here.
 */
function stalls(
  record: WorldRecord,
  namesIn: (text: string) => Set<string>,
  _firstShown: ReadonlyMap<string, number>,
  violations: string[],
): number {
  let worst = 0;
  const threads = discordChannels(record);
  for (const channel of record.schedule.channels) {
    if (channel.pacing !== 'live') continue;
    const key = `${channel.platform}:${channel.id}`;
    const posts = record.journal.filter(
      (e) =>
        e.category === 'post' &&
        e.platform === channel.platform &&
        (e.channel === channel.id || threads.get(e.channel) === key),
    );
    const firstRequest = new Map<string, number>();
    for (const e of posts)
      for (const name of namesIn(e.text)) if (!firstRequest.has(name)) firstRequest.set(name, e.at);
    posts.forEach((fault, i) => {
      // A daily thread's parent in doubt holds the notices that go under it until the doubt is resolved (they
      // cannot be set aside past their parent): that wait is judged by the doubt bound, not here.
      if (fault.fault === 'ok' || fault.postKind === 'thread-parent') return;
      const next = posts.slice(i + 1).find((e) => e.at > fault.at);
      if (!next || overlapsDisruption(record, fault.at, next.at, key)) return;
      const own = namesIn(fault.text);
      const waiting = record.truth.find(({ name }) => {
        const read = record.readAt.get(name);
        const first = firstRequest.get(name);
        return (
          !own.has(name) && read !== undefined && read < fault.at && first !== undefined && first > fault.at
        );
      });
      if (!waiting) return;
      // The lane learns of the fault when the answer (or the client's timeout) comes: waiting for it is the
      // fault's own time, as a Retry-After is.
      const waited = next.at - (fault.answeredAt ?? fault.at) - (fault.retryAfterMs ?? 0);
      worst = Math.max(worst, waited);
      if (waited > stallBoundMs + stallSlackMs) {
        violations.push(
          `stall: ${key} stood still ${secs(waited)} after a ${fault.fault} (+${secs(fault.at - record.schedule.start)}) while "${waiting.name}" waited (bound ${secs(stallBoundMs)} after Retry-After ${secs(fault.retryAfterMs ?? 0)})`,
        );
      }
    });
  }
  return Math.max(0, worst);
}

/** The judged channel of each Discord message: a thread's id is its parent message's. */
function discordChannels(record: WorldRecord): Map<string, string> {
  const channels = new Map<string, string>();
  for (const e of record.timeline.events)
    if (e.id.startsWith('discord/')) channels.set(e.id.slice(8), e.channel);
  return channels;
}

/** A delivery record's channel (`…/slack:T…:C…`) as the judge names channels (`slack:C…`). */
function judgedChannel(key: string): string {
  const parts = decodeURIComponent(key)
    .slice(decodeURIComponent(key).lastIndexOf('/') + 1)
    .split(':');
  return `${parts[0]}:${parts.at(-1)}`;
}

/**
 * How long within [from, to) the platform refused the bot's looks in `channel` (an access fault that also refuses
 * reads: Slack's `not_in_channel`). An archived channel, or a Discord channel that denies only sending, is
 * still read: a look decides there, so that time counts.
 */
function outOfChannelMs(record: WorldRecord, channel: string, from: number, to: number): number {
  let ms = 0;
  for (const d of record.disruptions)
    if (d.what === 'access' && d.looksRefused === true && d.channel === channel)
      ms += Math.max(0, Math.min(to, d.to) - Math.max(from, d.from));
  return ms;
}

/** How often one look may be made (Slack: conversations.history/.replies a minute per workspace; Discord: per channel, 5 s). */
const lookIntervalMs = { slack: 60_000, discord: 5_000 } as const;

/**
 * The longest any delivery record stayed `attempting` (an attempt not yet known to have landed or not). A look
 * that failed (a reset, a 5xx, a 429 of its own, its process killed before the answer) costs its budget's interval: the bound grows by one interval
 * for each failed look on the delivery's platform while it was in doubt.
 */
function doubts(record: WorldRecord, violations: string[]): { worst: number; worstCounted: number } {
  const open = new Map<string, number>();
  // A look that died with its process (killed while it waited for its answer) failed as surely as one the wire
  // broke, and its budget was spent all the same: the next process's look waits the interval out.
  const failedLooks = record.journal.filter(
    (e) => e.category === 'look' && (e.fault !== 'ok' || e.answeredAt === undefined),
  );
  let worst = 0;
  let worstCounted = 0;
  const closeAt = (key: string, at: number) => {
    const from = open.get(key);
    if (from === undefined) return;
    open.delete(key);
    const ms = at - from;
    worst = Math.max(worst, ms);
    const platform = key.includes('/discord:') ? 'discord' : 'slack';
    const failed = failedLooks.filter((e) => e.platform === platform && e.at >= from && e.at < at).length;
    // While the bot is out of the channel its looks are refused (Slack: not_in_channel), and they decide nothing:
    // that time does not count, and its end costs one interval (the refused look spent the budget's claim).
    const out = outOfChannelMs(record, judgedChannel(key), from, at);
    const excusedMs = failed * lookIntervalMs[platform] + (out > 0 ? out + lookIntervalMs[platform] : 0);
    const bound = doubtBoundMs + excusedMs;
    worstCounted = Math.max(worstCounted, ms - excusedMs);
    if (ms > bound) {
      violations.push(
        `doubt: ${decodeURIComponent(key)} stayed in doubt ${secs(ms)} (bound ${secs(bound)}${failed > 0 ? `, ${failed} failed looks` : ''}${out > 0 ? `, ${secs(out)} out of the channel` : ''})`,
      );
    }
  };
  for (const w of record.deliveryWrites) {
    closeAt(w.key, w.at);
    if (w.state === 'attempting') open.set(w.key, w.at);
  }
  for (const key of [...open.keys()]) closeAt(key, record.endedAt);
  return { worst, worstCounted };
}
