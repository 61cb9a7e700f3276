import { z } from 'zod';
import { heldNoticeMs } from '../../domain/held-notices.js';
import type { Clock } from '../../lib/clock.js';
import type { KeyValueStore } from '../../lib/store.js';
import type { Wakeups } from '../wakeups.js';
import { type BatchRecord, batchRecordSchema } from './batch-record.js';

/** Batches and their marks live as long as a notice is held (14 days): a late drop can still edit one. */
export const batchKeepMs = heldNoticeMs;

const ids = z.array(z.string());

export interface BatchStoreOptions {
  /**
   * How long a batch's write waits for more held notices (see {@link BatchStore.gather}).
   * Default 0: every change is written at once.
   */
  readonly gatherMs?: number;
  /** The pipeline's one timer and clock: needed when `gatherMs` is set. */
  readonly wakeups?: Wakeups;
  readonly clock?: Clock;
}

/** A gathered write not yet made: it stores every change since it was first asked for. */
interface GatheredWrite {
  readonly project: string;
  readonly stored: Promise<void>;
  readonly done: () => void;
}

/**
 * The held batches of the projects this process delivers, in memory, backed by the
 * store: `pacing/batch/<id>` per batch and `pacing/open/<project>` listing a
 * project's open ones. A project's batches are written only by the replica that holds
 * the project (its lease), so its open list has one writer; a replica that takes a
 * project over loads its list once (`load`). The list is rewritten only when a batch
 * opens or closes; the batch when a notice joins it, the notices that join within
 * `gatherMs` in one write (their ledger marks are written first, and the outbox keeps
 * them until the batch is stored: a crash before the write is repaired when they are
 * offered again). Writes of one batch are made one after the other, so an older
 * version never lands over a newer one.
 *
 * Before the per-project lists, one global `pacing/open` listed every open batch:
 * `adoptLegacy` moves its batches to their projects' lists once, at start.
 */
export function createBatchStore(store: KeyValueStore, options: BatchStoreOptions = {}) {
  const batchKey = (id: string) => `pacing/batch/${id}`;
  const openKey = (project: string) => `pacing/open/${encodeURIComponent(project)}`;
  const legacyOpenKey = 'pacing/open';
  /** project → its open batches (id → record); present once loaded. */
  const open = new Map<string, Map<string, BatchRecord>>();
  const loading = new Map<string, Promise<Map<string, BatchRecord>>>();
  const gathered = new Map<string, GatheredWrite>();
  /** Gathered writes on their way to the store: what they wait for is not stored yet. */
  const gatheredInFlight = new Map<string, GatheredWrite>();
  /** Per batch, the write in flight: the next one waits for it. */
  const writing = new Map<string, Promise<void>>();
  const { gatherMs = 0, wakeups, clock } = options;

  async function readOpen(project: string): Promise<Map<string, BatchRecord>> {
    const listed = (await store.get(openKey(project), ids)) ?? [];
    const records = await Promise.all(listed.map((id) => store.get(batchKey(id), batchRecordSchema)));
    return new Map(records.flatMap((b) => (b && b.state === 'open' ? [[b.id, b] as const] : [])));
  }

  async function saveOpenList(project: string, batches: Map<string, BatchRecord>): Promise<void> {
    if (batches.size === 0) await store.delete(openKey(project));
    else await store.set(openKey(project), [...batches.keys()]);
  }

  /** Writes a batch record after the write of it in flight, if any. */
  function writeBatch(batch: BatchRecord): Promise<void> {
    // What `writing` holds never rejects (`settled`): a failed write does not stop the next one.
    const previous = writing.get(batch.id) ?? Promise.resolve();
    const next = previous.then(() => store.set(batchKey(batch.id), batch, batchKeepMs));
    const settled = next.catch(() => undefined);
    writing.set(batch.id, settled);
    void settled.then(() => {
      if (writing.get(batch.id) === settled) writing.delete(batch.id);
    });
    return next;
  }

  /** Takes the gathered write of a batch: a write made now stores what it waited for. */
  function takeGathered(id: string): GatheredWrite | undefined {
    const write = gathered.get(id);
    gathered.delete(id);
    wakeups?.cancel(`batch-write:${id}`);
    return write;
  }

  /** A write that failed is gathered again, with what it waited for. */
  function gatherAgain(id: string, write: GatheredWrite | undefined): void {
    if (!write) return;
    const current = gathered.get(id);
    if (current) void current.stored.then(write.done);
    else schedule(id, write);
  }

  function schedule(id: string, write: GatheredWrite): void {
    gathered.set(id, write);
    wakeups?.at(`batch-write:${id}`, (clock?.now() ?? 0) + gatherMs, () => void writeGathered(id));
  }

  /** Writes a batch now: the write its gathering waited for is this one. */
  async function writeNow(batch: BatchRecord): Promise<void> {
    const waiting = takeGathered(batch.id);
    try {
      await writeBatch(batch);
    } catch (error) {
      gatherAgain(batch.id, waiting);
      throw error;
    }
    waiting?.done();
  }

  async function writeGathered(id: string): Promise<void> {
    const write = takeGathered(id);
    if (!write) return;
    // Closed meanwhile: the close stored it.
    const batch = open.get(write.project)?.get(id);
    gatheredInFlight.set(id, write);
    try {
      if (batch) await writeBatch(batch);
      write.done();
    } catch {
      // The store failed: written with the next gathering (the notices stay in the outbox until then).
      gatherAgain(id, write);
    } finally {
      if (gatheredInFlight.get(id) === write) gatheredInFlight.delete(id);
    }
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

    /**
     * Reads the project's open batches again (this replica took the project over: another one may have opened,
     * filled or closed them meanwhile). A batch with a write gathering here keeps this process's copy.
     */
    async reload(project: string): Promise<Map<string, BatchRecord>> {
      const stored = await readOpen(project);
      const known = open.get(project);
      for (const [id, batch] of known ?? [])
        if (gathered.has(id) || gatheredInFlight.has(id)) stored.set(id, batch);
      open.set(project, stored);
      return stored;
    },

    /** Reads a batch that may be closed (a correction of a posted batch). */
    async get(id: string): Promise<BatchRecord | undefined> {
      for (const batches of open.values()) {
        const found = batches.get(id);
        if (found) return found;
      }
      return store.get(batchKey(id), batchRecordSchema);
    },

    /** Writes an open batch now (and the project's list when the batch is new to it). */
    async saveOpen(batch: BatchRecord): Promise<void> {
      const batches = await api.load(batch.project);
      const isNew = !batches.has(batch.id);
      await writeNow(batch);
      batches.set(batch.id, batch);
      if (isNew) await saveOpenList(batch.project, batches);
    },

    /**
     * A held notice joined the batch: it is changed in memory now (and the project's list
     * written when the batch is new), and written once `gatherMs` later with every notice
     * that joined meanwhile. {@link BatchStore.stored} says when.
     */
    async gather(batch: BatchRecord): Promise<void> {
      if (gatherMs <= 0) return api.saveOpen(batch);
      const batches = await api.load(batch.project);
      const isNew = !batches.has(batch.id);
      batches.set(batch.id, batch);
      if (isNew) await saveOpenList(batch.project, batches);
      if (gathered.has(batch.id)) return;
      let done = () => {};
      const stored = new Promise<void>((resolve) => {
        done = resolve;
      });
      schedule(batch.id, { project: batch.project, stored, done });
    },

    /**
     * The batch as it goes out: the store's copy (on replicas another process may have held the project and added
     * notices to it meanwhile, seed 185) with this process's notices it lacks; undefined when it was posted
     * elsewhere. Read once per batch posted.
     */
    async beforePosting(project: string, id: string): Promise<BatchRecord | undefined> {
      const batches = await api.load(project);
      const mine = batches.get(id);
      const stored = await store.get(batchKey(id), batchRecordSchema);
      if (!stored) return mine;
      if (stored.state !== 'open') {
        batches.delete(id);
        return undefined;
      }
      const extra = (mine?.entries ?? []).filter((e) => !stored.entries.some((s) => s.eventId === e.eventId));
      const current = { ...stored, entries: [...stored.entries, ...extra] };
      batches.set(id, current);
      return current;
    },

    /** Resolves once the batch as it is in memory now is in the store. */
    stored: (id: string): Promise<void> =>
      gathered.get(id)?.stored ?? gatheredInFlight.get(id)?.stored ?? Promise.resolve(),

    /** Writes every gathered batch now (the pipeline stops). */
    async storeGathered(): Promise<void> {
      await Promise.all([...gathered.keys()].map((id) => writeGathered(id)));
    },

    /** The batch was posted: kept 14 days (for corrections), off the open list. */
    async close(batch: BatchRecord): Promise<void> {
      await writeNow(batch);
      const batches = await api.load(batch.project);
      if (batches.delete(batch.id)) await saveOpenList(batch.project, batches);
    },

    /** A posted batch edited after a drop (its name taken back). */
    async savePosted(batch: BatchRecord): Promise<void> {
      await writeBatch(batch);
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
