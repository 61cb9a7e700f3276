import { singleLine } from '../domain/text.js';
import { limits } from '../domain/text-limits.js';
import { CommandRefusal } from './command-refusal.js';
import type { CommandRun } from './commands/command-run.js';
import { listWithMore } from './commands/command-run.js';
import { projectVisibleTo } from './hosted-projects.js';
import type { WatchedProject } from './ports.js';

function watchedList(run: CommandRun, watched: readonly WatchedProject[]) {
  return listWithMore(
    run.t,
    watched.map((w) => singleLine(w.linkCaption, limits.title)),
    limits.projectsListed,
  );
}

/**
 * The watched projects this command's workspace may see: the operator's and its own connected ones
 * (never another workspace's: {@link projectVisibleTo}).
 */
export function visibleWatched(run: Pick<CommandRun, 'deps' | 'invocation'>): readonly WatchedProject[] {
  const { channel } = run.invocation.context;
  return run.deps.readModel
    .watchedProjects()
    .filter((w) => projectVisibleTo(run.deps.hosted, channel, w.linkCaption));
}

/** A watched project by link caption (or title), case-insensitive. */
export function findWatched(watched: readonly WatchedProject[], given: string): WatchedProject | undefined {
  const wanted = given.trim().toLowerCase();
  return (
    watched.find((w) => w.linkCaption.toLowerCase() === wanted) ??
    watched.find((w) => w.title.trim().toLowerCase() === wanted)
  );
}

/**
 * The project a command is about. Given: it must be watched (else a private
 * error listing the watched ones). Omitted: the configured default, else the
 * only watched project, else the channel's only subscribed project, else a
 * private "which project?".
 */
export async function resolveProject(
  run: CommandRun,
  options: { allowSubscribed?: boolean } = {},
): Promise<WatchedProject> {
  let watched = visibleWatched(run);
  const given = run.invocation.options['project'];
  if (typeof given === 'string' && given.trim() !== '') {
    let match = findWatched(watched, given);
    if (!match && run.deps.hosted) {
      // Connected on another replica a moment ago (each syncs every few seconds): look once more.
      await run.deps.hosted.refresh();
      watched = visibleWatched(run);
      match = findWatched(watched, given);
    }
    if (match) return match;
    if (options.allowSubscribed) {
      // Unsubscribing must work for a project that is no longer watched.
      const subscribed = await run.deps.subscriptions.forChannel(run.invocation.context.channel);
      const sub = subscribed.find((s) => s.project.toLowerCase() === given.trim().toLowerCase());
      if (sub) return { linkCaption: sub.project, title: sub.project };
    }
    throw new CommandRefusal((t) =>
      watched.length === 0
        ? t.errors.noWatchedProjects
        : t.errors.unknownProject(singleLine(given, limits.title), watchedList(run, watched)),
    );
  }
  const fallback = run.deps.defaultProject;
  if (fallback) return findWatched(watched, fallback) ?? { linkCaption: fallback, title: fallback };
  if (watched.length === 1) return watched[0] as WatchedProject;
  const subscribed = await run.deps.subscriptions.forChannel(run.invocation.context.channel);
  const projects = [...new Set(subscribed.map((s) => s.project))];
  if (projects.length === 1) {
    const only = projects[0] as string;
    return findWatched(watched, only) ?? { linkCaption: only, title: only };
  }
  throw new CommandRefusal((t) =>
    watched.length === 0 ? t.errors.noWatchedProjects : t.errors.whichProject(watchedList(run, watched)),
  );
}
