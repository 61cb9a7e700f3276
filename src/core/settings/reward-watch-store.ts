import { z } from 'zod';
import type { ChannelRef } from '../../domain/channels.js';
import { workspaceKey } from '../../domain/channels.js';
import {
  type RewardWatch,
  rewardWatchesPerUser,
  rewardWatchesPerWorkspace,
  sameWatch,
} from '../../domain/reward-watch.js';
import type { KeyValueStore } from '../../lib/store.js';
import { withStoreLock } from '../../lib/store-lock.js';

type Workspace = Pick<ChannelRef, 'platform' | 'workspaceId'>;

/** A watcher found for a restocked reward: the watch and where it lives. */
export interface Watcher extends RewardWatch {
  readonly workspace: Workspace;
}

export type AddWatchResult = 'added' | 'already' | 'user-full' | 'workspace-full';

/**
 * The members' reward watches (`/watch reward <id>`), read by the direct messages on a restock
 * (src/delivery/reward-watch-dms.ts). One record per workspace that has any (`settings/reward-watch/<ws>`, a list
 * of {@link RewardWatch}), and one list of those workspaces (`settings/reward-watch-workspaces`) so a restock
 * finds its watchers without a scan. Every write is a read-modify-write under one store lock, so two replicas
 * (or two members at once) never lose a watch.
 */
export interface RewardWatchStore {
  add(workspace: Workspace, watch: RewardWatch): Promise<AddWatchResult>;
  /** Whether there was such a watch. */
  remove(workspace: Workspace, watch: Omit<RewardWatch, 'channelId'>): Promise<boolean>;
  ofUser(workspace: Workspace, userId: string): Promise<readonly RewardWatch[]>;
  /** Every watch of the reward, across workspaces. */
  watchersOf(project: string, rewardId: number): Promise<readonly Watcher[]>;
  /** An uninstall: the workspace's watches and its entry in the list. */
  removeWorkspace(workspace: Workspace): Promise<number>;
}

const watchSchema = z.object({
  userId: z.string(),
  channelId: z.string(),
  project: z.string(),
  rewardId: z.number(),
});
const watchesSchema = z.array(watchSchema);
const workspacesSchema = z.array(
  z.object({ platform: z.enum(['discord', 'slack', 'console']), workspaceId: z.string() }),
);

const lockKey = 'settings/reward-watch-lock';
const workspacesKey = 'settings/reward-watch-workspaces';

/** {@link RewardWatchStore} on the injected store (the settings store). */
export function createRewardWatchStore(store: KeyValueStore): RewardWatchStore {
  const key = (workspace: Workspace) => `settings/reward-watch/${workspaceKey(workspace)}`;
  const read = async (workspace: Workspace) => (await store.get(key(workspace), watchesSchema)) ?? [];
  const readWorkspaces = async () => (await store.get(workspacesKey, workspacesSchema)) ?? [];

  async function write(workspace: Workspace, watches: readonly RewardWatch[]): Promise<void> {
    const listed = await readWorkspaces();
    const others = listed.filter((w) => workspaceKey(w) !== workspaceKey(workspace));
    if (watches.length === 0) {
      await store.delete(key(workspace));
      if (others.length !== listed.length) await store.set(workspacesKey, others);
      return;
    }
    await store.set(key(workspace), watches);
    if (others.length === listed.length) {
      await store.set(workspacesKey, [
        ...listed,
        { platform: workspace.platform, workspaceId: workspace.workspaceId },
      ]);
    }
  }

  return {
    add: (workspace, watch) =>
      withStoreLock(store, lockKey, async () => {
        const watches = await read(workspace);
        if (watches.some((w) => sameWatch(w, watch))) return 'already';
        if (watches.filter((w) => w.userId === watch.userId).length >= rewardWatchesPerUser)
          return 'user-full';
        if (watches.length >= rewardWatchesPerWorkspace) return 'workspace-full';
        await write(workspace, [...watches, watch]);
        return 'added';
      }),
    remove: (workspace, watch) =>
      withStoreLock(store, lockKey, async () => {
        const watches = await read(workspace);
        const kept = watches.filter((w) => !sameWatch(w, watch));
        if (kept.length === watches.length) return false;
        await write(workspace, kept);
        return true;
      }),
    ofUser: async (workspace, userId) => (await read(workspace)).filter((w) => w.userId === userId),
    async watchersOf(project, rewardId) {
      const found: Watcher[] = [];
      for (const workspace of await readWorkspaces()) {
        for (const watch of await read(workspace)) {
          if (watch.project === project && watch.rewardId === rewardId) found.push({ ...watch, workspace });
        }
      }
      return found;
    },
    removeWorkspace: (workspace) =>
      withStoreLock(store, lockKey, async () => {
        const count = (await read(workspace)).length;
        await write(workspace, []);
        return count;
      }),
  };
}
