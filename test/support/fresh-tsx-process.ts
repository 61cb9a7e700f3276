import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs TypeScript in a fresh Node process (tsx, from the repository's root, with only PATH and HOME in its
 * environment), for what one process's module graph decides (what is loaded at start, which global a library
 * takes): a test's own process has loaded too much to tell. Expects exit 0 (its stderr as the message) and
 * returns the JSON the script printed. `script` is a file (a URL) or module source to evaluate.
 */
export function runInFreshProcess(script: URL | string, timeoutMs: number): unknown {
  const args =
    typeof script === 'string'
      ? ['--import', 'tsx', '--input-type=module', '-e', script]
      : ['--import', 'tsx', fileURLToPath(script)];
  const run = spawnSync(process.execPath, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    timeout: timeoutMs,
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}
