/**
 * The simulator for bench/scale.ts, in its own process so the bot process's CPU and
 * memory are measured alone: `count` projects, each with its own Pro key, behind a
 * small proxy that holds 1% of the requests for 5 s (a slow request, as in issue 14).
 * Sends `{ url, keys }` to the parent over IPC; exits when the parent disconnects.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSimulator } from '../src/simulator/index.js';
import { shiftedToAfterMidnight } from './shifted-clock.js';

const count = Number(process.argv[2] ?? 1000);
/** The parent's clock shift (bench/scale.ts: the run starts just after a UTC midnight). */
const offsetMs = Number(process.argv[3] ?? 0);
const clock = shiftedToAfterMidnight(offsetMs);
const slowShare = 0.01;
const slowMs = 5_000;
const now = clock.now();
const sim = await startSimulator({
  clock,
  seed: 14,
  projects: Array.from({ length: count }, (_, i) => ({
    linkCaption: `project-${i}`,
    ownerId: 1_000 + i,
    supporters: Array.from({ length: 30 }, (_, j) => ({ at: now - 86_400_000 + j * 60_000, amount: 10 })),
  })),
});
const keys = Array.from({ length: count }, (_, i) => sim.issueProjectKey(`project-${i}`));
const target = new URL(sim.url);
let slowed = 0;
const proxy = createServer((req, res) => {
  const forward = () => {
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  if (Math.random() < slowShare) {
    slowed += 1;
    setTimeout(forward, slowMs);
  } else forward();
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const { port } = proxy.address() as AddressInfo;
process.send?.({ url: `http://127.0.0.1:${port}`, keys });
process.on('message', (message) => {
  if (message === 'stats') {
    const cpu = process.cpuUsage();
    process.send?.({
      requests: sim.requests.length,
      slowed,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    });
  }
});
process.on('disconnect', () => {
  proxy.close();
  void sim.close().then(() => process.exit(0));
});
