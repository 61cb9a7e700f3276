/**
 * `digestsPerChannel` (issue 21, build item 5): the daily digest comes due while three replicas run on one
 * Redis. Each digest channel is subscribed (real slash command) to the digest of ONE project, so its target is
 * exactly one digest. Counted from what the recording Slack fake received, never from what the replicas say:
 * the chart shares (files.completeUploadExternal) into the channel plus any chat.postMessage carrying a
 * `digest:` delivery id (a digest without a chart).
 */
import type { FakeSlack } from '../../test/fakes/slack/fake-slack.js';
import { type Cluster, sleep, until } from './cluster.js';

/** After every channel has its first digest, how long to wait for a late repeat (a replica's hourly retry, a lane). */
const repeatWatchMs = 20_000;

export interface DigestFigures {
  readonly channels: number;
  readonly min: number;
  readonly max: number;
  /** Digests received per channel (target: 1 each). */
  readonly perChannel: Readonly<Record<string, number>>;
  /** Seconds from the digest's time to the last channel's first digest. */
  readonly allInSeconds: number;
}

/** Digest messages the fake Slack received in `channelId`. */
export function digestsIn(slack: FakeSlack, channelId: string): number {
  const shares = slack
    .callsTo('files.completeUploadExternal')
    .filter((c) => c.outcome === 'ok' && c.args['channel_id'] === channelId).length;
  const posts = (slack.messages.get(channelId) ?? []).filter((m) =>
    String(m.metadata?.event_payload['event_id'] ?? '').startsWith('digest:'),
  ).length;
  return shares + posts;
}

/**
 * Waits for the digest due at `dueAt` (the replicas' hourly check fires 5 s into that minute), then counts.
 * `channels`: the digest channels, one project each, subscribed before `dueAt`.
 */
export async function measureDigestClaims(
  cluster: Cluster,
  channels: readonly string[],
  dueAt: number,
  log: (message: string) => void,
): Promise<DigestFigures> {
  if (!(await cluster.evenSpread())) log('digest: the spread is not even at the digest time');
  await sleep(Math.max(0, dueAt - Date.now()));
  log(`digest due now on ${cluster.replicas.length} replicas (${channels.length} digest channels)`);
  await until(
    'a digest in every digest channel',
    () => channels.every((c) => digestsIn(cluster.slack, c) >= 1),
    120_000,
  ).catch((error: unknown) => log(String(error)));
  const allInSeconds = Math.round((Date.now() - dueAt) / 1000);
  await sleep(repeatWatchMs);
  const perChannel = Object.fromEntries(channels.map((c) => [c, digestsIn(cluster.slack, c)]));
  const counts = Object.values(perChannel);
  const figures = {
    channels: channels.length,
    min: Math.min(...counts),
    max: Math.max(...counts),
    perChannel,
    allInSeconds,
  };
  log(`digest: ${JSON.stringify(figures)}`);
  return figures;
}
