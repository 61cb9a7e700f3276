/**
 * `doubtResolvedMs` (issue 21, build item 3): the replica posting a channel's notice is killed (SIGKILL)
 * mid-post: the fake Slack has put the message in the channel and holds its answer (`afterPost: 'hang'`), so
 * the replica's delivery record still says `attempting` when it dies. The project's new holder re-offers the
 * event from the outbox, finds the delivery in doubt and must decide it by looking (conversations.history,
 * about once a minute per workspace on the fake as on Slack), never by posting blind.
 *
 * Per trial: resolved when the shared delivery record (read from Redis with the real ledger) says `posted`,
 * measured from the moment the post reached the fake. A second copy of the notice in the channel is a
 * duplicate. Each trial starts with the workspace's look budget unspent (a rare fault, not a storm of them).
 */
import { type ChannelRef, channelKey } from '../../src/core/index.js';
import { createDeliveryLedger } from '../../src/delivery/index.js';
import { namespaced } from '../../src/lib/store.js';
import { summarize } from '../stats.js';
import { type Cluster, sleep, until } from './cluster.js';
import { eventIdOf } from './ground-truth.js';

/** How long a trial waits for the doubt to be resolved before it is reported unresolved. */
const resolveTimeoutMs = 240_000;
/** Slack's conversations.history interval for apps outside the Marketplace (the fake's, the bot's default). */
const lookIntervalMs = 60_000;

export interface DoubtTrial {
  readonly event: string;
  /** From the post reaching the fake to the record saying `posted`; undefined: not within the timeout. */
  readonly resolvedMs: number | undefined;
  /** From the post reaching the fake to the SIGKILL. */
  readonly killedAfterMs: number;
  /** Copies of the notice in the channel at the end of the trial (1 is right). */
  readonly copies: number;
  /** conversations.history calls during the trial: ms after the post landed, and what the fake answered. */
  readonly looks: readonly string[];
}

export interface DoubtFigures {
  readonly trials: number;
  readonly p50: number | undefined;
  readonly max: number | undefined;
  readonly unresolved: number;
  /** Trials whose notice ended up in the channel more than once. */
  readonly duplicates: number;
  readonly perTrial: readonly DoubtTrial[];
}

const copiesOf = (cluster: Cluster, channelId: string, idempotencyKey: string) =>
  (cluster.slack.messages.get(channelId) ?? []).filter(
    (m) => m.metadata?.event_payload['event_id'] === idempotencyKey,
  ).length;

/** One trial: arm the hang, kill the poster, wait for the record; the killed slot is started again. */
async function trial(
  cluster: Cluster,
  channel: ChannelRef,
  log: (message: string) => void,
): Promise<DoubtTrial> {
  const { slack } = cluster;
  await until('an even spread before the trial', () => cluster.evenSpread(), 60_000);
  // The workspace's look budget unspent: no look by anyone in the last minute.
  const lastLook = slack.callsTo('conversations.history').at(-1)?.at ?? 0;
  await sleep(Math.max(0, lastLook + lookIntervalMs + 1_000 - Date.now()));
  const holds = await cluster.holds();
  const before = slack.calls.length;
  slack.fail('chat.postMessage', { afterPost: 'hang' }, 1);
  const call = await slack.waitFor(
    () =>
      slack.calls
        .slice(before)
        .find((c) => c.method === 'chat.postMessage' && c.outcome === 'posted, then hang'),
    'a notice post that hangs after landing',
    60_000,
  );
  const metadata = call.args['metadata'] as { event_payload?: { event_id?: string } } | undefined;
  const key = metadata?.event_payload?.event_id;
  if (typeof key !== 'string') throw new Error('the hung post carries no event id');
  const project = key.slice(0, key.indexOf(':'));
  const slot = holds.findIndex((h) => h.includes(project));
  if (slot < 0) throw new Error(`nobody held ${project} when its notice was posted`);
  cluster.replicas[slot]!.child.kill('SIGKILL');
  const killedAfterMs = Date.now() - call.at;
  log(`doubt: ${cluster.replicas[slot]!.name} killed ${killedAfterMs} ms after its post of ${key} landed`);

  // The pipeline's own layout (app/wire-fundbot.ts, delivery/create-delivery.ts): read with the real ledger.
  const ledger = createDeliveryLedger(namespaced(cluster.store, 'deliveries/'), {
    prefix: 'notices/delivered/',
  });
  const delivery = { id: eventIdOf(key), channel };
  let resolvedMs: number | undefined;
  await until(
    `the doubt about ${key} to be resolved`,
    async () => (await ledger.get(delivery))?.state === 'posted',
    resolveTimeoutMs,
  ).then(
    () => {
      resolvedMs = Date.now() - call.at;
    },
    (error: unknown) => log(String(error)),
  );
  // A wrong "absent" would post it again right after deciding: give a repeat a moment to show.
  await sleep(3_000);
  const looks = slack.callsTo('conversations.history').filter((c) => c.at >= call.at);
  const result: DoubtTrial = {
    event: key,
    resolvedMs,
    killedAfterMs,
    copies: copiesOf(cluster, channel.channelId, key),
    looks: looks.map(
      (c) => `${c.at - call.at} ${c.args['cursor'] ? 'next page' : 'first page'} ${c.outcome}`,
    ),
  };
  log(`doubt: ${JSON.stringify(result)}`);
  await cluster.restartSlot(slot);
  return result;
}

/** Runs `trials` kill-mid-post trials on `channel` (a channel with notices flowing). */
export async function measureDoubtFailover(
  cluster: Cluster,
  channel: ChannelRef,
  trials: number,
  log: (message: string) => void,
): Promise<DoubtFigures> {
  log(`doubt: ${trials} trials of a holder killed mid-post in ${channelKey(channel)}`);
  const perTrial: DoubtTrial[] = [];
  for (let i = 0; i < trials; i += 1) perTrial.push(await trial(cluster, channel, log));
  const resolved = perTrial.flatMap((t) => (t.resolvedMs === undefined ? [] : [t.resolvedMs]));
  const stats = summarize(resolved);
  return {
    trials,
    p50: resolved.length > 0 ? stats.p50 : undefined,
    max: resolved.length > 0 ? stats.max : undefined,
    unresolved: perTrial.length - resolved.length,
    duplicates: perTrial.filter((t) => t.copies > 1).length,
    perTrial,
  };
}
