/**
 * What a simulated project and its parts (rewards, supports, wall, blog, subscribers)
 * are given. Kept apart from `SimProject` so the parts depend on these two small
 * interfaces rather than on the class that owns them.
 */
import type { Clock } from '../lib/clock.js';
import type { IdSource } from './ids.js';
import type { NameGenerator } from './names.js';
import type { UserRegistry } from './users.js';

/** What a project needs from its simulator. */
export interface SimProjectContext {
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly users: UserRegistry;
  readonly names: NameGenerator;
  readonly publicBaseUrl: string;
}

/**
 * The project fields its parts read. Title and goal can change mid-campaign, so the
 * parts hold the live project rather than a copy.
 */
export interface ProjectFacts {
  readonly id: number;
  readonly linkCaption: string;
  readonly title: string;
  readonly currency: string;
  readonly fundingThreshold: number;
}
