import { estimatePace } from '../../domain/pace.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { formatEstimate } from '../duration.js';
import { formatNumber, formatPercent, percentOfGoal, progressToward } from '../format.js';
import type { MessageField, NeutralMessage } from '../message.js';
import type { HistoryPoint } from '../ports.js';
import { projectStatusLabel } from '../project-status-label.js';
import { projectUrl } from '../project-url.js';
import { resolveProject } from '../resolve-project.js';
import { type CommandRun, freshnessFooter, money, readOrRefuse } from './command-run.js';

const dayMs = 24 * 3_600_000;

/** /funding: where the campaign stands, how fast it moves, and how fresh the figures are. */
export async function fundingCommand(run: CommandRun): Promise<NeutralMessage> {
  const { t, locale, deps } = run;
  const watched = await resolveProject(run);
  const cached = await readOrRefuse(
    run,
    () => deps.readModel.project(watched.linkCaption, run.freshness.fundingMs),
    (tt) => tt.errors.projectNotFound(singleLine(watched.linkCaption, limits.title)),
  );
  // The pace is a nice-to-have: a failing history read must not cost the whole answer.
  const history: readonly HistoryPoint[] = await deps.readModel
    .history(watched.linkCaption, run.now - dayMs)
    .catch(() => []);

  const project = cached.value;
  const funding = project.current_funding;
  const goal = project.funding_threshold;
  const percent = percentOfGoal(funding, goal);
  const cur = (amount: number) => money(run, amount, project.currency);

  let model: string;
  if (!project.project_type_all_or_nothing) model = t.funding.flexible;
  else if (goal > 0 && funding >= goal) model = t.funding.allOrNothingReached;
  else model = t.funding.allOrNothingMissing(cur(Math.max(0, goal - funding)));

  const pace = estimatePace(history, { at: cached.fetchedAt, funding }, goal);
  let paceText: string;
  switch (pace.kind) {
    case 'unknown':
      paceText = t.funding.paceUnknown;
      break;
    case 'none':
      paceText = t.funding.paceNone(pace.hours);
      break;
    case 'rate': {
      const perDay = cur(Math.round(pace.perDay));
      if (!pace.target) paceText = t.funding.paceRateOnly(perDay);
      else if (pace.target.kind === 'goal')
        paceText = t.funding.paceGoal(formatEstimate(pace.target.etaMs, t), perDay);
      else
        paceText = t.funding.paceMilestone(
          formatPercent(pace.target.percent, locale),
          formatEstimate(pace.target.etaMs, t),
          perDay,
        );
    }
  }

  const fields: MessageField[] = [
    {
      name: t.funding.fieldFunding,
      value: goal > 0 ? t.funding.amountOfGoal(cur(funding), cur(goal)) : t.funding.noGoal(cur(funding)),
      inline: true,
    },
    {
      name: t.funding.fieldSupporters,
      value: formatNumber(project.supporter_count, locale),
      inline: true,
    },
    { name: t.funding.fieldModel, value: model, inline: false },
    {
      name: t.funding.fieldStatus,
      value: projectStatusLabel(t, project.status, project.process_status),
      inline: true,
    },
    { name: t.funding.fieldPace, value: paceText, inline: false },
  ];

  const url = projectUrl(project, locale);
  const subtitle = singleLine(project.subtitle, limits.messageTitle);
  return {
    title: singleLine(project.title, limits.title) || singleLine(watched.linkCaption, limits.title),
    ...(url ? { titleUrl: url, links: [{ label: t.funding.supportLink, url }] } : {}),
    ...(subtitle ? { text: subtitle } : {}),
    ...(goal > 0 ? { progress: progressToward(funding, goal, locale) } : {}),
    fields,
    footer: freshnessFooter(run, cached),
    tone: cached.staleBecause !== undefined ? 'warning' : percent >= 100 ? 'success' : 'info',
  };
}
