/**
 * The replicas bench's scheduled-post and failover scenarios (issue 21, build item 7), on their own cluster
 * (cluster.ts) so their timing does not depend on run.ts's: 12 projects on three replicas, supporters arriving
 * once a second (Slack's own pace for posts into one channel; later every 3 s) and posted live into one
 * channel, and one digest channel per project. The digest comes due a minute or so after the start (digest-claims.ts), then the
 * channel's poster is killed mid-post a few times (doubt-failover.ts). Returns the figures run.ts reports.
 */
import { createSubscriptionStore } from '../../src/core/index.js';
import { systemClock } from '../../src/lib/clock.js';
import { type Cluster, deliveryLedger, slackChannel, startCluster, until } from './cluster.js';
import { type DigestFigures, measureDigestClaims } from './digest-claims.js';
import { type DoubtFigures, measureDoubtFailover } from './doubt-failover.js';
import { type FleetDoubtFigures, measureFleetDoubts, subscribeFleetChannels } from './fleet-doubts.js';
import { type ArrivedSupporter, allPolledSince, eventIdOf, missedSupporters } from './ground-truth.js';

const projectCount = 12;
const replicaCount = 3;
export const leaseTtlMs = 3_000;
/** A busy channel: a notice a second, Slack's own pace for posts into one channel. */
const busyEveryMs = 1_000;
/** A quieter one: a notice every 3 s (fewer than 15, one history page, in a doubt's look span). */
const quietEveryMs = 3_000;
/** `--doubt-trials N` (default 3) in the busy channel, then 2 in the quieter one. */
const trials = Number(process.argv[process.argv.indexOf('--doubt-trials') + 1]) || 3;
const quietTrials = 2;
/** Time to start, subscribe and read the baselines before the digest may come due. */
const setupMs = 50_000;
const noticeChannel = slackChannel('C0NOTICES');

export interface ScenarioFigures {
  /**
   * `<project> <channel>` subscribed by the real command (its record is stored) but missing from the project's
   * index, which posting reads: that channel gets nothing of the project (no digest, no notice). Target: none.
   */
  readonly subscriptionsLost: readonly string[];
  readonly digestsPerChannel: DigestFigures;
  readonly doubtResolvedMs: DoubtFigures & {
    /** Over the whole scenario in the notice channel (every supporter once). */
    readonly channelDuplicates: number;
    readonly channelMisses: number;
    readonly missedExamples: readonly string[];
    readonly supporters: number;
  };
  /** Issue 29: six channels of one workspace in doubt at one replica's death (fleet-doubts.ts). */
  readonly fleetDoubts: FleetDoubtFigures;
}

export async function runReplicaScenarios(options: {
  readonly entry: 'tsx' | 'built';
  readonly log: (message: string) => void;
  /** Only the fleet's doubts (`--only fleet-doubts`): no digest, no single-doubt trials. */
  readonly fleetOnly?: boolean;
}): Promise<Partial<ScenarioFigures> & Pick<ScenarioFigures, 'fleetDoubts'>> {
  const { log } = options;
  // The first whole minute at least `setupMs` away, in UTC: the replicas' hourly digest check fires in it.
  const dueAt = Math.ceil((Date.now() + setupMs) / 60_000) * 60_000;
  const cluster = await startCluster({
    projectCount,
    replicaCount,
    leaseTtlMs,
    digestTime: new Date(dueAt).toISOString().slice(11, 16),
    entry: options.entry,
    log,
  });
  let keep = false;
  let arrivals: NodeJS.Timeout | undefined;
  try {
    const digestChannels = cluster.projects.map((_, i) => `C0DIGEST${String(i).padStart(2, '0')}`);
    for (const [i, project] of cluster.projects.entries()) {
      await cluster.command(noticeChannel.channelId, `subscribe ${project} supporters`, i);
      await cluster.command(digestChannels[i]!, `subscribe ${project} digest`, i + 1);
    }
    await cluster.command(noticeChannel.channelId, 'pacing supporters live', 0);
    const fleetProject = cluster.projects[0]!;
    await subscribeFleetChannels(cluster, fleetProject);
    await until('an even spread', () => cluster.evenSpread(), 45_000);
    const settledAt = Date.now();
    await until('a fundings poll of every project after the spread settled', () =>
      allPolledSince(cluster.sim.requests, cluster.projects, settledAt + 2_500, '/fundings'),
    );
    if (Date.now() >= dueAt && !options.fleetOnly)
      throw new Error('the setup took longer than the digest time allows');
    // Each command was answered (acked) before the next went to another replica: the subscriptions of one
    // project were written by two replicas at once. Those missing from the project's index never get a post.
    const subscriptionsLost = await lostSubscriptions(cluster, [
      ...cluster.projects.map((project) => ({ project, channelId: noticeChannel.channelId })),
      ...cluster.projects.map((project, i) => ({ project, channelId: digestChannels[i]! })),
    ]);
    if (subscriptionsLost.length > 0)
      log(`subscriptions missing from their project's index: ${subscriptionsLost}`);

    const arrived: ArrivedSupporter[] = [];
    let next = 0;
    const pace = (everyMs: number) => {
      clearInterval(arrivals);
      arrivals = setInterval(() => {
        const project = cluster.projects[(next * 5) % projectCount]!; // 5 is coprime with 12
        next += 1;
        const key = cluster.sim.project(project).addSupporter({});
        arrived.push({
          project,
          entryKey: `funding:${key.supportTimestamp}:${key.userId}`,
          supportTimestamp: key.supportTimestamp,
        });
      }, everyMs);
    };
    pace(busyEveryMs);

    if (options.fleetOnly) {
      const fleetDoubts = await measureFleetDoubts(cluster, fleetProject, log);
      keep = fleetDoubts.duplicates > 0 || fleetDoubts.misses > 0 || !fleetDoubts.withinBound;
      return { fleetDoubts };
    }
    const digestsPerChannel = await measureDigestClaims(cluster, digestChannels, dueAt, log);
    const doubt = await measureDoubtFailover(
      cluster,
      noticeChannel,
      [
        { arrivalEveryMs: busyEveryMs, trials },
        { arrivalEveryMs: quietEveryMs, trials: quietTrials },
      ],
      pace,
      log,
    );
    const fleetDoubts = await measureFleetDoubts(cluster, fleetProject, log);

    clearInterval(arrivals);
    arrivals = undefined;
    const posted = () =>
      (cluster.slack.messages.get(noticeChannel.channelId) ?? []).flatMap((m) => {
        const id = m.metadata?.event_payload['event_id'];
        return typeof id === 'string' ? [eventIdOf(id)] : [];
      });
    await until(
      'every supporter notice',
      () => missedSupporters(arrived, posted()).length === 0,
      60_000,
    ).catch((error: unknown) => log(String(error)));
    const missed = missedSupporters(arrived, posted());
    const figures: ScenarioFigures = {
      subscriptionsLost,
      digestsPerChannel,
      doubtResolvedMs: {
        ...doubt,
        channelDuplicates: cluster.slack.duplicateEventIds(noticeChannel.channelId).length,
        channelMisses: missed.length,
        // With the delivery record each left (none: never placed in the channel).
        missedExamples: await Promise.all(
          missed.slice(0, 5).map(async (s) => {
            const id = `${s.project}:supporter:${s.entryKey}`;
            const record = await deliveryLedger(cluster).get({ id, channel: noticeChannel });
            return `${id} ${new Date(s.supportTimestamp * 1000).toISOString()} ${record?.state ?? 'no record'}`;
          }),
        ),
        supporters: arrived.length,
      },
      fleetDoubts,
    };
    keep = misses(figures);
    return figures;
  } catch (error) {
    keep = true;
    throw error;
  } finally {
    if (arrivals) clearInterval(arrivals);
    await cluster.stop(keep);
  }
}

/** Whether a target was missed (the replica logs are then kept). */
function misses({
  subscriptionsLost,
  digestsPerChannel: d,
  doubtResolvedMs: t,
  fleetDoubts: f,
}: ScenarioFigures): boolean {
  return (
    f.duplicates > 0 ||
    f.misses > 0 ||
    !f.withinBound ||
    subscriptionsLost.length > 0 ||
    d.min !== 1 ||
    d.max !== 1 ||
    t.unresolved > 0 ||
    t.duplicates > 0 ||
    (t.max ?? 0) > 60_000 ||
    t.channelDuplicates > 0 ||
    t.channelMisses > 0
  );
}

/** Subscriptions whose record is stored but whose channel is missing from the project's index. */
async function lostSubscriptions(
  cluster: Cluster,
  wanted: readonly { readonly project: string; readonly channelId: string }[],
): Promise<string[]> {
  const subscriptions = createSubscriptionStore(cluster.store, { clock: systemClock });
  const lost: string[] = [];
  for (const { project, channelId } of wanted) {
    const indexed = await subscriptions.forProject(project);
    if (!indexed.some((s) => s.channel.channelId === channelId)) lost.push(`${project} ${channelId}`);
  }
  return lost;
}
