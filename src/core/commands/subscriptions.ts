import { errorSummary } from '../../domain/error-summary.js';
import { type NoticeKind, noticeKinds } from '../../domain/events.js';
import { type PacedKind, pacedKinds } from '../../domain/pacing-modes.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { ensureBotCanPost } from '../check-channel-access.js';
import { CommandRefusal } from '../command-refusal.js';
import { formatNumber } from '../format.js';
import type { NeutralMessage } from '../message.js';
import { watchingNotice } from '../notices/watching-notice.js';
import type { WatchedProject } from '../ports.js';

import { findWatched, resolveProject, visibleWatched } from '../resolve-project.js';
import { formatQuietHours } from '../settings/pacing-settings.js';
import { campaignLines } from './campaign.js';
import { cannotPostLine } from './cannot-post-line.js';
import { type CommandRun, typedCommand } from './command-run.js';
import { noticeRulesLines } from './notice-rules-lines.js';
import { describePacing, pacingOf } from './pacing.js';

/**
 * Parses the `kinds` option: space or comma separated, case-insensitive,
 * `all` or nothing meaning every kind. Unknown words are refused with the
 * valid list, so a typo never silently subscribes to less than intended.
 */
export function parseKinds(raw: unknown): NoticeKind[] | { readonly invalid: readonly string[] } {
  const words =
    typeof raw === 'string'
      ? raw
          .toLowerCase()
          .split(/[\s,;]+/)
          .filter(Boolean)
      : [];
  if (words.length === 0 || words.includes('all')) return [...noticeKinds];
  const valid = new Set<string>(noticeKinds);
  const invalid = words.filter((w) => !valid.has(w));
  if (invalid.length > 0) return { invalid: [...new Set(invalid)] };
  return noticeKinds.filter((k) => words.includes(k));
}

function kindsOrRefuse(run: CommandRun): NoticeKind[] {
  const parsed = parseKinds(run.invocation.options['kinds']);
  if (!Array.isArray(parsed)) {
    const invalid = parsed.invalid.map((w) => `"${singleLine(w, limits.name)}"`).join(', ');
    throw new CommandRefusal((t) => t.subscriptions.invalidKinds(invalid, noticeKinds.join(', ')));
  }
  return parsed;
}

/**
 * /subscribe <project> [kinds]: route notices of a watched project to this channel,
 * once the bot is known to be able to post here (nothing is stored otherwise).
 * The first subscription of a channel to a project is followed by a public
 * "now watching" summary of the project.
 */
/** How long /subscribe waits for the replica that polls the project to store its first read. */
const baselineWaitMs = 10_000;

export async function subscribeCommand(run: CommandRun): Promise<NeutralMessage> {
  const project = await resolveProject(run);
  const kinds = kindsOrRefuse(run);
  const { context } = run.invocation;
  await ensureBotCanPost(run);
  await run.deps.subscriptions.subscribe(context.channel, project.linkCaption, kinds, context.user.id);
  // "Now gets notices" must hold from the answer on: the supporters' baseline is stored before it goes out
  // (a project's first start, or one another replica took on a moment ago). Issue 30.
  const watching = await run.deps.readModel.baseline(project.linkCaption, baselineWaitMs).catch(() => false);
  const followUp = await watchingFollowUp(run, project.linkCaption);
  const title = singleLine(project.title, limits.title);
  const subscribed = run.t.subscriptions.subscribed(title, run.t.common.list(kinds));
  return {
    text: watching
      ? subscribed
      : `${subscribed}\n${run.t.subscriptions.notReadYet(title, typedCommand(run, 'status'))}`,
    tone: watching ? 'success' : 'warning',
    private: true,
    ...(followUp ? { followUp } : {}),
  };
}

/**
 * The "now watching" summary, the first time this channel subscribes to the project.
 * The project comes from the read model (no request when the engine read it within
 * the /funding freshness window, else one); if it cannot be read the summary is
 * skipped and NOT remembered, so a later /subscribe posts it. Remembered when the
 * answer is built, so it is posted at most once (a follow-up lost on the way is not retried).
 */
async function watchingFollowUp(run: CommandRun, linkCaption: string): Promise<NeutralMessage | undefined> {
  const { channel } = run.invocation.context;
  let cached: Awaited<ReturnType<CommandRun['deps']['readModel']['project']>>;
  try {
    cached = await run.deps.readModel.project(linkCaption, run.freshness.fundingMs);
  } catch (error) {
    run.deps.logger?.warn(
      { command: run.definition.name, ...errorSummary(error) },
      'no "now watching" summary: the project could not be read',
    );
    return undefined;
  }
  if (!(await run.deps.subscriptions.claimWatchingAnnouncement(channel, linkCaption))) return undefined;
  return { ...watchingNotice(linkCaption, cached.value, run.now, run.locale), private: false };
}

/** /unsubscribe <project> [kinds]: stop some or all notices of a project in this channel. */
export async function unsubscribeCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t } = run;
  const project = await resolveProject(run, { allowSubscribed: true });
  const kinds = kindsOrRefuse(run);
  const { channel } = run.invocation.context;
  const existing = (await run.deps.subscriptions.forChannel(channel)).find(
    (s) => s.project === project.linkCaption,
  );
  const title = singleLine(project.title, limits.title);
  if (!existing) throw new CommandRefusal((tt) => tt.subscriptions.notSubscribed(title));
  const explicit =
    typeof run.invocation.options['kinds'] === 'string' && run.invocation.options['kinds'].trim();
  const left = await run.deps.subscriptions.unsubscribe(
    channel,
    project.linkCaption,
    explicit ? kinds : undefined,
  );
  const removed = existing.kinds.filter((k) => !left?.kinds.includes(k));
  const lines = [t.subscriptions.unsubscribed(title, t.common.list(removed.length > 0 ? removed : kinds))];
  lines.push(left ? t.subscriptions.remaining(t.common.list(left.kinds)) : t.subscriptions.nothingLeft);
  return { text: lines.join('\n'), tone: 'success', private: true };
}

/**
 * /subscriptions: what this channel gets, each kind with its pacing ("supporters (auto)"),
 * the channel's quiet hours, and first, when fundbot cannot post here, why and what to do.
 * Cost: the subscription list, one pacing record and one access record read.
 */
export async function subscriptionsCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t } = run;
  const { channel } = run.invocation.context;
  const subscriptions = await run.deps.subscriptions.forChannel(channel);
  const pacing = await run.deps.pacing?.get(channel);
  const kindText = (kind: NoticeKind) =>
    pacing && isPacedKind(kind)
      ? t.pacing.kindWithMode(kind, describePacing(t, pacingOf(pacing, kind)))
      : kind;
  const watched: readonly WatchedProject[] = visibleWatched(run);
  const lines = subscriptions.slice(0, limits.fields).map((s) => {
    const title = findWatched(watched, s.project)?.title ?? s.project;
    return t.subscriptions.line(singleLine(title, limits.title), t.common.list(s.kinds.map(kindText)));
  });
  if (lines.length > 0 && pacing) {
    lines.push(pacing.quiet ? t.pacing.quietLine(formatQuietHours(pacing.quiet)) : t.pacing.quietNone);
  }
  if (run.deps.lowStock && subscriptions.some((s) => s.kinds.includes('rewards'))) {
    const threshold = await run.deps.lowStock.thresholdOf(channel);
    const shown = threshold === undefined ? undefined : formatNumber(threshold, run.locale);
    lines.push(t.rewardStock.thresholdLine(shown, typedCommand(run, 'lowstock')));
  }
  lines.push(...(await campaignLines(run, subscriptions)));
  if (lines.length > 0) lines.push(...(await noticeRulesLines(run)));
  const held = await cannotPostLine(run);
  if (held && lines.length > 0) lines.unshift(held);
  return {
    title: t.subscriptions.title,
    text: lines.length > 0 ? lines.join('\n') : t.subscriptions.none(typedCommand(run, 'subscribe')),
    tone: held ? 'warning' : 'info',
  };
}

function isPacedKind(kind: NoticeKind): kind is PacedKind {
  return (pacedKinds as readonly string[]).includes(kind);
}
