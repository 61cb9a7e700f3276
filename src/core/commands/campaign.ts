import { defaultGoalPaceOptions } from '../../domain/goal-pace.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { formatWindow } from '../duration.js';
import { startOfLocalDate } from '../local-time.js';
import type { NeutralMessage } from '../message.js';
import type { Subscription } from '../ports.js';
import { resolveProject } from '../resolve-project.js';
import { rollCallCadences } from '../settings/campaign-settings.js';
import { formatDate } from '../time-format.js';
import { type CommandRun, typedCommand } from './command-run.js';

const dayMs = 24 * 3_600_000;

/**
 * /deadline <YYYY-MM-DD>|off [project]: the campaign's end (the API has none), read as the end of that day on
 * the channel's clock, for the goal-pace alerts (src/digest/pace-alerts.ts). One store write.
 */
export async function deadlineCommand(run: CommandRun): Promise<NeutralMessage> {
  const texts = run.t.campaign;
  const settings = run.deps.campaign;
  // Only a core built without the setting (a test double) gets here: the app always wires it.
  if (!settings) return { text: run.t.errors.internal, tone: 'error', private: true };
  const given = String(run.invocation.options['date'] ?? '').trim();
  const watched = await resolveProject(run);
  const channel = run.invocation.context.channel;
  const project = singleLine(watched.linkCaption, limits.title);
  if (given.toLowerCase() === 'off') {
    await settings.setDeadline(channel, watched.linkCaption, undefined);
    return { text: texts.deadlineOff(project), tone: 'success', private: true };
  }
  const day = calendarDay(given);
  const shown = singleLine(given, limits.name);
  if (day === undefined) return { text: texts.badDeadline(shown), tone: 'error', private: true };
  const endsAt = startOfLocalDate(day.next, run.timeZone);
  if (endsAt <= run.now) return { text: texts.pastDeadline(shown), tone: 'error', private: true };
  await settings.setDeadline(channel, watched.linkCaption, {
    date: day.date,
    timeZone: run.timeZone,
    endsAt,
  });
  const pace = run.deps.goalPace ?? defaultGoalPaceOptions;
  return {
    text: texts.deadlineSet(
      formatDate(endsAt - 1, run.locale, run.timeZone),
      project,
      formatWindow(pace.windowMs, run.t),
      pace.minSupporters,
    ),
    tone: 'success',
    private: true,
  };
}

/** /rollcall weekly|monthly|off: this channel's thank-you roll-call (src/digest/roll-call.ts). One store write. */
export async function rollCallCommand(run: CommandRun): Promise<NeutralMessage> {
  const texts = run.t.campaign;
  const settings = run.deps.campaign;
  if (!settings) return { text: run.t.errors.internal, tone: 'error', private: true };
  const given = String(run.invocation.options['cadence'] ?? '')
    .trim()
    .toLowerCase();
  const channel = run.invocation.context.channel;
  if (given === 'off') {
    await settings.setRollCall(channel, undefined);
    return { text: texts.rollCallOff, tone: 'success', private: true };
  }
  const cadence = rollCallCadences.find((c) => c === given);
  if (!cadence) {
    return {
      text: run.t.errors.invalidChoice(
        'cadence',
        singleLine(given, limits.name),
        [...rollCallCadences, 'off'].join(', '),
      ),
      tone: 'error',
      private: true,
    };
  }
  // Switching between weekly and monthly keeps the start: nobody named since then is skipped or named twice.
  const since = (await settings.rollCallOf(channel))?.since ?? run.now;
  await settings.setRollCall(channel, { cadence, since });
  return { text: texts.rollCallSet(cadence, typedCommand(run, 'subscribe')), tone: 'success', private: true };
}

/** The day typed as `YYYY-MM-DD` when it is a real calendar day, with the day after it. */
function calendarDay(text: string): { readonly date: string; readonly next: string } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const utc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const date = new Date(utc).toISOString().slice(0, 10);
  if (date !== text) return undefined;
  return { date, next: new Date(utc + dayMs).toISOString().slice(0, 10) };
}

/**
 * /subscriptions' campaign lines: the end set for each project whose milestones the channel gets, and the
 * roll-call where it gets supporters. One small read per such project and one for the roll-call.
 */
export async function campaignLines(
  run: CommandRun,
  subscriptions: readonly Subscription[],
): Promise<string[]> {
  const settings = run.deps.campaign;
  if (!settings) return [];
  const texts = run.t.campaign;
  const lines: string[] = [];
  for (const s of subscriptions.filter((s) => s.kinds.includes('milestones')).slice(0, limits.fields)) {
    const deadline = await settings.deadlineOf(run.invocation.context.channel, s.project);
    const end = deadline ? formatDate(deadline.endsAt - 1, run.locale, deadline.timeZone) : undefined;
    lines.push(texts.deadlineLine(singleLine(s.project, limits.title), end, typedCommand(run, 'deadline')));
  }
  if (subscriptions.some((s) => s.kinds.includes('supporters'))) {
    const rollCall = await settings.rollCallOf(run.invocation.context.channel);
    lines.push(texts.rollCallLine(rollCall?.cadence, typedCommand(run, 'rollcall')));
  }
  return lines;
}
