/**
 * fundbot compiled as the image lays it out (compiled-app.ts), built once per test run for every file that starts
 * the compiled entry: the first caller, in whichever worker, builds into the run's directory (test-run.ts); the
 * others wait for it. The run removes it at its end, so callers do not. Fresh each run, so no test starts a stale
 * `dist/`; emitted without type checking, which `npm run typecheck` does for the same files beside the tests.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type CompiledAppDir, compileApp, compiledAppAt } from './compiled-app.js';
import './provided-context.js';
import { waitUntil } from './wait-until.js';

let build: Promise<CompiledAppDir> | undefined;

export function sharedCompiledApp(): Promise<CompiledAppDir> {
  build ??= buildOrWait(inject('runDir'));
  return build;
}

async function buildOrWait(runDir: string): Promise<CompiledAppDir> {
  const into = join(runDir, 'compiled-app');
  const done = join(runDir, 'compiled-app.done');
  const failed = join(runDir, 'compiled-app.failed');
  // The run removes it: a caller's remove() leaves it to the others.
  const shared = (appDir: string) => compiledAppAt(appDir, () => {});
  if (claim(join(runDir, 'compiled-app.lock'))) {
    try {
      await compileApp({ into, typeCheck: false });
      writeFileSync(done, '');
    } catch (error) {
      writeFileSync(failed, error instanceof Error ? error.message : String(error));
      throw error;
    }
    return shared(into);
  }
  // Another worker builds it (a build takes 10-30 s; more on a machine that is busy).
  await waitUntil('the compiled app another test file builds', () => existsSync(done) || existsSync(failed), {
    timeoutMs: 240_000,
    everyMs: 100,
  });
  if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
  return shared(into);
}

/** Whether this caller is the first to ask (creating a directory either succeeds or finds it there). */
function claim(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
