import type { CampaignCheckStore, RollCallJournal } from '../digest/index.js';
import type { Engine } from '../engine/index.js';

/** A store that keeps data of one project by its link caption. */
export interface ProjectStore {
  /** What it keeps, for the log line and the test that lists them. */
  readonly name: string;
  /** Deletes everything it keeps of the project; the values removed. */
  forget(project: string): Promise<number>;
}

/**
 * Every store that keeps one project's data, in one list: a project disconnected from chat (hosted-projects.ts)
 * is forgotten from each, so its supporters' names do not stay behind. A new store that keeps data by project
 * registers here; test/app/hosted/project-stores.test.ts lists them, seeds each and scans the whole store after a
 * forget. Delivery records (`deliveries/…`) are not listed: they are kept per channel and event, expire with the
 * held notices and go with the workspace (forget-workspace.ts).
 */
export function projectStores(parts: {
  readonly engine: Pick<Engine, 'forgetState'>;
  readonly rollCallJournal: Pick<RollCallJournal, 'forget'>;
  readonly campaignChecks: Pick<CampaignCheckStore, 'forget'>;
}): readonly ProjectStore[] {
  return [
    { name: 'engine state', forget: (project) => parts.engine.forgetState(project) },
    { name: 'roll-call journal', forget: (project) => parts.rollCallJournal.forget(project) },
    { name: 'campaign checks', forget: (project) => parts.campaignChecks.forget(project) },
  ];
}

/** Forgets the project in every store, one after the other; the values removed. */
export async function forgetProject(stores: readonly ProjectStore[], project: string): Promise<number> {
  let removed = 0;
  for (const store of stores) removed += await store.forget(project);
  return removed;
}
