import { commandDefinitions } from '../../domain/command-definitions.js';
import type { EngineStatus } from '../../domain/read-model.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { scrubSecrets } from '../../lib/scrub-secrets.js';
import { CommandRefusal } from '../command-refusal.js';
import { formatInterval } from '../duration.js';
import { formatNumber } from '../format.js';
import type { MessageField, NeutralMessage } from '../message.js';
import { noteText } from '../note-text.js';
import { commandUsage } from '../parse-command-text.js';
import { resolveProject, visibleWatched } from '../resolve-project.js';
import { formatDateTime } from '../time-format.js';
import { cannotPostLine } from './cannot-post-line.js';
import { type CommandRun, readOrRefuse } from './command-run.js';
import { formatPollAge, workspaceOverview } from './overview.js';

/** /status: last successful poll per feed, disabled feeds, API budget, recent errors, version. */
export async function statusCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t, locale } = run;
  // Without a project where a workspace can have several (hosted, or more than one watched): the overview of
  // every project it can use, as the Slack App Home shows it (issue 24).
  const given = run.invocation.options['project'];
  if ((typeof given !== 'string' || given.trim() === '') && !run.deps.defaultProject) {
    if (run.deps.hosted || visibleWatched(run).length > 1) return workspaceOverview(run);
  }
  const watched = await resolveProject(run);
  const status = await readOrRefuse(
    run,
    () => run.deps.readModel.status(watched.linkCaption),
    (tt) => tt.errors.projectNotFound(singleLine(watched.linkCaption, limits.title)),
  );
  const fields: MessageField[] = status.feeds.map((feed) => ({
    name: t.status.feedNames[feed.feed] ?? feed.feed,
    value:
      feed.disabledReason !== undefined
        ? t.status.feedDisabled(noteText(feed.disabledReason, t, locale, run.timeZone))
        : feed.lastSuccessAt === null
          ? t.status.feedNever
          : t.status.feedOk(
              formatPollAge(run, feed.lastSuccessAt, status.reportedEveryMs),
              formatInterval(feed.intervalMs, t),
            ),
    inline: true,
  }));
  const { budget } = status;
  const budgetParts =
    budget.dayRemaining !== null && budget.dayLimit !== null
      ? [t.status.budget(formatNumber(budget.dayRemaining, locale), formatNumber(budget.dayLimit, locale))]
      : [t.status.budgetUnknown];
  if (budget.dayResetAt !== null)
    budgetParts.push(t.status.budgetReset(formatDateTime(budget.dayResetAt, locale, run.timeZone)));
  fields.push({ name: t.status.fieldBudget, value: budgetParts.join(' · '), inline: false });
  const errors = [...status.recentErrors]
    .sort((a, b) => b.at - a.at)
    .slice(0, limits.errorsShown)
    .map(
      (e) => `${formatDateTime(e.at, locale, run.timeZone)}: ${noteText(e.note, t, locale, run.timeZone)}`,
    );
  fields.push({
    name: t.status.fieldErrors,
    value: errors.length > 0 ? '' : t.status.noErrors,
    ...(errors.length > 0 ? { items: errors } : {}),
    inline: false,
  });
  const operation = operationLines(run, status.paused);
  const held = await cannotPostLine(run);
  if (held) operation.unshift(held);
  if (operation.length > 0)
    fields.push({ name: t.status.fieldOperation, value: operation.join('\n'), inline: false });
  const stale =
    status.feeds.some((f) => f.disabledReason !== undefined) || errors.length > 0 || operation.length > 0;
  return {
    // The title as the polling replica read it: the same whichever replica answers.
    title: t.status.title(singleLine(status.project?.title ?? watched.title, limits.title)),
    fields,
    footer: t.status.version(singleLine(run.deps.version, limits.name)),
    tone: stale ? 'warning' : 'info',
  };
}

/** The causes `/healthz` names, in the channel's language: a paused project, a failing store, API drift. */
function operationLines(run: CommandRun, paused: EngineStatus['paused']): string[] {
  const { t, locale } = run;
  const text = (raw: string, max: number = limits.reason) => singleLine(scrubSecrets(raw), max);
  const lines: string[] = [];
  if (paused !== null) {
    const since = formatDateTime(paused.since, locale, run.timeZone);
    const connected = 'connected' in paused.reason.params && paused.reason.params.connected === true;
    lines.push(
      t.status.paused(
        since,
        noteText(paused.reason, t, locale, run.timeZone),
        connected ? 'connect' : 'operator',
      ),
    );
  }
  for (const note of run.deps.operationalNotes?.() ?? []) {
    lines.push(
      note.cause === 'store-failing'
        ? t.status.storeFailing(text(note.detail))
        : note.cause === 'store-emptied'
          ? t.status.storeEmptied(text(note.detail, limits.reason * 2))
          : note.cause === 'polling-ceiling'
            ? t.status.pollingCeiling(text(note.detail))
            : t.status.apiDrift(text(note.detail, limits.driftLine)),
    );
  }
  return lines;
}

/** /help: every command from src/domain/command-definitions.ts with its description in the channel's language. */
export async function helpCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t, locale } = run;
  const platform = run.invocation.context.channel.platform;
  const lines = commandDefinitions.map((c) => {
    const admin = c.admin ? ` ${t.help.adminOnly}` : '';
    return `${commandUsage(c, platform)}: ${c.description[locale]}${admin}`;
  });
  return { title: t.help.title, text: lines.join('\n'), footer: t.help.footer, tone: 'info', private: true };
}

/** /digest: a preview of today's digest, rendered by src/digest. */
export async function digestCommand(run: CommandRun): Promise<NeutralMessage> {
  const preview = run.deps.digestPreview;
  if (!preview) throw new CommandRefusal((t) => t.errors.digestNotConfigured);
  const watched = await resolveProject(run);
  return readOrRefuse(
    run,
    () => preview(watched.linkCaption, run.locale),
    (tt) => tt.errors.projectNotFound(singleLine(watched.linkCaption, limits.title)),
  );
}
