import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { formatAge, formatMoney } from '../format.js';
import type { MessageField, NeutralMessage } from '../message.js';
import { noteText } from '../note-text.js';
import { visibleWatched } from '../resolve-project.js';
import type { CommandRun } from './command-run.js';
import { typedCommand } from './command-run.js';

/** Figures older than this are still shown in the overview: it never makes the platform wait. */
const overviewMaxAgeMs = 6 * 3_600_000;

/**
 * Where a team looks (issue 24): every project this workspace can use (its connected ones and the
 * operator's), with its funding, which of the workspace's channels get which notices, and its health (last
 * poll, a key problem). The Slack App Home and Discord's /status (without a project) show it.
 *
 * Cost: from the engine's cache (a project read older than 6 h is refreshed), one subscription read per
 * project; no request to the chat platform.
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
      try {
        const { value: project } = await run.deps.readModel.project(w.linkCaption, overviewMaxAgeMs);
        lines.push(
          t.hosted.funding(
            formatMoney(project.current_funding, project.currency, locale),
            formatMoney(project.funding_threshold, project.currency, locale),
          ),
        );
      } catch {
        lines.push(t.hosted.fundingUnknown);
      }
      const here = (await run.deps.subscriptions.forProject(w.linkCaption)).filter(
        (s) => s.channel.platform === channel.platform && s.channel.workspaceId === channel.workspaceId,
      );
      lines.push(
        here.length > 0
          ? t.hosted.channels(
              here
                .slice(0, 10)
                .map(
                  (s) =>
                    `${channelMention(s.channel.platform, s.channel.channelId)} ${t.common.list(s.kinds)}`,
                )
                .join('; '),
            )
          : t.hosted.noChannels(typedCommand(run, 'subscribe')),
      );
      try {
        const status = await run.deps.readModel.status(w.linkCaption);
        const last = Math.max(0, ...status.feeds.map((f) => f.lastSuccessAt ?? 0));
        lines.push(last > 0 ? t.hosted.lastPoll(formatAge(run.now - last, locale)) : t.hosted.neverPolled);
        if (status.paused)
          lines.push(t.hosted.keyProblem(noteText(status.paused.reason, t, locale, run.timeZone)));
        for (const feed of status.feeds) {
          if (feed.disabledReason !== undefined)
            lines.push(t.hosted.keyProblem(noteText(feed.disabledReason, t, locale, run.timeZone)));
        }
      } catch {
        lines.push(t.hosted.neverPolled);
      }
      const title = singleLine(
        w.title && w.title !== w.linkCaption ? `${w.title} (${w.linkCaption})` : w.linkCaption,
        limits.title,
      );
      return owner
        ? { name: title, value: lines.join('\n'), action: { kind: 'disconnect', project: w.linkCaption } }
        : { name: `${title} · ${t.hosted.fromOperator}`, value: lines.join('\n') };
    }),
  );
  return {
    title: t.hosted.overviewTitle(t.hosted.place(channel.platform)),
    ...(fields.length > 0 ? { fields } : { text: t.hosted.overviewNone(typedCommand(run, 'connect')) }),
    tone: 'info',
  };
}

/** A channel as the platform shows it (ids only: never user text). */
function channelMention(platform: string, channelId: string): string {
  // Discord renders the mention as the channel's name; Slack's overview is plain text (the ids show).
  return platform === 'discord' ? `<#${channelId}>` : `#${channelId}`;
}
