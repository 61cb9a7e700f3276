/**
 * The engine-only 1,000-project measurement of bench/scale.ts (`scaleEngine`) in a process of its own: its RSS
 * and CPU are then the engine's alone, not the campaign day's heap that ran before it in
 * the bench process. Sends the figures to the parent over IPC and exits.
 */
import { measureManyProjects } from './scale.js';

const figures = await measureManyProjects(Number(process.argv[2] ?? 1000));
process.send?.(figures, () => process.exit(0));
