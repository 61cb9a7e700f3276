import { renderPaceAlert } from '../core/index.js';
import { type GoalPaceOptions, judgeGoalPace, type PaceWatchState } from '../domain/goal-pace.js';
import type { CampaignCheckDeps } from './campaign-check-deps.js';

/** The project read may be this old: a pace over hours does not need a fresher figure. */
const PROJECT_MAX_AGE_MS = 5 * 60_000;
/** An alert that could not go out within this long is stale: the next crossing will say what holds then. */
const GIVE_UP_AFTER_MS = 6 * 60 * 60_000;

/**
 * One project's goal-pace check (issue 32, item 4): for each channel that gets its milestones and set an end
 * (/deadline), the one rule {@link judgeGoalPace} on the window's history, and on a crossing one alert through the
 * delivery ledger under `pace:<project>:<n>` (n counts the channel's alerts), so replicas and restarts that judge
 * the same crossing post it once. The state (verdict, target, count: `pace-alerts/<project>/<channel>`) is written
 * after the alert is in its lane; a crash in between judges the crossing again and finds the ledger's record.
 * Cost per check: the subscriptions and one deadline read per channel; only with a deadline the cached project,
 * the history and one state read per channel (a write when the verdict changed).
 */
export async function checkGoalPace(
  deps: CampaignCheckDeps,
  project: string,
  options: GoalPaceOptions,
): Promise<void> {
  const now = deps.clock.now();
  const channels = await deps.subscriptions.forProject(project, 'milestones');
  let figures: Promise<Figures> | undefined;
  for (const { channel } of channels) {
    const deadline = await deps.campaign.deadlineOf(channel, project);
    if (!deadline) continue;
    figures ??= readFigures(deps, project);
    const { value, history } = await figures;
    const previous = await deps.checks.paceState(project, channel);
    const judgement = judgeGoalPace(
      {
        history,
        now,
        funding: value.current_funding,
        supporters: value.supporter_count,
        goal: value.funding_threshold,
        deadline: deadline.endsAt,
      },
      previous,
      options,
    );
    if (judgement.kind === 'silent') continue;
    const { state, alert, reading } = judgement;
    if (alert) {
      const outcome = await deps.postWithin({
        id: `pace:${project}:${state.alerts}`,
        channel,
        kind: 'milestones',
        occurredAt: now,
        giveUpAt: now + GIVE_UP_AFTER_MS,
        render: async () =>
          renderPaceAlert(
            {
              project: value.title || project,
              currency: value.currency,
              verdict: alert,
              reading,
              endsAt: deadline.endsAt,
              windowMs: options.windowMs,
            },
            await deps.localeFor(channel),
            await deps.timeZoneFor(channel),
          ),
      });
      // Not posted and not on its way (the bot cannot post there): judged again at the next check, same id.
      if (outcome === 'failed') continue;
    }
    if (!sameState(previous, state)) await deps.checks.setPaceState(project, channel, state);
  }
}

interface Figures {
  readonly value: {
    readonly title: string;
    readonly currency: string;
    readonly current_funding: number;
    readonly supporter_count: number;
    readonly funding_threshold: number;
  };
  readonly history: Awaited<ReturnType<CampaignCheckDeps['readModel']['history']>>;
}

async function readFigures(deps: CampaignCheckDeps, project: string): Promise<Figures> {
  const [cached, history] = await Promise.all([
    deps.readModel.project(project, PROJECT_MAX_AGE_MS),
    // All of it: the point at the window's start may be much older (snapshots are taken on change only).
    deps.readModel.history(project, 0),
  ]);
  // The history's last snapshot may be newer than the cached project (the supporters' poll records it): the newer wins.
  const last = history.at(-1);
  const value =
    last && last.at > cached.fetchedAt
      ? { ...cached.value, current_funding: last.funding, supporter_count: last.supporters }
      : cached.value;
  return { value, history };
}

function sameState(a: PaceWatchState | undefined, b: PaceWatchState): boolean {
  return (
    a !== undefined &&
    a.targetPercent === b.targetPercent &&
    a.deadline === b.deadline &&
    a.verdict === b.verdict &&
    a.alerts === b.alerts
  );
}
