import { renderRollCall } from '../core/index.js';
import { channelKey } from '../domain/channels.js';
import { fundingAt } from '../domain/pace.js';
import type { CampaignCheckDeps } from './campaign-check-deps.js';
import { latestRollCall, type RollCallSchedule } from './roll-call-due.js';

const PROJECT_MAX_AGE_MS = 10 * 60_000;
/** A roll-call that could not go out within a day waits for the next period, which names its supporters too. */
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;

/**
 * One project's roll-call check (issue 32, item 5): each channel that gets its supporter notices and chose a
 * roll-call (/rollcall) gets, once its period's time passed on its clock ({@link latestRollCall}), one message
 * naming every supporter the journal saw since the last roll-call's cut (or since it was turned on) up to this
 * one's, the rest of a long list in its thread, with the totals. Posted through the delivery ledger under
 * `roll-call:<project>:<period>`, so replicas and restarts post it once; the period's cursor
 * (campaign-check-store.ts: the period and its cut) is stored once it is posted or on its way,
 * so the next roll-call starts exactly where this one ended. A period without a new supporter posts nothing.
 */
export async function checkRollCall(
  deps: CampaignCheckDeps,
  project: string,
  schedule: RollCallSchedule,
): Promise<void> {
  const now = deps.clock.now();
  for (const { channel } of await deps.subscriptions.forProject(project, 'supporters')) {
    const setting = await deps.campaign.rollCallOf(channel);
    if (!setting) continue;
    const timeZone = await deps.timeZoneFor(channel);
    const period = latestRollCall(now, timeZone, setting.cadence, schedule);
    // Turned on after this period's time: its first roll-call is the next one.
    if (period.cut <= setting.since) continue;
    const cursor = await deps.checks.rollCallCursor(project, channel);
    if (cursor && (cursor.period === period.id || cursor.cut >= period.cut)) continue;
    const after = Math.max(cursor?.cut ?? 0, setting.since);
    const supporters = await deps.journal.supportersBetween(project, after, period.cut);
    if (supporters.length > 0) {
      const names = supporters.map((s) => s.name);
      const [cached, history] = await Promise.all([
        deps.readModel.project(project, PROJECT_MAX_AGE_MS),
        deps.readModel.history(project, 0),
      ]);
      const atCut = fundingAt(history, period.cut);
      const atStart = fundingAt(history, after);
      const total = atCut?.funding ?? cached.value.current_funding;
      const outcome = await deps.postWithin({
        id: `roll-call:${project}:${period.id}`,
        channel,
        kind: 'supporters',
        occurredAt: period.cut,
        giveUpAt: period.cut + GIVE_UP_AFTER_MS,
        namesAfter: { project, names },
        render: async () =>
          renderRollCall(
            {
              project: cached.value.title || project,
              currency: cached.value.currency,
              names,
              since: after,
              total,
              gained: atStart ? total - atStart.funding : undefined,
              supporters: atCut?.supporters ?? cached.value.supporter_count,
              restIn: channel.platform === 'console' ? 'messages' : 'thread',
            },
            await deps.localeFor(channel),
            timeZone,
          ),
      });
      if (outcome === 'failed') continue;
      deps.logger.info({ project, channel: channelKey(channel), named: names.length }, 'roll-call sent');
    }
    await deps.checks.setRollCallCursor(project, channel, { period: period.id, cut: period.cut });
  }
}
