/**
 * The replicas benchmark's judge: what happened on the platform (the simulator's supporters and request log)
 * against what reached the channel (the Slack fake's messages, by the event id in their metadata). Pure
 * functions, so the figures come from ground truth and nothing the replicas say about themselves.
 */
import type { RequestLogEntry } from '../../src/simulator/index.js';

/** A supporter added by the benchmark: its notice must reach the channel exactly once. */
export interface ArrivedSupporter {
  readonly project: string;
  /** The engine's entry key, `funding:<support_timestamp>:<user id>` (src/api/stable-keys.ts). */
  readonly entryKey: string;
  /** Unix seconds, as the API has it. */
  readonly supportTimestamp: number;
}

/** A notice's idempotency key is `<event id>@<channel key>`; the event id is what identifies the notice. */
export const eventIdOf = (idempotencyKey: string): string =>
  idempotencyKey.slice(0, idempotencyKey.lastIndexOf('@'));

const burstPattern = /^(.+):supporter-burst:funding:(\d+):\d+\.\.funding:(\d+):\d+:\d+$/;

/**
 * Supporters whose notice never reached the channel. A supporter is covered by its own notice
 * (`<project>:supporter:<entry key>`) or by a coalesced burst notice of its project whose oldest and newest
 * entries enclose its support time (the engine coalesces more than `burstThreshold` new ones in one poll).
 */
export function missedSupporters(
  arrived: readonly ArrivedSupporter[],
  postedEventIds: Iterable<string>,
): ArrivedSupporter[] {
  const single = new Set<string>();
  const bursts: { project: string; from: number; to: number }[] = [];
  for (const id of postedEventIds) {
    const burst = burstPattern.exec(id);
    if (burst) bursts.push({ project: burst[1]!, from: Number(burst[2]), to: Number(burst[3]) });
    else single.add(id);
  }
  return arrived.filter(
    (s) =>
      !single.has(`${s.project}:supporter:${s.entryKey}`) &&
      !bursts.some(
        (b) => b.project === s.project && b.from <= s.supportTimestamp && s.supportTimestamp <= b.to,
      ),
  );
}

/** Burst notices among the posted event ids (reported: they cover several supporters each). */
export const burstCount = (postedEventIds: Iterable<string>): number =>
  [...postedEventIds].filter((id) => burstPattern.test(id)).length;

/** True for a request about `project` made with its key (each project has its own key). */
const isPollOf = (entry: RequestLogEntry, project: string) =>
  entry.credential === 'project' &&
  (entry.path === `/project/${project}` || entry.path.startsWith(`/project/${project}/`));

/**
 * The longest `projects` went unpolled across `at`: from each one's last request up to `at` to its first
 * request after it. A project not polled again counts up to `until` (so a stuck lease shows as a huge gap).
 */
export function longestUnpolledMs(
  requests: readonly RequestLogEntry[],
  projects: readonly string[],
  at: number,
  until: number,
): number {
  let longest = 0;
  for (const project of projects) {
    let before = Number.NEGATIVE_INFINITY;
    let after = until;
    for (const entry of requests) {
      if (!isPollOf(entry, project)) continue;
      if (entry.at <= at) before = Math.max(before, entry.at);
      else after = Math.min(after, entry.at);
    }
    if (before !== Number.NEGATIVE_INFINITY) longest = Math.max(longest, after - before);
  }
  return longest;
}

/** True once every project was polled (with its key) after `since`. */
export const allPolledSince = (
  requests: readonly RequestLogEntry[],
  projects: readonly string[],
  since: number,
  path = '',
): boolean => {
  const polled = new Set<string>();
  for (let i = requests.length - 1; i >= 0; i--) {
    const entry = requests[i]!;
    if (entry.at <= since) break;
    for (const project of projects)
      if (isPollOf(entry, project) && entry.path.endsWith(path)) polled.add(project);
  }
  return projects.every((p) => polled.has(p));
};

/** Median gap between consecutive `/fundings` polls of each project in [from, to]: the poll interval. */
export function medianFundingsIntervalMs(
  requests: readonly RequestLogEntry[],
  projects: readonly string[],
  from: number,
  to: number,
): number {
  const gaps: number[] = [];
  for (const project of projects) {
    const times = requests
      .filter((e) => e.at >= from && e.at <= to && e.path === `/project/${project}/fundings`)
      .map((e) => e.at);
    for (let i = 1; i < times.length; i++) gaps.push(times[i]! - times[i - 1]!);
  }
  gaps.sort((a, b) => a - b);
  return gaps.length === 0 ? Number.NaN : gaps[Math.floor(gaps.length / 2)]!;
}

/**
 * The failover as the issue measures it: the longest any of `projects` waited from `at` (a replica's death) to
 * its first request (with its key) whose path ends with `path`. Requests in the first 100 ms are left out: the
 * dead replica's own, still in flight. A project never polled again counts as Infinity.
 */
export function firstPollAfterMs(
  requests: readonly RequestLogEntry[],
  projects: readonly string[],
  at: number,
  path = '',
): number {
  let longest = 0;
  for (const project of projects) {
    const first = requests.find((e) => e.at > at + 100 && isPollOf(e, project) && e.path.endsWith(path));
    longest = Math.max(longest, first === undefined ? Number.POSITIVE_INFINITY : first.at - at);
  }
  return longest;
}

/** HTTP 429 answers to project keys since `since` (of `projects` only, when given): a budget overrun. */
export function rateLimited(
  requests: readonly RequestLogEntry[],
  since: number,
  projects?: readonly string[],
): number {
  return requests.filter(
    (e) =>
      e.at >= since &&
      e.status === 429 &&
      e.credential === 'project' &&
      (projects === undefined || projects.some((p) => isPollOf(e, p))),
  ).length;
}
