import { type ApiClient, ApiKeyFormatError, parseProjectKey } from '../../api/index.js';
import { checkProjectKeys } from '../../config/index.js';
import type { ConnectOutcome, HostedProjects, WorkspaceRef } from '../../core/index.js';
import type { Engine } from '../../engine/index.js';
import type { Clock } from '../../lib/clock.js';
import type { KeyValueStore } from '../../lib/store.js';
import type { TokenCipher } from '../../lib/token-cipher.js';
import type { Logger } from '../../ops/index.js';
import { type HostedRegistry, hostedRegistry, sameWorkspace } from './hosted-registry.js';

/** A link caption as the config accepts it (schema.ts): letters, digits, - and _. */
const linkCaptionPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

export interface HostedProjectsOptions {
  readonly store: KeyValueStore;
  readonly cipher: TokenCipher;
  readonly api: ApiClient;
  readonly engine: Pick<Engine, 'addProject' | 'removeProject'>;
  /** The operator's configured projects: never connectable from chat (they are everyone's already). */
  readonly configured: () => readonly string[];
  readonly limit: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Told when this replica's set of connected projects changed (the balancer reads it anyway). */
  readonly onChange?: () => void;
}

export interface RunningHostedProjects extends HostedProjects {
  /** Every connected project (of every workspace), for the lease balancer and health. */
  linkCaptions(): readonly string[];
  /** Reads the shared index and has the engine watch exactly the connected projects (keys rotated elsewhere too). */
  sync(): Promise<void>;
  /** Disconnects every project of a workspace (its uninstall); returns how many. */
  forgetWorkspace(workspace: WorkspaceRef): Promise<number>;
  /** Syncs every `intervalMs` (another replica's connect, disconnect or rotation) until stop(). */
  start(intervalMs?: number): void;
  stop(): void;
}

/**
 * Hosted fundbot's projects (issue 24): a workspace admin connects a project from chat; the key is checked
 * exactly like the start-up key check (`checkProjectKeys`: project, plan, scopes and what each missing
 * scope turns off), sealed (AES-256-GCM, FUNDBOT_ENCRYPTION_KEY) into the shared store, and the engine
 * watches the project at once; on replicas the lease balancer (which reads {@link linkCaptions}) decides
 * who polls it, and every replica's sync (5 s, or at once when a command names a project it does not know) adds it.
 *
 * Cost: a connect is the key check's requests (1 + one per feed probe) and 3 store writes; a sync is one
 * store read, plus one per project that changed.
 */
export function createHostedProjects(options: HostedProjectsOptions): RunningHostedProjects {
  const registry: HostedRegistry = hostedRegistry(options.store, options.cipher);
  const { logger } = options;
  /** What this replica's engine watches: owner and version (`at`) per connected project. */
  const watched = new Map<string, { workspace: WorkspaceRef; at: number }>();
  let timer: NodeJS.Timeout | undefined;
  /** One sync at a time: a refresh asked during a sync shares it. */
  let syncing: Promise<void> | undefined;

  async function watch(linkCaption: string): Promise<void> {
    const record = await registry.read(linkCaption);
    if (!record) return;
    const key = parseProjectKey(registry.openKey(linkCaption, record));
    const previous = watched.get(linkCaption);
    if (previous?.at === record.at) return;
    // A new key (rotation): the engine's runtime is bound to the old one; its stored state carries over.
    if (previous) await options.engine.removeProject(linkCaption);
    options.engine.addProject({ linkCaption, key, keySource: { kind: 'connected' } });
    watched.set(linkCaption, { workspace: record.workspace, at: record.at });
    options.onChange?.();
  }

  async function unwatch(linkCaption: string): Promise<void> {
    if (!watched.delete(linkCaption)) return;
    await options.engine.removeProject(linkCaption);
    options.onChange?.();
  }

  async function connect(input: Parameters<HostedProjects['connect']>[0]): Promise<ConnectOutcome> {
    const { workspace, linkCaption } = input;
    const refused = (reason: Extract<ConnectOutcome, { kind: 'refused' }>['reason']): ConnectOutcome => ({
      kind: 'refused',
      linkCaption,
      reason,
      limit: options.limit,
    });
    if (!linkCaptionPattern.test(linkCaption)) return refused('bad-caption');
    let key: ReturnType<typeof parseProjectKey>;
    try {
      key = parseProjectKey(input.apiKey);
    } catch (error) {
      if (error instanceof ApiKeyFormatError) return refused('bad-key-format');
      throw error;
    }
    if (options.configured().includes(linkCaption)) return refused('operator-project');
    const existing = await registry.read(linkCaption);
    if (existing && !sameWorkspace(existing.workspace, workspace)) return refused('other-workspace');
    if (!existing && (await registry.ownedBy(workspace)).length >= options.limit) return refused('limit');

    // The start-up key check, for this one key. Its warnings name an environment variable: not shown in chat.
    const report = await checkProjectKeys({
      api: options.api,
      projects: [{ linkCaption, apiKeyEnv: 'the connected key', apiKey: key }],
      timeoutMs: 5_000,
    });
    const status = report.projects[0];
    if (!status || status.status === 'disabled') return refused('not-readable');
    if (status.status === 'paused') return refused('key-rejected');
    if (status.features.project !== 'on') return refused('unverified');
    const featuresOff = Object.entries(status.features)
      .filter(([, state]) => state === 'off')
      .map(([feature]) => feature);

    // Checked again under the index lock: a connect racing on another replica cannot pass the limit.
    const written = await registry.write(
      linkCaption,
      {
        workspace: { platform: workspace.platform, workspaceId: workspace.workspaceId },
        apiKey: input.apiKey,
        by: input.by,
        at: options.clock.now(),
        featuresOff,
      },
      options.limit,
    );
    if (written !== 'ok') return refused(written);
    await watch(linkCaption);
    logger.info(
      {
        project: linkCaption,
        workspace: `${workspace.platform}:${workspace.workspaceId}`,
        key: key.toString(),
        featuresOff,
      },
      existing ? 'connected project key replaced' : 'project connected from chat',
    );
    return { kind: existing ? 'rotated' : 'connected', linkCaption, featuresOff };
  }

  async function disconnect(workspace: WorkspaceRef, linkCaption: string): Promise<boolean> {
    const record = await registry.read(linkCaption);
    if (!record || !sameWorkspace(record.workspace, workspace)) return false;
    await registry.remove(linkCaption);
    await unwatch(linkCaption);
    logger.info(
      { project: linkCaption, workspace: `${workspace.platform}:${workspace.workspaceId}` },
      'connected project disconnected: key deleted, polling stopped',
    );
    return true;
  }

  async function sync(): Promise<void> {
    const index = await registry.index();
    const listed = new Set(index.map((e) => e.linkCaption));
    for (const linkCaption of [...watched.keys()]) if (!listed.has(linkCaption)) await unwatch(linkCaption);
    for (const entry of index) {
      if (watched.get(entry.linkCaption)?.at === entry.at) continue;
      try {
        await watch(entry.linkCaption);
      } catch (error) {
        logger.error(
          { project: entry.linkCaption, err: error instanceof Error ? error.message : String(error) },
          'a connected project cannot be watched: its sealed key does not open (FUNDBOT_ENCRYPTION_KEY changed?)',
        );
      }
    }
  }

  function syncOnce(): Promise<void> {
    if (!syncing) {
      syncing = sync().finally(() => {
        syncing = undefined;
      });
    }
    return syncing;
  }

  return {
    limit: options.limit,
    ownerOf: (linkCaption) => watched.get(linkCaption)?.workspace,
    async list(workspace) {
      const own = await registry.ownedBy(workspace);
      const records = await Promise.all(own.map(async (e) => ({ e, r: await registry.read(e.linkCaption) })));
      return records.flatMap(({ e, r }) =>
        r
          ? [{ linkCaption: e.linkCaption, connectedBy: r.by, connectedAt: r.at, featuresOff: r.featuresOff }]
          : [],
      );
    },
    connect,
    disconnect,
    linkCaptions: () => [...watched.keys()],
    sync,
    refresh: syncOnce,
    async forgetWorkspace(workspace) {
      const own = await registry.ownedBy(workspace);
      for (const entry of own) await disconnect(workspace, entry.linkCaption);
      return own.length;
    },
    start(intervalMs = 5_000) {
      if (timer) return;
      timer = setInterval(() => {
        syncOnce().catch((error: unknown) =>
          logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'hosted project sync failed',
          ),
        );
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
