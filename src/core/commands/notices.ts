import {
  namesSupporter,
  noticesShown,
  type TracedNotice,
  type TraceState,
} from '../../domain/notice-trace.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { Catalog } from '../i18n/catalog.js';
import type { MessageField, MessageLink, NeutralMessage } from '../message.js';
import { messageUrl } from '../message-url.js';
import type { ChannelRef } from '../ports.js';
import { formatClock, formatDateTime } from '../time-format.js';
import { type CommandRun, typedCommand } from './command-run.js';

/** Notices of this channel /why searches: every one the trace keeps (src/delivery/notice-trace-store.ts). */
const whySearched = 36;
/** Matches /why lists for one name. */
const whyShown = 5;
/** Channels the App Home's section lists (each with its last notices); the rest are named as a count. */
export const homeChannelsShown = 3;

/**
 * /notices (Slack `/fundbot notices`): the channel's last 20 notices, newest first, each with where it stands
 * now (posted with a link, held by pacing or quiet hours until when, cannot post since when, in doubt and how
 * that ended, corrected, filtered). Private to the member who asked; store reads only, no platform request.
 * A notice's public names or title are shown once the channel was shown the notice itself.
 */
export async function noticesCommand(run: CommandRun): Promise<NeutralMessage> {
  const read = run.deps.recentNotices;
  if (!read) return { text: run.t.errors.internal, tone: 'error', private: true };
  const { channel } = run.invocation.context;
  const notices = await read(channel, noticesShown);
  const t = run.t.trace;
  if (notices.length === 0) return { title: t.title, text: t.empty, tone: 'info', private: true };
  const links: MessageLink[] = [];
  const fields = notices.map((notice, index): MessageField => {
    const url = linkOf(channel, notice.now);
    if (url) links.push({ label: t.open(index + 1), url });
    return {
      name: singleLine(
        `${index + 1}. ${when(run, notice.seenAt)} · ${describe(run.t, notice)}`,
        limits.messageTitle,
      ),
      value: stateLines(run, notice).join('\n'),
    };
  });
  return {
    title: t.title,
    fields,
    ...(links.length > 0 ? { links } : {}),
    footer: t.footer(notices.length, typedCommand(run, 'why')),
    tone: 'info',
    private: true,
  };
}

/**
 * /why <name> (Slack `/fundbot why <name>`): for one supporter, as the notices named them, which notice of this
 * channel named them, when it happened and was seen, and what came of it here. Searches the channel's trace
 * (its last 36 notices); names compare exactly, ignoring case and spacing. Private; store reads only.
 */
export async function whyCommand(run: CommandRun): Promise<NeutralMessage> {
  const read = run.deps.recentNotices;
  if (!read) return { text: run.t.errors.internal, tone: 'error', private: true };
  const t = run.t.trace;
  const asked = singleLine(String(run.invocation.options['name'] ?? ''), limits.name);
  if (asked === '') return { text: t.whyNeedsName(typedCommand(run, 'why')), tone: 'error', private: true };
  const { channel } = run.invocation.context;
  const found = (await read(channel, whySearched)).filter((n) => namesSupporter(n, asked));
  if (found.length === 0) {
    return {
      text: t.whyNone(asked, whySearched, typedCommand(run, 'notices')),
      tone: 'info',
      private: true,
    };
  }
  const shown = found.slice(0, whyShown);
  const links: MessageLink[] = [];
  const lines = shown.map((notice, index) => {
    const url = linkOf(channel, notice.now);
    if (url) links.push({ label: t.open(index + 1), url });
    const what = run.t.trace.notice(notice.type, notice.count, undefined);
    return `${shown.length > 1 ? `${index + 1}. ` : ''}${t.whyLine(
      what,
      notice.project,
      when(run, notice.occurredAt),
      when(run, notice.seenAt),
      stateLines(run, notice).join('; '),
    )}`;
  });
  return {
    title: t.whyTitle(asked),
    text: lines.join('\n'),
    ...(links.length > 0 ? { links } : {}),
    tone: 'info',
    private: true,
  };
}

/**
 * The App Home's section: for the workspace's first channels with subscriptions, their last notices as /notices
 * lists them (one line each), the rest of the channels counted. Channels are named `#<id>` (ids only).
 */
export async function noticesOverviewFields(
  run: CommandRun,
  channels: readonly ChannelRef[],
): Promise<MessageField[]> {
  const read = run.deps.recentNotices;
  if (!read || channels.length === 0) return [];
  const t = run.t.trace;
  const fields: MessageField[] = [];
  for (const channel of channels.slice(0, homeChannelsShown)) {
    const notices = await read(channel, noticesShown);
    fields.push({
      name: `#${channel.channelId}`,
      value: notices.length === 0 ? t.empty : '',
      items: notices.map(
        (n) => `${when(run, n.seenAt)} · ${describe(run.t, n)}: ${stateLines(run, n).join('; ')}`,
      ),
      channels: [channel.channelId],
    });
  }
  if (channels.length > homeChannelsShown) {
    fields.push({
      name: '…',
      value: t.homeMore(channels.length - homeChannelsShown, typedCommand(run, 'notices')),
    });
  }
  return fields;
}

/** What the notice was, with its public names or title once the channel was shown it. */
function describe(t: Catalog, notice: TracedNotice): string {
  const shown = notice.now.state === 'posted';
  const label = [...notice.names, ...(notice.subject ? [notice.subject] : [])].join(', ');
  const more = notice.count > notice.names.length && notice.names.length > 0 ? ', …' : '';
  const what = t.trace.notice(notice.type, notice.count, undefined);
  if (!label) return what;
  return shown
    ? t.trace.notice(notice.type, notice.count, `${label}${more}`)
    : `${what} (${t.trace.notShownYet})`;
}

/** The state now, then what happened on the way (a doubt and its end, a correction). */
function stateLines(run: CommandRun, notice: TracedNotice): string[] {
  const t = run.t.trace;
  const lines = [stateText(run, notice.now)];
  if (notice.doubtSince !== undefined && notice.now.state !== 'in-doubt')
    lines.push(t.wasInDoubt(when(run, notice.doubtSince), notice.doubtOutcome));
  if (notice.correctedAt !== undefined) lines.push(t.corrected(when(run, notice.correctedAt)));
  return lines;
}

function stateText(run: CommandRun, state: TraceState): string {
  const t = run.t.trace;
  switch (state.state) {
    case 'posted':
      return state.inBatch ? t.postedInBatch(when(run, state.at)) : t.posted(when(run, state.at));
    case 'held':
      return state.reason === 'quiet-hours'
        ? t.heldQuiet(when(run, state.until))
        : t.heldPaced(when(run, state.until));
    case 'cannot-post':
      return t.cannotPost(when(run, state.since));
    case 'awaiting-answer':
      return t.awaitingAnswer(when(run, state.since));
    case 'in-doubt':
      return t.inDoubt(when(run, state.since));
    case 'retrying':
      return t.retrying(when(run, state.since));
    case 'given-up':
      return t.givenUp(when(run, state.at));
    case 'filtered':
      return t.filtered;
    case 'digest':
      return t.digest;
    case 'queued':
      return t.queued;
  }
}

function linkOf(channel: ChannelRef, state: TraceState): string | undefined {
  return state.state === 'posted' && state.messageId ? messageUrl(channel, state.messageId) : undefined;
}

/** A time on the channel's clock; with its date when it is not within the last 20 hours. */
function when(run: CommandRun, at: number): string {
  return Math.abs(run.now - at) < 20 * 3_600_000
    ? formatClock(at, run.locale, run.timeZone)
    : formatDateTime(at, run.locale, run.timeZone);
}
