/**
 * The compiled entry point as the Docker image lays it out (test/support/compiled-app.ts), started with plain
 * `node dist/src/main.js`: no tsx, no esbuild.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
import { sharedCompiledApp } from '../../support/shared-compiled-app.js';
import { type Entry, repoRoot } from './bot-process.js';

export type CompiledEntry = Extract<Entry, { readonly kind: 'compiled' }>;

export interface CompiledApp {
  readonly entry: CompiledEntry;
  readonly appDir: string;
}

/** Built once per test run, shared with the other files that start the compiled entry (the run removes it). */
export async function buildCompiledApp(): Promise<CompiledApp> {
  const app = await sharedCompiledApp();
  return { entry: { kind: 'compiled', appDir: app.appDir }, appDir: app.appDir };
}

/**
 * The compiled entry for the journeys of one file, built (or waited for) in a beforeAll of its own: a build on a
 * busy machine can take longer than a step may. The feature journeys start it: a tsx start costs about 2 s more
 * CPU than plain node (measured: 4.3-4.8 s user against 2.3-2.9 s for 25 s of the demo), and the build is shared
 * by the whole run. The journeys of `npm start`'s own path (README) start tsx.
 */
export function compiledEntryForFile(): () => CompiledEntry {
  let entry: CompiledEntry | undefined;
  beforeAll(async () => {
    entry = (await buildCompiledApp()).entry;
  }, 240_000);
  return () => {
    if (!entry) throw new Error('the compiled entry was not built (see the first failure)');
    return entry;
  };
}

/** What the Dockerfile's runtime stage sets: its environment and its HEALTHCHECK command. */
export interface ImageSettings {
  readonly env: Readonly<Record<string, string>>;
  /** The HEALTHCHECK's CMD in exec form, e.g. ["node", "-e", "…"]. */
  readonly healthcheck: readonly string[];
}

/** Reads the runtime stage (the last FROM) of the repository's Dockerfile. */
export function readImageSettings(): ImageSettings {
  const text = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
  // Continuation lines joined, comments dropped: one instruction per line.
  const instructions = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'));
  const runtime = instructions.slice(instructions.findLastIndex((line) => line.startsWith('FROM ')));
  const env: Record<string, string> = {};
  for (const line of runtime.filter((l) => l.startsWith('ENV '))) {
    for (const [, key = '', value = ''] of line.slice(4).matchAll(/([A-Z_][A-Z0-9_]*)=("[^"]*"|\S+)/g)) {
      env[key] = value.replace(/^"|"$/g, '');
    }
  }
  const healthcheck = runtime.find((l) => l.startsWith('HEALTHCHECK '));
  const cmd = healthcheck ? /CMD (\[.*\])\s*$/.exec(healthcheck)?.[1] : undefined;
  if (!cmd) throw new Error('the Dockerfile has no HEALTHCHECK CMD in exec form');
  return { env, healthcheck: JSON.parse(cmd) as string[] };
}
