import type { EngineStatus } from '../../domain/read-model.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { formatInterval } from '../duration.js';
import { formatAge, formatMoney } from '../format.js';
import type { MessageField, NeutralMessage } from '../message.js';
import { noteText } from '../note-text.js';
import { visibleWatched } from '../resolve-project.js';
import { cannotPostIn } from './cannot-post-line.js';
import type { CommandRun } from './command-run.js';
import { typedCommand } from './command-run.js';

/** Figures older than this are still shown in the overview: it never makes the platform wait. */
const overviewMaxAgeMs = 6 * 3_600_000;

/**
 * Where a team looks (issues 24 and 30): every project this workspace can use (its connected ones and the
 * operator's), with its funding, which of the workspace's channels get which notices and which of them
 * fundbot cannot post in (their notices held for a catch-up), and its health (last poll, a key or scope
 * problem). The Slack App Home and Discord's /status (without a project) show it, the same on every replica:
 * the status and the channel states come from the store, where the replica that found them out wrote them.
 *
 * Cost: from the engine's cache (a project read older than 6 h is refreshed), per project one subscription
 * read, two status reads (status-board.ts) and one access read per listed channel; no platform request.
 */
export async function workspaceOverview(run: CommandRun): Promise<NeutralMessage> {
  const { t, locale } = run;
  const { channel } = run.invocation.context;
  const hosted = run.deps.hosted;
  const projects = visibleWatched(run).slice(0, limits.fields);
  const fields: MessageField[] = await Promise.all(
    projects.map(async (w): Promise<MessageField> => {
      const lines: string[] = [];
      const owner = hosted?.ownerOf(w.linkCaption);
      const status = await run.deps.readModel.status(w.linkCaption).catch(() => undefined);
      lines.push(await fundingLine(run, w.linkCaption, status));
      const here = (await run.deps.subscriptions.forProject(w.linkCaption)).filter(
        (s) => s.channel.platform === channel.platform && s.channel.workspaceId === channel.workspaceId,
      );
      const shown = here.slice(0, 10);
      lines.push(
        shown.length > 0
          ? t.hosted.channels(
              shown.map((s) => `${channelMention(s.channel.channelId)} ${t.common.list(s.kinds)}`).join('; '),
            )
          : t.hosted.noChannels(typedCommand(run, 'subscribe')),
      );
      // A channel fundbot cannot post in (shared in the store by whichever replica found out): its notices wait.
      for (const s of shown) {
        const found = await cannotPostIn(run, s.channel);
        if (found)
          lines.push(t.hosted.cannotPost(channelMention(s.channel.channelId), found.problem, found.since));
      }
      if (status !== undefined) {
        const last = Math.max(0, ...status.feeds.map((f) => f.lastSuccessAt ?? 0));
        lines.push(
          last > 0
            ? t.hosted.lastPoll(formatPollAge(run, last, status.reportedEveryMs))
            : t.hosted.neverPolled,
        );
        if (status.paused)
          lines.push(t.hosted.keyProblem(noteText(status.paused.reason, t, locale, run.timeZone)));
        for (const feed of status.feeds) {
          if (feed.disabledReason !== undefined)
            lines.push(t.hosted.keyProblem(noteText(feed.disabledReason, t, locale, run.timeZone)));
        }
      } else {
        lines.push(t.hosted.neverPolled);
      }
      // The title as the poller read it (this replica may not have read the project itself).
      const known = status?.project?.title ?? w.title;
      const title = singleLine(
        known && known !== w.linkCaption ? `${known} (${w.linkCaption})` : w.linkCaption,
        limits.title,
      );
      const channels = shown.map((s) => s.channel.channelId);
      return owner
        ? {
            name: title,
            value: lines.join('\n'),
            channels,
            action: { kind: 'disconnect', project: w.linkCaption },
          }
        : { name: `${title} · ${t.hosted.fromOperator}`, value: lines.join('\n'), channels };
    }),
  );
  return {
    title: t.hosted.overviewTitle(t.hosted.place(channel.platform)),
    ...(fields.length > 0 ? { fields } : { text: t.hosted.overviewNone(typedCommand(run, 'connect')) }),
    tone: 'info',
  };
}

/**
 * The funding as the polling replica shared it (the same on every replica); before it shared any, this
 * replica's own read (a project read older than 6 h is refreshed).
 */
async function fundingLine(
  run: CommandRun,
  linkCaption: string,
  status: EngineStatus | undefined,
): Promise<string> {
  const { t, locale } = run;
  const shared = status?.project;
  if (shared !== undefined)
    return t.hosted.funding(
      formatMoney(shared.current, shared.currency, locale),
      formatMoney(shared.goal, shared.currency, locale),
    );
  try {
    const { value: project } = await run.deps.readModel.project(linkCaption, overviewMaxAgeMs);
    return t.hosted.funding(
      formatMoney(project.current_funding, project.currency, locale),
      formatMoney(project.funding_threshold, project.currency, locale),
    );
  } catch {
    return t.hosted.fundingUnknown;
  }
}

/**
 * How long ago a poll was, as the status knows it: the fleet's shared status keeps poll times to within
 * `reportedEveryMs` (status-board.ts), so a younger one is said as "within the last 15 minutes".
 */
export function formatPollAge(run: CommandRun, at: number, reportedEveryMs: number | undefined): string {
  const age = run.now - at;
  if (reportedEveryMs !== undefined && age < reportedEveryMs)
    return run.t.status.within(formatInterval(reportedEveryMs, run.t));
  return formatAge(age, run.locale);
}

/**
 * A channel as the overview names it: `#<id>` (ids only, never user text). The field lists the ids in
 * `channels`, so Discord shows them as channel mentions; Slack's overview is plain text (the ids show).
 */
function channelMention(channelId: string): string {
  return `#${channelId}`;
}
