/**
 * A small replicas cluster for the scenarios that need their own (digest-claims.ts, doubt-failover.ts): three
 * REAL replicas (`src/main.ts`, each its own process, as run.ts starts them) on one real redis-server, a few
 * projects on one simulator, one recording Slack fake with Slack's own look limit (conversations.history about
 * once a minute, which run.ts's fake leaves out) that sends the replicas Slack's `message` events, and channels
 * subscribed through the real signed slash command.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChannelRef } from '../../src/core/index.js';
import { createDeliveryLedger, type DeliveryLedger } from '../../src/delivery/index.js';
import { namespaced, openStore } from '../../src/lib/store.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlack, startFakeSlack } from '../../test/fakes/slack/fake-slack.js';
import { postSignedCommand, slashCommand } from '../../test/slack/helpers.js';
import { type RedisServer, startRedisServer } from '../../test/support/redis-server.js';
import { waitUntil } from '../../test/support/wait-until.js';
import { heldProjects, type ReplicaProcess, startReplicaProcess } from './replica-process.js';
import { projectKeyEnv, slackAppEnv, writeReplicaSlots } from './replica-slots.js';

const botToken = 'xoxb-bench-replicas';
const signingSecret = 'bench-replicas-signing-secret';
export const workspaceId = 'T0FAKE';

export interface ClusterOptions {
  readonly projectCount: number;
  readonly replicaCount: number;
  readonly leaseTtlMs: number;
  /** The daily digest's local time (UTC), `HH:MM`. */
  readonly digestTime: string;
  readonly entry: 'tsx' | 'built';
  readonly log: (message: string) => void;
}

export interface Cluster {
  readonly projects: readonly string[];
  readonly sim: Simulator;
  readonly slack: FakeSlack;
  readonly redis: RedisServer;
  /** The bench's own view of the bot's store (same keyv namespace as the replicas). */
  readonly store: Awaited<ReturnType<typeof openStore>>;
  /** The running replica of each slot (a restarted slot replaces its entry). */
  readonly replicas: ReplicaProcess[];
  restartSlot(i: number): Promise<void>;
  /** Runs the slash command `/fundbot <text>` in the channel, as an admin, through slot `via`. */
  command(channelId: string, text: string, via: number): Promise<void>;
  /** Holds per slot, from `/healthz`. */
  holds(): Promise<string[][]>;
  /** True when every project is held exactly once and each replica holds its share. */
  evenSpread(): Promise<boolean>;
  /** Keeps the replica logs when `keep` is set (a target missed or a step failed). */
  stop(keep: boolean): Promise<void>;
}

export const slackChannel = (channelId: string): ChannelRef => ({
  platform: 'slack',
  workspaceId,
  channelId,
});

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { projectCount, replicaCount, log } = options;
  const redis = await startRedisServer({ persistence: 'aof' });
  const projects = Array.from({ length: projectCount }, (_, i) => `project-${String(i).padStart(2, '0')}`);
  const sim = await startSimulator({
    seed: 21,
    projects: projects.map((linkCaption) => ({ linkCaption, title: linkCaption, currency: 'EUR' })),
    limits: { pro: { perMinute: 60, perDay: 1_000_000 } },
  });
  // Slack lets apps outside the Marketplace read conversations.history about once a minute (15 messages a page).
  const slack = await startFakeSlack({
    botToken,
    historyIntervalMs: 60_000,
    users: [{ id: 'U0ADMIN', team_id: workspaceId, name: 'lead', is_admin: true }],
  });
  const dir = mkdtempSync(join(tmpdir(), 'fundbot-replicas-scenarios-'));
  const env: Record<string, string> = slackAppEnv(botToken, signingSecret, slack.apiUrl);
  for (const project of projects) env[projectKeyEnv(project)] = sim.issueProjectKey(project);
  const slots = await writeReplicaSlots(dir, replicaCount, 's', ({ opsPort, slackPort }) => ({
    api: { baseUrl: sim.url },
    store: { url: redis.url, leaseTtlMs: options.leaseTtlMs },
    projects: projects.map((linkCaption) => ({ linkCaption, apiKeyEnv: projectKeyEnv(linkCaption) })),
    slack: { enabled: true, mode: 'http', port: slackPort },
    digest: { enabled: true, time: options.digestTime, timeZone: 'UTC' },
    engine: { publicReads: false },
    http: { enabled: true, port: opsPort },
  }));
  const startSlot = (i: number) => startReplicaProcess({ ...slots[i]!, env, entry: options.entry });
  const store = await openStore(redis.url);
  const replicas = await Promise.all(slots.map((_, i) => startSlot(i)));
  log(`scenarios: ${replicaCount} replicas on ${projectCount} projects running (logs in ${dir})`);
  // The replicas' own messages come back as Slack message events, signed, spread over their request URLs as a
  // load balancer would (a dead replica's share is retried on the next).
  slack.subscribeMessageEvents({
    via: 'http',
    urls: slots.map((slot) => `http://127.0.0.1:${slot.slackPort}/slack/events`),
    signingSecret,
  });

  const holds = () => Promise.all(replicas.map((r) => heldProjects(r)));
  return {
    projects,
    sim,
    slack,
    redis,
    store,
    replicas,
    async restartSlot(i) {
      await replicas[i]!.stop();
      replicas[i] = await startSlot(i);
    },
    async command(channelId, text, via) {
      const response = await postSignedCommand(
        `http://127.0.0.1:${slots[via % replicaCount]!.slackPort}/slack/events`,
        signingSecret,
        slashCommand({
          response_url: slack.responseUrl(),
          text,
          user_id: 'U0ADMIN',
          channel_id: channelId,
          channel_name: channelId.toLowerCase(),
          team_id: workspaceId,
        }),
      );
      if (!response.ok) throw new Error(`/fundbot ${text} in ${channelId}: HTTP ${response.status}`);
    },
    holds,
    async evenSpread() {
      const all = await holds();
      const flat = all.flat();
      return (
        new Set(flat).size === projectCount &&
        flat.length === projectCount &&
        all.every((h) => h.length === projectCount / replicaCount)
      );
    },
    async stop(keep) {
      if (keep)
        for (const replica of replicas)
          log(`--- ${replica.name} log tail ---\n${replica.output().slice(-3_000)}`);
      await Promise.all(replicas.map((r) => r.stop()));
      await store.close().catch(() => {});
      await slack.close();
      await sim.close();
      await redis.stop();
      if (keep) log(`scenario replica logs kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The delivery records as the pipeline keeps them (app/wire-fundbot.ts, delivery/create-delivery.ts). */
export const deliveryLedger = (cluster: Cluster): DeliveryLedger =>
  createDeliveryLedger(namespaced(cluster.store, 'deliveries/'), { prefix: 'notices/delivered/' });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `check` holds, looking every 100 ms; a look that throws (a replica restarting) counts as not yet.
 * Throws with `what` after `timeoutMs`.
 */
export const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) =>
  waitUntil(what, check, { timeoutMs, everyMs: 100, onProbeError: 'retry' });
