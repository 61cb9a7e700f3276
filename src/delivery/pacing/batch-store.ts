import { z } from 'zod';
import type { KeyValueStore } from '../../lib/store.js';
import { type BatchRecord, batchRecordSchema } from './batch-record.js';

/** Batches and their marks live as long as delivery records: a late drop can still edit one. */
export const batchKeepMs = 14 * 24 * 3_600_000;

const ids = z.array(z.string());

/**
 * The held batches of the projects this process delivers, in memory, backed by the
 * store: `pacing/batch/<id>` per batch and `pacing/open/<project>` listing a
 * project's open ones. A project's batches are written only by the replica that holds
 * the project (its lease), so its open list has one writer; a replica that takes a
 * project over loads its list once (`load`). The list is rewritten only when a batch
 * opens or closes, the batch once per held notice.
 *
 * Before the per-project lists, one global `pacing/open` listed every open batch:
 * `adoptLegacy` moves its batches to their projects' lists once, at start.
 */
export function createBatchStore(store: KeyValueStore) {
  const batchKey = (id: string) => `pacing/batch/${id}`;
  const openKey = (project: string) => `pacing/open/${encodeURIComponent(project)}`;
  const legacyOpenKey = 'pacing/open';
  /** project → its open batches (id → record); present once loaded. */
  const open = new Map<string, Map<string, BatchRecord>>();
  const loading = new Map<string, Promise<Map<string, BatchRecord>>>();

  async function readOpen(project: string): Promise<Map<string, BatchRecord>> {
    const listed = (await store.get(openKey(project), ids)) ?? [];
    const records = await Promise.all(listed.map((id) => store.get(batchKey(id), batchRecordSchema)));
    return new Map(records.flatMap((b) => (b && b.state === 'open' ? [[b.id, b] as const] : [])));
  }

  async function saveOpenList(project: string, batches: Map<string, BatchRecord>): Promise<void> {
    if (batches.size === 0) await store.delete(openKey(project));
    else await store.set(openKey(project), [...batches.keys()]);
  }

  const api = {
    /** The project's open batches (read from the store the first time this process needs them). */
    async load(project: string): Promise<Map<string, BatchRecord>> {
      const known = open.get(project);
      if (known) return known;
      let pending = loading.get(project);
      if (!pending) {
        pending = readOpen(project).finally(() => loading.delete(project));
        loading.set(project, pending);
      }
      const loaded = await pending;
      const existing = open.get(project);
      if (existing) return existing;
      open.set(project, loaded);
      return loaded;
    },

    /** Every loaded project's open batches. */
    loaded(): Iterable<BatchRecord> {
      return [...open.values()].flatMap((m) => [...m.values()]);
    },

    /** Reads a batch that may be closed (a correction of a posted batch). */
    async get(id: string): Promise<BatchRecord | undefined> {
      for (const batches of open.values()) {
        const found = batches.get(id);
        if (found) return found;
      }
      return store.get(batchKey(id), batchRecordSchema);
    },

    /** Writes an open batch (and the project's list when the batch is new to it). */
    async saveOpen(batch: BatchRecord): Promise<void> {
      const batches = await api.load(batch.project);
      const isNew = !batches.has(batch.id);
      await store.set(batchKey(batch.id), batch, batchKeepMs);
      batches.set(batch.id, batch);
      if (isNew) await saveOpenList(batch.project, batches);
    },

    /** The batch was posted: kept 14 days (for corrections), off the open list. */
    async close(batch: BatchRecord): Promise<void> {
      await store.set(batchKey(batch.id), batch, batchKeepMs);
      const batches = await api.load(batch.project);
      if (batches.delete(batch.id)) await saveOpenList(batch.project, batches);
    },

    /** A posted batch edited after a drop (its name taken back). */
    async savePosted(batch: BatchRecord): Promise<void> {
      await store.set(batchKey(batch.id), batch, batchKeepMs);
    },

    /** Moves the batches of the old global open list to their projects' lists (once). */
    async adoptLegacy(): Promise<number> {
      const legacy = await store.get(legacyOpenKey, ids);
      if (!legacy) return 0;
      let adopted = 0;
      for (const id of legacy) {
        const batch = await store.get(batchKey(id), batchRecordSchema);
        if (batch?.state !== 'open') continue;
        const batches = await api.load(batch.project);
        if (!batches.has(batch.id)) {
          batches.set(batch.id, batch);
          await saveOpenList(batch.project, batches);
          adopted += 1;
        }
      }
      await store.delete(legacyOpenKey);
      return adopted;
    },
  };
  return api;
}

export type BatchStore = ReturnType<typeof createBatchStore>;
