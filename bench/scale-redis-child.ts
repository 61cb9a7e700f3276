/**
 * One replica of bench `scaleRedis` (bench/scale-redis.ts) in a process of its own: serves the
 * projects its leases give it (bench/scale-process.ts on the shared redis:// store), tells the
 * parent each project it fully polled, starts its steady window when the parent says so, and
 * sends its figures.
 */
import { runScaleProcess } from './scale-process.js';

interface Start {
  readonly simUrl: string;
  readonly keys: string[];
  readonly offsetMs: number;
  readonly storeUrl: string;
}

const start = await new Promise<Start>((resolve) => process.once('message', (m) => resolve(m as Start)));
const steady = new Promise<void>((resolve) => {
  process.on('message', (m) => {
    if (m === 'steady') resolve();
  });
});
const figures = await runScaleProcess({
  ...start,
  onFullyPolled: (project) => process.send?.({ polled: project }),
  steady: () => steady,
});
process.send?.({ figures }, () => process.exit(0));
