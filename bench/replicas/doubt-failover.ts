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
import type { ChannelRef } from '../../src/core/index.js';
import { channelKey } from '../../src/domain/channels.js';
import { summarize } from '../stats.js';
import { type Cluster, deliveryLedger, sleep, until } from './cluster.js';
import { eventIdOf } from './ground-truth.js';

/** How long a trial waits for the doubt to be resolved before it is reported unresolved. */
const resolveTimeoutMs = 240_000;
/** Slack's conversations.history interval for apps outside the Marketplace (the fake's, the bot's default). */
const lookIntervalMs = 60_000;

export interface DoubtTrial {
  readonly event: string;
  /** One new supporter every this many ms, over all projects, posted live into the channel. */
  readonly arrivalEveryMs: number;
  /**
   * The bot's messages in the span a look must read (the post's time minus 5 s to plus 20 s: the Slack
   * poster's settle time and clock margin). A history page holds 15: more need a second look, a minute later.
   */
  readonly messagesInLookSpan: number;
  /** From the post reaching the fake to the record saying `posted`; undefined: not within the timeout. */
  readonly resolvedMs: number | undefined;
  /** From the post reaching the fake to the SIGKILL. */
  readonly killedAfterMs: number;
  /** Copies of the notice in the channel at the end of the trial (1 is right). */
  readonly copies: number;
  /** conversations.history calls during the trial: ms after the post landed, and what the fake answered. */
  readonly looks: readonly string[];
}

export interface DoubtFigures extends DoubtSummary {
  /** The same figures per arrival pace (a busier channel needs more history pages per look). */
  readonly byArrivalEveryMs: Readonly<Record<string, DoubtSummary>>;
  readonly perTrial: readonly DoubtTrial[];
}

export interface DoubtSummary {
  readonly trials: number;
  readonly p50: number | undefined;
  readonly max: number | undefined;
  readonly unresolved: number;
  /** Trials whose notice ended up in the channel more than once. */
  readonly duplicates: number;
}

const copiesOf = (cluster: Cluster, channelId: string, idempotencyKey: string) =>
  (cluster.slack.messages.get(channelId) ?? []).filter(
    (m) => m.metadata?.event_payload['event_id'] === idempotencyKey,
  ).length;

/** One trial: arm the hang, kill the poster, wait for the record; the killed slot is started again. */
async function trial(
  cluster: Cluster,
  channel: ChannelRef,
  arrivalEveryMs: number,
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

  const ledger = deliveryLedger(cluster);
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
  const landedAt = call.at / 1000;
  const result: DoubtTrial = {
    event: key,
    arrivalEveryMs,
    messagesInLookSpan: (slack.messages.get(channel.channelId) ?? []).filter(
      (m) => Number(m.ts) >= landedAt - 5 && Number(m.ts) <= landedAt + 20,
    ).length,
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

/**
 * Runs kill-mid-post trials on `channel` (a channel with notices flowing): each group's trials at its arrival
 * pace, set through `pace` before the group.
 */
export async function measureDoubtFailover(
  cluster: Cluster,
  channel: ChannelRef,
  groups: readonly { readonly arrivalEveryMs: number; readonly trials: number }[],
  pace: (arrivalEveryMs: number) => void,
  log: (message: string) => void,
): Promise<DoubtFigures> {
  const perTrial: DoubtTrial[] = [];
  for (const { arrivalEveryMs, trials } of groups) {
    pace(arrivalEveryMs);
    log(
      `doubt: ${trials} trials of a holder killed mid-post in ${channelKey(channel)}, a supporter every ${arrivalEveryMs} ms`,
    );
    for (let i = 0; i < trials; i += 1) perTrial.push(await trial(cluster, channel, arrivalEveryMs, log));
  }
  return {
    ...figuresOf(perTrial),
    byArrivalEveryMs: Object.fromEntries(
      groups.map(({ arrivalEveryMs }) => [
        arrivalEveryMs,
        figuresOf(perTrial.filter((t) => t.arrivalEveryMs === arrivalEveryMs)),
      ]),
    ),
    perTrial,
  };
}

function figuresOf(trials: readonly DoubtTrial[]): DoubtSummary {
  const resolved = trials.flatMap((t) => (t.resolvedMs === undefined ? [] : [t.resolvedMs]));
  const stats = summarize(resolved);
  return {
    trials: trials.length,
    p50: resolved.length > 0 ? stats.p50 : undefined,
    max: resolved.length > 0 ? stats.max : undefined,
    unresolved: trials.length - resolved.length,
    duplicates: trials.filter((t) => t.copies > 1).length,
  };
}
