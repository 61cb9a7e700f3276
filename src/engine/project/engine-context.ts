import type { EngineServices } from '../context/engine-services.js';
import type { ProjectRuntime } from './project-runtime.js';

export { type EngineCounters, emptyCounters, type RequestTag } from '../context/engine-services.js';

/** What the assembled engine shares: the services every stage is handed, and the per-project records. */
export interface EngineContext extends EngineServices {
  readonly runtimes: ReadonlyMap<string, ProjectRuntime>;
}
