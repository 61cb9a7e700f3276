import type { ApiClient } from '../../api/index.js';
import type { FundbotConfig } from '../../config/index.js';
import type { HostedProjects, WorkspaceRef } from '../../core/index.js';
import type { Engine } from '../../engine/index.js';
import type { Clock } from '../../lib/clock.js';
import { verifyEncryptionKey } from '../../lib/encryption-key-check.js';
import type { KeyValueStore } from '../../lib/store.js';
import { createTokenCipher, encryptionKeyFromBase64 } from '../../lib/token-cipher.js';
import type { Logger } from '../../ops/index.js';
import type { ProjectStore } from '../project-stores.js';
import { createHostedProjects, type RunningHostedProjects } from './hosted-projects.js';

/** Hosted fundbot as start-bot wires it: nothing at all when `hosted.enabled` is off. */
export interface Hosting {
  /** For wireFundbot's `hosted`: undefined when hosting is off. */
  readonly factory: ((engine: Engine, projectStores: readonly ProjectStore[]) => HostedProjects) | undefined;
  /** Connected projects (every workspace's): the balancer and health add them to the configured ones. */
  linkCaptions(): readonly string[];
  /** Checks FUNDBOT_ENCRYPTION_KEY against the store's check value (refuses a wrong key, saying what to do). */
  verifyKey(): Promise<void>;
  /** Loads the connected projects into the engine and keeps them in sync with the other replicas. */
  start(): Promise<void>;
  stop(): void;
  forgetWorkspace(workspace: WorkspaceRef): Promise<number>;
}

/** How often every replica reads the shared index of connected projects. */
const defaultSyncIntervalMs = 5_000;

export function prepareHosting(input: {
  readonly config: Pick<FundbotConfig, 'hosted' | 'projects'>;
  readonly store: KeyValueStore;
  readonly api: ApiClient;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly syncIntervalMs?: number;
  /**
   * On replicas: the lease balancer (a new project's baseline is read under a lease claimed on the replica
   * answering the connect) and the lease TTL (a disconnected project's state waits a sync and a TTL).
   */
  readonly replicas?:
    | {
        readonly balancer: { claim(project: string): Promise<boolean> };
        readonly ttlMs: number;
      }
    | undefined;
}): Hosting {
  const { hosted } = input.config;
  if (!hosted.enabled || !hosted.encryptionKey) {
    return {
      factory: undefined,
      linkCaptions: () => [],
      verifyKey: async () => {},
      start: async () => {},
      stop: () => {},
      forgetWorkspace: async () => 0,
    };
  }
  const cipher = createTokenCipher(encryptionKeyFromBase64(hosted.encryptionKey.reveal()));
  let running: RunningHostedProjects | undefined;
  return {
    factory: (engine, projectStores) => {
      running = createHostedProjects({
        store: input.store,
        cipher,
        api: input.api,
        engine,
        projectStores,
        configured: () => input.config.projects.map((p) => p.linkCaption),
        limit: hosted.maxProjectsPerWorkspace,
        clock: input.clock,
        logger: input.logger.child({ component: 'hosted' }),
        ...(input.replicas
          ? {
              claimLease: (project: string) => input.replicas!.balancer.claim(project),
              // Every replica synced (one interval) and the last holder's lease ran out (one TTL), with a margin.
              forgetAfterMs: (input.syncIntervalMs ?? defaultSyncIntervalMs) + input.replicas.ttlMs + 1_000,
            }
          : {}),
      });
      return running;
    },
    linkCaptions: () => running?.linkCaptions() ?? [],
    verifyKey: () => verifyEncryptionKey(input.store, cipher),
    async start() {
      await running?.sync();
      running?.start(input.syncIntervalMs ?? defaultSyncIntervalMs);
    },
    stop: () => running?.stop(),
    forgetWorkspace: async (workspace) => (await running?.forgetWorkspace(workspace)) ?? 0,
  };
}
