import { isPubliclyVisible, isSoldOut } from '../api/index.js';
import type { HistoryPoint, Locale, ProjectReadModel } from '../core/index.js';
import { localTime, percentOfGoal } from '../core/index.js';
import { type DigestSection, type EngineNote, note } from '../domain/engine-notes.js';
import { defaultMilestones } from '../domain/milestones.js';
import { htmlToPlainText, safeHttpUrl, singleLine } from '../domain/text.js';
import { limits } from '../domain/text-limits.js';
import { downsampleSeries, type SeriesPoint } from './downsample-series.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** How old cached engine data may be when the digest is built: a day-old summary tolerates a few minutes. */
const MAX_AGE_MS = 5 * 60 * 1000;
/** How many wall posts to read: more in one day is reported as "at least this many". */
const WALL_LIMIT = 50;
const BLOG_LIMIT = 20;
/** The chart has 800 columns; more points than that only cost bytes. */
const CHART_POINTS = 800;

export interface BuildDigestOptions {
  readonly readModel: ProjectReadModel;
  /** The project's link_caption. */
  readonly project: string;
  /** Epoch ms the digest is built for: "the last 24 hours" end here. */
  readonly now: number;
  /** The default locale of {@link renderDigest} (the data itself is locale-neutral). */
  readonly locale: Locale;
  /** IANA time zone of the digest's date and of the dates it shows. */
  readonly timeZone: string;
  /** Percentages of the goal that count as milestones. */
  readonly milestones?: readonly number[];
}

/** Pace towards the goal at the recent rate. */
export type DigestPace =
  | { readonly kind: 'goal-reached' }
  | { readonly kind: 'no-goal' }
  /** Less than an hour of history: no honest rate. */
  | { readonly kind: 'unknown' }
  /** No net funding over the basis window. */
  | { readonly kind: 'no-supports'; readonly basisDays: number }
  | {
      readonly kind: 'eta';
      /** Epoch ms when the goal is reached at the current rate. */
      readonly at: number;
      readonly perDay: number;
      /** Length of the rate's window in days: 7, or less when the history is shorter. */
      readonly basisDays: number;
    };

/** A section that could not be read (missing scope, API down) is `null`: the digest still goes out. */
export interface DigestData {
  readonly project: {
    readonly linkCaption: string;
    /** Plain text, one line. */
    readonly title: string;
    readonly currency: string;
    /** Absolute http(s) link, when the API gave one. */
    readonly url?: string;
  };
  readonly generatedAt: number;
  readonly timeZone: string;
  readonly locale: Locale;
  /** The local date the digest is for, `YYYY-MM-DD`. */
  readonly date: string;
  readonly funding: {
    readonly current: number;
    readonly goal: number;
    /** Percent of the goal (0 when there is no goal). */
    readonly percent: number;
    readonly supporters: number;
  };
  /**
   * The one window every figure below is counted over: the last 24 hours when
   * the history covers them (`full`), else from the first snapshot that knows
   * both funding and reward sales. Without any history: the last 24 hours for
   * the sections with their own timestamps (wall, blog), and no change.
   */
  readonly window: { readonly sinceMs: number; readonly full: boolean };
  /** Change over {@link DigestData.window}; null without any history before now. */
  readonly change: {
    readonly funding: number;
    readonly supporters: number;
    /** Epoch ms of the baseline: the window's start. */
    readonly sinceMs: number;
  } | null;
  /** Milestones (percent) first reached in the window, ascending. */
  readonly milestones: readonly number[];
  readonly wall: {
    readonly count: number;
    /** True when the read limit was hit: "at least `count`". */
    readonly countIsLowerBound: boolean;
    readonly latest: { readonly author: string; readonly message: string; readonly at: number } | null;
  } | null;
  /** Titles and flags only: a digest never carries blog content. */
  readonly blogPosts:
    | readonly { readonly title: string; readonly supporterOnly: boolean; readonly at: number }[]
    | null;
  /**
   * Publicly visible rewards sold in the window, most sold first; null when the
   * rewards cannot be read or no snapshot knows their sales yet (never the
   * sales since the campaign began).
   */
  readonly rewardsSold: readonly { readonly title: string; readonly sold: number }[] | null;
  /** Publicly visible limited rewards that are sold out now. */
  readonly soldOut: readonly { readonly title: string }[] | null;
  readonly pace: DigestPace;
  /** The funding curve over the whole campaign, for the chart (downsampled). */
  readonly chart: {
    readonly points: readonly SeriesPoint[];
    readonly goal: number;
    /** The project's milestone levels in percent of the goal, ascending. */
    readonly milestones: readonly number[];
    /** Net new supporters per local day (start of the day, epoch ms), oldest first. */
    readonly supportersPerDay: readonly { readonly dayStart: number; readonly count: number }[];
  };
  /** Why some engine data was stale or a section unavailable: notes, each said once (empty when all is fresh). */
  readonly stale: readonly EngineNote[];
}

/** The last point at or before `at`, or undefined. `points` is oldest first. */
function pointAtOrBefore(points: readonly HistoryPoint[], at: number): HistoryPoint | undefined {
  let found: HistoryPoint | undefined;
  for (const point of points) {
    if (point.at > at) break;
    found = point;
  }
  return found;
}

/** Baseline for a window: the state at its start, or the first point when the history starts later. */
function baselineFor(points: readonly HistoryPoint[], windowStart: number): HistoryPoint | undefined {
  return pointAtOrBefore(points, windowStart) ?? points[0];
}

const knowsSales = (point: HistoryPoint) => Object.keys(point.rewardsSold).length > 0;

/**
 * The digest's baseline: the funding baseline of the last 24 hours, moved forward
 * to the first snapshot that knows the reward sales when it does not. The engine's
 * first snapshot can be taken before its first reward read (empty `rewardsSold`):
 * counting from it would report every sale since the campaign began as new.
 * `salesKnown` is false when no snapshot in reach knows them (or there are no rewards).
 */
function windowBaseline(
  points: readonly HistoryPoint[],
  dayStart: number,
  hasRewards: boolean,
): { point: HistoryPoint; salesKnown: boolean } | undefined {
  const funding = baselineFor(points, dayStart);
  if (!funding) return undefined;
  if (!hasRewards || knowsSales(funding)) return { point: funding, salesKnown: knowsSales(funding) };
  // By position, not time: the engine can take both snapshots in the same millisecond.
  const sales = points.slice(points.indexOf(funding) + 1).find(knowsSales);
  return sales ? { point: sales, salesKnown: true } : { point: funding, salesKnown: false };
}

/** Epoch ms of the local midnight before `at` (whole-minute offsets, as every current zone has). */
function startOfLocalDay(at: number, timeZone: string): number {
  return at - (at % 60_000) - localTime(at, timeZone).minuteOfDay * 60_000;
}

/** Net supporter change per local day, from snapshot deltas; the last day ends at `current`. */
function supportersPerDay(
  points: readonly HistoryPoint[],
  current: { at: number; supporters: number },
  timeZone: string,
): { dayStart: number; count: number }[] {
  const days = new Map<number, number>();
  const series = [...points, { ...current, funding: 0, rewardsSold: {} }];
  for (let i = 1; i < series.length; i++) {
    const day = startOfLocalDay(series[i]!.at, timeZone);
    days.set(day, (days.get(day) ?? 0) + series[i]!.supporters - series[i - 1]!.supporters);
  }
  return [...days].map(([dayStart, count]) => ({ dayStart, count })).sort((a, b) => a.dayStart - b.dayStart);
}

async function optional<T>(
  read: () => Promise<T>,
  problems: EngineNote[],
  section: DigestSection,
): Promise<T | null> {
  try {
    return await read();
  } catch {
    // The digest is a summary: a missing wall scope must not suppress the funding numbers.
    problems.push(note('section-unavailable', { section }));
    return null;
  }
}

/**
 * Gathers what happened to a project in the 24 hours before `now`, from the
 * engine's cache and funding history. Pure data: rendering and language come
 * later ({@link renderDigest}). Throws only when the project itself cannot be read.
 */
export async function buildDigest(options: BuildDigestOptions): Promise<DigestData> {
  const { readModel, project: linkCaption, now, timeZone } = options;
  const milestoneLevels = [...(options.milestones ?? defaultMilestones)].sort((a, b) => a - b);
  const dayStart = now - DAY_MS;
  const problems: EngineNote[] = [];

  const projectCached = await readModel.project(linkCaption, MAX_AGE_MS);
  const project = projectCached.value;
  if (projectCached.staleBecause) problems.push(projectCached.staleBecause);

  // History is only needed up to now: a later point (clock skew between replicas) is ignored.
  const history = (await readModel.history(linkCaption, 0)).filter((p) => p.at <= now);
  const [rewardsCached, wallCached, blogCached] = await Promise.all([
    optional(() => readModel.rewards(linkCaption, MAX_AGE_MS), problems, 'rewards'),
    optional(() => readModel.recentWallPosts(linkCaption, WALL_LIMIT), problems, 'wall'),
    optional(() => readModel.recentBlogPosts(linkCaption, BLOG_LIMIT), problems, 'blog'),
  ]);
  for (const cached of [rewardsCached, wallCached, blogCached]) {
    if (cached?.staleBecause) problems.push(cached.staleBecause);
  }

  const current = project.current_funding;
  const goal = project.funding_threshold;
  const supporters = project.supporter_count;

  const visibleRewards = rewardsCached ? rewardsCached.value.filter((r) => isPubliclyVisible(r)) : null;
  // One window for every figure: current values against the baseline snapshot at its start.
  const baseline = windowBaseline(history, dayStart, (rewardsCached?.value.length ?? 0) > 0);
  const dayBaseline = baseline?.point;
  const sinceMs = dayBaseline ? Math.max(dayStart, dayBaseline.at) : dayStart;
  const window = { sinceMs, full: sinceMs <= dayStart };
  const change = dayBaseline
    ? { funding: current - dayBaseline.funding, supporters: supporters - dayBaseline.supporters, sinceMs }
    : null;

  // A milestone counts when funding crosses it inside the window and never reached it before:
  // a dip and a recovery must not announce 50 % twice.
  const milestones: number[] = [];
  if (goal > 0 && dayBaseline) {
    const before = history.filter((p) => p.at <= sinceMs);
    const maxBefore = Math.max(0, ...before.map((p) => p.funding));
    const maxInWindow = Math.max(current, ...history.filter((p) => p.at > sinceMs).map((p) => p.funding));
    for (const level of milestoneLevels) {
      const threshold = (goal * level) / 100;
      if (maxBefore < threshold && maxInWindow >= threshold) milestones.push(level);
    }
  }

  const wall = wallCached
    ? (() => {
        const posts = wallCached.value
          .filter((p) => p.created_timestamp * 1000 > sinceMs && p.created_timestamp * 1000 <= now)
          .sort((a, b) => b.created_timestamp - a.created_timestamp);
        const latest = posts[0];
        return {
          count: posts.length,
          countIsLowerBound: posts.length >= WALL_LIMIT,
          latest: latest
            ? {
                author: singleLine(latest.user.display_name, limits.name),
                // As in the engine's wall notices: the message may carry HTML; only its text is shown.
                message: singleLine(htmlToPlainText(latest.message), limits.quotedMessage) || '…',
                at: latest.created_timestamp * 1000,
              }
            : null,
        };
      })()
    : null;

  const blogPosts = blogCached
    ? blogCached.value
        .filter((p) => p.release_timestamp * 1000 > sinceMs && p.release_timestamp * 1000 <= now)
        .sort((a, b) => b.release_timestamp - a.release_timestamp)
        .map((p) => ({
          title: singleLine(p.title, limits.title),
          supporterOnly: p.is_supporter_only,
          at: p.release_timestamp * 1000,
        }))
    : null;

  const rewardsSold =
    visibleRewards && dayBaseline
      ? !baseline.salesKnown && visibleRewards.length > 0
        ? null
        : visibleRewards
            .map((r) => ({
              title: singleLine(r.title, limits.title),
              // A reward missing from the baseline did not exist then: all its sales are new.
              sold: r.quantity_sold - (dayBaseline.rewardsSold[String(r.id)] ?? 0),
            }))
            .filter((r) => r.sold > 0)
            .sort((a, b) => b.sold - a.sold || a.title.localeCompare(b.title, options.locale))
      : visibleRewards
        ? []
        : null;
  const soldOut = visibleRewards
    ? visibleRewards.filter(isSoldOut).map((r) => ({ title: singleLine(r.title, limits.title) }))
    : null;

  const url = safeHttpUrl(project.url.main);
  // The same note twice (two sections stale for one reason) is said once.
  const stale = [...new Map(problems.map((p) => [JSON.stringify(p), p])).values()];
  return {
    project: {
      linkCaption,
      title: singleLine(project.title, limits.title),
      currency: project.currency,
      ...(url ? { url } : {}),
    },
    generatedAt: now,
    timeZone,
    locale: options.locale,
    date: localTime(now, timeZone).date,
    funding: { current, goal, percent: percentOfGoal(current, goal), supporters },
    window,
    change,
    milestones,
    wall,
    blogPosts,
    rewardsSold,
    soldOut,
    pace: paceOf(history, current, goal, now),
    chart: {
      points: downsampleSeries(
        [...history.map((p) => ({ at: p.at, funding: p.funding })), { at: now, funding: current }],
        CHART_POINTS,
      ),
      goal,
      milestones: milestoneLevels,
      supportersPerDay: supportersPerDay(history, { at: now, supporters }, timeZone),
    },
    stale,
  };
}

/** Pace over the last 7 days (or the shorter history), extrapolated linearly to the goal. */
function paceOf(history: readonly HistoryPoint[], current: number, goal: number, now: number): DigestPace {
  if (goal <= 0) return { kind: 'no-goal' };
  if (current >= goal) return { kind: 'goal-reached' };
  const baseline = baselineFor(history, now - 7 * DAY_MS);
  if (!baseline || now - baseline.at < HOUR_MS) return { kind: 'unknown' };
  const basisMs = Math.min(7 * DAY_MS, now - baseline.at);
  const basisDays = basisMs / DAY_MS;
  const gained = current - baseline.funding;
  if (gained <= 0) return { kind: 'no-supports', basisDays };
  const perDay = gained / basisDays;
  return { kind: 'eta', at: now + ((goal - current) / perDay) * DAY_MS, perDay, basisDays };
}
