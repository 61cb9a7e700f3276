import {
  type ApiClient,
  ApiKeyFormatError,
  type Project,
  type ProjectKey,
  parseProjectKey,
  USER_KEY_PREFIX,
} from '../../api/index.js';
import type { ConnectOutcome, HostedProjects, WorkspaceRef } from '../../core/index.js';
import { feedTable } from '../../domain/feeds.js';
import type { Engine } from '../../engine/index.js';
import type { Clock } from '../../lib/clock.js';
import type { KeyValueStore } from '../../lib/store.js';
import type { TokenCipher } from '../../lib/token-cipher.js';
import type { Logger } from '../../ops/index.js';
import { forgetProject, type ProjectStore } from '../project-stores.js';
import { checkConnectKey } from './connect-check.js';
import { type HostedRegistry, hostedRegistry, sameWorkspace } from './hosted-registry.js';

/** A link caption as the config accepts it (schema.ts): letters, digits, - and _. */
const linkCaptionPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

export interface HostedProjectsOptions {
  readonly store: KeyValueStore;
  readonly cipher: TokenCipher;
  readonly api: ApiClient;
  readonly engine: Pick<Engine, 'addProject' | 'removeProject' | 'readBaseline'>;
  /** Every store that keeps one project's data (project-stores.ts): a disconnected project is forgotten in each. */
  readonly projectStores: readonly ProjectStore[];
  /** The operator's configured projects: never connectable from chat (they are everyone's already). */
  readonly configured: () => readonly string[];
  readonly limit: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Told when this replica's set of connected projects changed (the balancer reads it anyway). */
  readonly onChange?: () => void;
  /**
   * Replicas: takes the project's lease on this replica now (the replica answering the connect reads the
   * baseline under it, and whoever polls later continues from that stored state); false while another holds
   * it. Absent with one process (the engine's own lease).
   */
  readonly claimLease?: (linkCaption: string) => Promise<boolean>;
  /**
   * How long after a disconnect the project's stored state is deleted: every replica must have synced and the
   * last holder's lease run out first, or its last commit could write the state again. Default 0 (one process).
   */
  readonly forgetAfterMs?: number;
  /** How long a connect waits for the lease and the first read before it gives up (default 20 s). */
  readonly baselineTimeoutMs?: number;
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
 * Hosted fundbot's projects (issues 24 and 30): a workspace admin connects a project from chat. The key is
 * tried on every feed fundbot will poll (connect-check.ts); a new project's first poll cycle then runs on this
 * replica under the project's lease (claimed here on replicas) and is committed BEFORE the answer, so "watches it
 * from now on" holds: whoever polls it later continues from that stored baseline. Only then is the key sealed
 * (AES-256-GCM, FUNDBOT_ENCRYPTION_KEY) into the shared store. On replicas the lease balancer (which reads
 * {@link linkCaptions}) may hand the project on; every replica's sync (5 s, or at once when a command names a
 * project it does not know) adds it. A refused connect stores nothing and leaves nothing polled.
 *
 * Cost of a new connect: 5 probe requests (sent together), the first cycle's reads (the project read is the
 * probe's: about 6 requests on a small project), one lease claim, the first commit, 3 store writes for the
 * record and index. A rotation: the 5 probes and the 3 writes. A sync: one store read, plus one per project
 * that changed.
 */
export function createHostedProjects(options: HostedProjectsOptions): RunningHostedProjects {
  const registry: HostedRegistry = hostedRegistry(options.store, options.cipher);
  const { logger } = options;
  /** What this replica's engine watches: owner and version (`at`) per connected project. */
  const watched = new Map<string, { workspace: WorkspaceRef; at: number }>();
  /** New projects whose baseline is being read here: leased and polled, not yet in the index. */
  const pending = new Set<string>();
  /** Disconnected projects whose stored state is deleted once no replica can write it any more. */
  const forgetting = new Map<string, NodeJS.Timeout>();
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

  /**
   * The first read of a new project, before anything is stored: its lease on this replica (replicas), a clean
   * slate (what an earlier connection left is not this one's baseline), the engine's first cycle committed.
   * On failure nothing of it stays. While it runs, the project is `pending`: the balancer keeps its lease
   * and the periodic sync leaves it alone.
   */
  async function readBaseline(
    linkCaption: string,
    key: ProjectKey,
    read: Project | undefined,
  ): Promise<boolean> {
    pending.add(linkCaption);
    options.onChange?.();
    const deadline = options.clock.now() + (options.baselineTimeoutMs ?? 20_000);
    let added = false;
    try {
      if (options.claimLease && !(await claimBefore(linkCaption, deadline))) return false;
      await forgetProject(options.projectStores, linkCaption);
      // The key check's project read serves as the first project poll (taken once).
      let checked = read;
      added = options.engine.addProject({
        linkCaption,
        key,
        checkedRead: () => {
          const taken = checked;
          checked = undefined;
          return taken;
        },
      });
      if (await options.engine.readBaseline(linkCaption)) return true;
    } catch (error) {
      logger.warn(
        { project: linkCaption, err: error instanceof Error ? error.message : String(error) },
        'the first read of a connected project failed',
      );
    }
    pending.delete(linkCaption);
    if (added) await options.engine.removeProject(linkCaption);
    await forgetProject(options.projectStores, linkCaption).catch(() => 0);
    options.onChange?.();
    return false;
  }

  /** Claims the lease, retrying while a replica that dropped the project a moment ago still holds it. */
  async function claimBefore(linkCaption: string, deadline: number): Promise<boolean> {
    for (;;) {
      if (await options.claimLease?.(linkCaption)) return true;
      if (options.clock.now() + 250 > deadline) return false;
      await options.clock.sleep(250);
    }
  }

  async function connect(input: Parameters<HostedProjects['connect']>[0]): Promise<ConnectOutcome> {
    const { workspace, linkCaption } = input;
    const refused = (
      reason: Extract<ConnectOutcome, { kind: 'refused' }>['reason'],
      missingScopes?: readonly string[],
    ): ConnectOutcome => ({
      kind: 'refused',
      linkCaption,
      reason,
      limit: options.limit,
      ...(missingScopes ? { missingScopes } : {}),
    });
    if (!linkCaptionPattern.test(linkCaption)) return refused('bad-caption');
    if (input.apiKey.startsWith(USER_KEY_PREFIX)) return refused('user-key');
    let key: ProjectKey;
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
    if (pending.has(linkCaption)) return refused('baseline-failed');

    // Every feed fundbot will poll, tried with the key before anything is stored or polled.
    const check = await checkConnectKey(options.api, linkCaption, key);
    if (check.kind === 'refused') return refused(check.reason, check.missingScopes);
    const featuresOff = check.featuresOff.flatMap((feed) => feedTable[feed].notices);
    // A new project: its baseline first, so "from now on" holds from the answer on. A rotation keeps the state.
    if (!existing && !(await readBaseline(linkCaption, key, check.read))) return refused('baseline-failed');

    // Checked again under the index lock: a connect racing on another replica cannot pass the limit.
    const at = options.clock.now();
    const written = await registry.write(
      linkCaption,
      {
        workspace: { platform: workspace.platform, workspaceId: workspace.workspaceId },
        apiKey: input.apiKey,
        by: input.by,
        at,
        featuresOff,
      },
      options.limit,
    );
    if (written !== 'ok') {
      if (!existing) await dropNew(linkCaption);
      return refused(written);
    }
    if (existing) await watch(linkCaption);
    else {
      watched.set(linkCaption, { workspace: { ...workspace }, at });
      pending.delete(linkCaption);
    }
    logger.info(
      {
        project: linkCaption,
        workspace: `${workspace.platform}:${workspace.workspaceId}`,
        key: key.toString(),
        featuresOff,
      },
      existing ? 'connected project key replaced' : 'project connected from chat: baseline read, watching',
    );
    return { kind: existing ? 'rotated' : 'connected', linkCaption, featuresOff };
  }

  /** A new project whose record could not be written after its baseline: nothing of it stays. */
  async function dropNew(linkCaption: string): Promise<void> {
    pending.delete(linkCaption);
    await options.engine.removeProject(linkCaption);
    await forgetProject(options.projectStores, linkCaption).catch(() => 0);
    options.onChange?.();
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
    await forgetLater(linkCaption);
    return true;
  }

  /**
   * Deletes a disconnected project's stored state (its supporters' names among it) once no replica can
   * write it any more: at once with one process, else after `forgetAfterMs`. Not when it was connected again
   * meanwhile (that connect started its own baseline). A replica stopped before then leaves it; the
   * project's next connect deletes it before its first read.
   */
  async function forgetLater(linkCaption: string): Promise<void> {
    const forget = async () => {
      forgetting.delete(linkCaption);
      if (watched.has(linkCaption) || pending.has(linkCaption) || (await registry.read(linkCaption))) return;
      const values = await forgetProject(options.projectStores, linkCaption);
      logger.info({ project: linkCaption, values }, "a disconnected project's stored state is deleted");
    };
    const delay = options.forgetAfterMs ?? 0;
    if (delay <= 0) return forget();
    clearTimeout(forgetting.get(linkCaption));
    const timer = setTimeout(() => {
      forget().catch((error: unknown) =>
        logger.warn(
          { project: linkCaption, err: error instanceof Error ? error.message : String(error) },
          "a disconnected project's stored state could not be deleted: its next connect deletes it",
        ),
      );
    }, delay);
    timer.unref();
    forgetting.set(linkCaption, timer);
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
    linkCaptions: () => [...watched.keys(), ...pending],
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
      for (const waiting of forgetting.values()) clearTimeout(waiting);
      forgetting.clear();
    },
  };
}
