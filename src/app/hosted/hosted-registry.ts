import { z } from 'zod';
import type { WorkspaceRef } from '../../core/index.js';
import type { KeyValueStore } from '../../lib/store.js';
import { withStoreLock } from '../../lib/store-lock.js';
import { sealedValueSchema, type TokenCipher } from '../../lib/token-cipher.js';

/**
 * Where connected projects live in the store (shared by every replica):
 *
 * | key | holds |
 * | --- | --- |
 * | `hosted/projects/<link caption>` | owner workspace, the Project API key sealed with AES-256-GCM (the store key is its associated data), who connected it, when, which feeds are off |
 * | `hosted/index` | every connected project and its owner: what each replica's sync reads |
 * | `hosted/index-lock` | a 5-second set-if-absent lock around index changes (connects on two replicas at once) |
 *
 * The key is never in clear in the store, a log or a message: it is sealed before it is written and opened
 * only to hand it to the engine. About 400 bytes per project, plus 60 in the index.
 */
export const hostedKeys = {
  project: (linkCaption: string) => `hosted/projects/${encodeURIComponent(linkCaption)}`,
  index: 'hosted/index',
  lock: 'hosted/index-lock',
} as const;

const workspaceSchema = z.object({
  platform: z.enum(['discord', 'slack', 'console']),
  workspaceId: z.string(),
});

export const hostedRecordSchema = z.object({
  workspace: workspaceSchema,
  key: sealedValueSchema,
  by: z.string(),
  at: z.number(),
  featuresOff: z.array(z.string()),
});
export type HostedRecord = z.infer<typeof hostedRecordSchema>;

const indexSchema = z.array(
  z.object({ linkCaption: z.string(), workspace: workspaceSchema, at: z.number() }),
);
export type HostedIndex = z.infer<typeof indexSchema>;

const sameWorkspace = (a: WorkspaceRef, b: WorkspaceRef) =>
  a.platform === b.platform && a.workspaceId === b.workspaceId;

export function hostedRegistry(store: KeyValueStore, cipher: TokenCipher) {
  /** Runs `change` on the index under the lock; waits up to 5 s for another replica's change. */
  async function withIndex(
    change: (index: HostedIndex) => HostedIndex | Promise<HostedIndex>,
  ): Promise<void> {
    await withStoreLock(store, hostedKeys.lock, async () =>
      store.set(hostedKeys.index, await change(await index())),
    );
  }
  const index = async (): Promise<HostedIndex> => (await store.get(hostedKeys.index, indexSchema)) ?? [];

  return {
    index,
    read: (linkCaption: string) => store.get(hostedKeys.project(linkCaption), hostedRecordSchema),
    /** The key in clear, for the engine only. */
    openKey: (linkCaption: string, record: HostedRecord) =>
      cipher.open(record.key, hostedKeys.project(linkCaption)),
    /**
     * Stores the sealed record and its index entry under the lock, so the owner check and the workspace's
     * limit hold against connects racing on other replicas: `limit` and `other-workspace` store nothing.
     */
    async write(
      linkCaption: string,
      input: Omit<HostedRecord, 'key'> & { readonly apiKey: string },
      limit = Number.POSITIVE_INFINITY,
    ): Promise<'ok' | 'limit' | 'other-workspace'> {
      const { apiKey, ...rest } = input;
      const record: HostedRecord = { ...rest, key: cipher.seal(apiKey, hostedKeys.project(linkCaption)) };
      let outcome: 'ok' | 'limit' | 'other-workspace' = 'ok';
      await withIndex(async (entries) => {
        const current = entries.find((e) => e.linkCaption === linkCaption);
        if (current && !sameWorkspace(current.workspace, input.workspace)) outcome = 'other-workspace';
        else if (
          !current &&
          entries.filter((e) => sameWorkspace(e.workspace, input.workspace)).length >= limit
        )
          outcome = 'limit';
        if (outcome !== 'ok') return entries;
        await store.set(hostedKeys.project(linkCaption), record);
        return [
          ...entries.filter((e) => e.linkCaption !== linkCaption),
          { linkCaption, workspace: input.workspace, at: input.at },
        ];
      });
      return outcome;
    },
    async remove(linkCaption: string): Promise<void> {
      await withIndex((entries) => entries.filter((e) => e.linkCaption !== linkCaption));
      await store.delete(hostedKeys.project(linkCaption));
    },
    ownedBy: async (workspace: WorkspaceRef) =>
      (await index()).filter((e) => sameWorkspace(e.workspace, workspace)),
  };
}

export type HostedRegistry = ReturnType<typeof hostedRegistry>;
export { sameWorkspace };
