/**
 * fundbot's own HTTP leaves the process's HTTP stack alone. Loading undici installs it as
 * the process-wide dispatcher (the `Symbol.for('undici.globalDispatcher.1')` slot that
 * Node's fetch and every other undici copy read): fundbot's undici 7 took that slot and
 * @discordjs/rest's undici 6 then sent every file through it and failed ("action is not a
 * function"). A fresh process is the only place to see it: the test runner's own fetch has
 * long filled the slot.
 */
import { describe, expect, it } from 'vitest';
import { runInFreshProcess } from '../support/fresh-tsx-process.js';

/** Every layer but the chat adapters (whose SDKs bring and set their own), plus one real request. */
const script = `
const { startSimulator, demoLinkCaption } = await import('./src/simulator/index.ts');
const api = await import('./src/api/index.ts');
await import('./src/engine/index.ts');
await import('./src/core/index.ts');
await import('./src/digest/index.ts');
await import('./src/ops/index.ts');
await import('./src/config/index.ts');
const sim = await startSimulator({});
const client = api.createApiClient({ baseUrl: sim.url });
await client.project(demoLinkCaption).get();
await client.close();
await sim.close();
const slots = ['undici.globalDispatcher.1', 'undici.globalDispatcher.2'].map((name) => globalThis[Symbol.for(name)] === undefined);
process.stdout.write(JSON.stringify(slots));
`;

describe('fundbot and the process-wide HTTP dispatcher', () => {
  it('loading fundbot and sending an API request leave the dispatcher slot empty', () => {
    expect(runInFreshProcess(script, 60_000)).toEqual([true, true]);
  }, 70_000);
});
