/**
 * The real-bot runner `npm run chaos -- --seed N --real-bot` uses: `src/main.ts` under tsx, or with `--compiled`
 * the compiled `dist/src/main.js`, built once for the run (as the image lays it out) and removed at exit.
 */
import { compileApp } from '../../support/compiled-app.js';
import type { SeedRun } from '../run-seed.js';
import { runRealBotSeed } from './run-real-bot.js';

export async function realBotRunner(compiled: boolean): Promise<(seed: number) => Promise<SeedRun>> {
  if (!compiled) return (seed) => runRealBotSeed(seed);
  const app = await compileApp();
  process.once('exit', () => app.remove());
  const entry = { kind: 'compiled' as const, appDir: app.appDir };
  return (seed) => runRealBotSeed(seed, { entry });
}
