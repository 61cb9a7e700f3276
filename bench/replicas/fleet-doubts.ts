/**
 * `fleetDoubts` (issue 29, build item 3): a replica dies while it posts one notice into six channels of one
 * Slack workspace, leaving all six in doubt at once: four posts landed but their answers never come
 * (`afterPost: 'hang'`), two never land (`beforePost: 'hang'`). The fake allows conversations.history once a
 * minute per workspace (15 messages a page), as Slack does for apps outside the Marketplace: one look per
 * channel would settle the sixth doubt five minutes after the kill. The replicas get Slack's `message` events
 * (the fake POSTs them signed to the replicas' request URLs in turn, as a load balancer would); what the bot
 * makes of them is its own business.
 *
 * Per channel: resolved when the shared delivery record (read from Redis with the real ledger) says `posted`,
 * from the moment the post reached the fake. Judged on the channel: the notice once (a copy standing beside it
 * for more than 5 s, or at the end, is a duplicate), never missing.
 */
import type { ChannelRef } from '../../src/core/index.js';
import type { FakeSlackFailure } from '../../test/fakes/slack/fake-slack.js';
import { type Cluster, deliveryLedger, slackChannel, sleep, until } from './cluster.js';
import { eventIdOf } from './ground-truth.js';

/** The channels: subscribed to one project's supporters, live. */
const fleetChannels = ['C0FLEET1', 'C0FLEET2', 'C0FLEET3', 'C0FLEET4', 'C0FLEET5', 'C0FLEET6'];
const landedUnanswered: FakeSlackFailure = { afterPost: 'hang' };
const neverLanded: FakeSlackFailure = { beforePost: 'hang' };
/** What the fault of each channel is. */
const faultOf = (i: number) => (i < 4 ? landedUnanswered : neverLanded);
/** How long a doubt may take (the bound), and how long the bench waits before calling it unresolved. */
const boundMs = 120_000;
const resolveTimeoutMs = 300_000;
/** A copy standing beside the one that counts for longer than this is a duplicate readers saw. */
const shownTwiceLimitMs = 5_000;

export interface FleetDoubtFigures {
  /** Channels of one workspace left in doubt by the kill. */
  readonly channels: number;
  readonly maxResolvedMs: number | undefined;
  readonly withinBound: boolean;
  readonly duplicates: number;
  readonly misses: number;
  /** Per channel: `<channel> <fault> <resolvedMs>` (or unresolved). */
  readonly perChannel: readonly string[];
  /** conversations.history calls from the kill until the last doubt was resolved. */
  readonly looks: number;
  /** Copies the bot removed (chat.delete) in the fleet's channels. */
  readonly removedCopies: number;
}

/** Subscribes the fleet's channels to `project`'s supporters, live (real slash commands through the replicas). */
export async function subscribeFleetChannels(cluster: Cluster, project: string): Promise<void> {
  for (const [i, channelId] of fleetChannels.entries()) {
    await cluster.command(channelId, `subscribe ${project} supporters`, i);
    await cluster.command(channelId, 'pacing supporters live', i + 1);
  }
}

/** One kill with the fleet's six posts in the air; `project` is the fleet channels' project. */
export async function measureFleetDoubts(
  cluster: Cluster,
  project: string,
  log: (message: string) => void,
): Promise<FleetDoubtFigures> {
  const { slack } = cluster;
  await until('an even spread before the fleet trial', () => cluster.evenSpread(), 60_000);
  const before = slack.calls.length;
  for (const [i, channelId] of fleetChannels.entries())
    slack.fail('chat.postMessage', faultOf(i), 1, channelId);
  // The next supporter of the project is posted into all six channels by its holder, each post faulted.
  cluster.sim.project(project).addSupporter({});
  // The first post into each channel after the faults were armed: the faulted one.
  const hung = await slack.waitFor(
    () => {
      const calls = fleetChannels.flatMap((channelId) => {
        const first = slack.calls
          .slice(before)
          .find((c) => c.method === 'chat.postMessage' && c.args['channel'] === channelId);
        return first ? [first] : [];
      });
      return calls.length === fleetChannels.length ? calls : undefined;
    },
    "the fleet channels' posts in the air",
    60_000,
  );
  const holds = await cluster.holds();
  const slot = holds.findIndex((h) => h.includes(project));
  if (slot < 0) throw new Error(`nobody held ${project} when its notices were posted`);
  // The replica dies a moment later, its six posts still waiting for answers.
  await sleep(1_000);
  const killedAt = Date.now();
  cluster.replicas[slot]!.child.kill('SIGKILL');
  log(`fleet: ${cluster.replicas[slot]!.name} killed with ${hung.length} posts in the air in six channels`);

  const ledger = deliveryLedger(cluster);
  const keyOf = (channelId: string) => {
    const call = hung.find((c) => c.args['channel'] === channelId);
    const metadata = call?.args['metadata'] as { event_payload?: { event_id?: string } } | undefined;
    return metadata?.event_payload?.event_id;
  };
  const resolvedAt = new Map<string, number>();
  await until(
    'every fleet doubt resolved',
    async () => {
      for (const channelId of fleetChannels) {
        const key = keyOf(channelId);
        if (!key || resolvedAt.has(channelId)) continue;
        const channel: ChannelRef = slackChannel(channelId);
        if ((await ledger.get({ id: eventIdOf(key), channel }))?.state === 'posted')
          resolvedAt.set(channelId, Date.now());
      }
      return resolvedAt.size === fleetChannels.length;
    },
    resolveTimeoutMs,
  ).catch((error: unknown) => log(String(error)));
  const lastResolved = Math.max(...resolvedAt.values());
  // A wrong "absent" would post again right after deciding; a late copy would be removed within seconds.
  await sleep(10_000);
  const end = Date.now();
  let duplicates = 0;
  let misses = 0;
  const perChannel: string[] = [];
  for (const [i, channelId] of fleetChannels.entries()) {
    const key = keyOf(channelId);
    const carries = (m: { metadata?: { event_payload: Record<string, unknown> } }) =>
      m.metadata?.event_payload['event_id'] === key;
    const standing = (slack.messages.get(channelId) ?? []).filter(carries).map((m) => Number(m.ts) * 1000);
    const removed = slack.deleted
      .filter((d) => d.message.channel === channelId && carries(d.message))
      .map((d) => ({ from: Number(d.message.ts) * 1000, to: d.deletedAt }));
    if (standing.length === 0) misses += 1;
    const spans = [...standing.map((from) => ({ from, to: end })), ...removed];
    const twice = spans.some((a, x) =>
      spans.some((b, y) => y > x && Math.min(a.to, b.to) - Math.max(a.from, b.from) > shownTwiceLimitMs),
    );
    if (standing.length > 1 || twice) duplicates += 1;
    const at = resolvedAt.get(channelId);
    const call = hung.find((c) => c.args['channel'] === channelId);
    const fault = 'afterPost' in faultOf(i) ? 'landed, unanswered' : 'never landed';
    perChannel.push(`${channelId} ${fault} ${at !== undefined && call ? at - call.at : 'unresolved'}`);
  }
  const resolvedMs = fleetChannels.flatMap((channelId) => {
    const at = resolvedAt.get(channelId);
    const call = hung.find((c) => c.args['channel'] === channelId);
    return at !== undefined && call ? [at - call.at] : [];
  });
  const maxResolvedMs = resolvedMs.length === fleetChannels.length ? Math.max(...resolvedMs) : undefined;
  const figures: FleetDoubtFigures = {
    channels: fleetChannels.length,
    maxResolvedMs,
    withinBound: maxResolvedMs !== undefined && maxResolvedMs <= boundMs,
    duplicates,
    misses,
    perChannel,
    looks: slack
      .callsTo('conversations.history')
      .filter((c) => c.at >= killedAt && c.at <= (Number.isFinite(lastResolved) ? lastResolved : end)).length,
    removedCopies: slack.deleted.filter((d) => fleetChannels.includes(d.message.channel)).length,
  };
  log(`fleet: ${JSON.stringify(figures)}`);
  await cluster.restartSlot(slot);
  return figures;
}
