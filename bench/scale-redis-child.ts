/**
 * One replica of bench `scaleRedis` (bench/scale-redis.ts) in a process of its own: serves the
 * projects its leases give it (bench/scale-process.ts on the shared redis:// store), tells the
 * parent each project it fully polled and when, starts its steady window when the parent says so, and
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
// Told to the parent in batches, each project with when it was fully polled: a message per project
// was 1,000 IPC writes in the middle of the first polls it measures.
let polled: [string, number][] = [];
const flush = () => {
  if (polled.length === 0) return;
  process.send?.({ polled });
  polled = [];
};
const flusher = setInterval(flush, 100);
const figures = await runScaleProcess({
  ...start,
  onFullyPolled: (project) => polled.push([project, Date.now()]),
  steady: () => steady,
});
clearInterval(flusher);
flush();
process.send?.({ figures }, () => process.exit(0));
