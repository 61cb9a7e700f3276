/**
 * `npm test`: the typecheck, the lint and the tests, all three at once, failing if any fails. One after the other
 * the checks kept both cores busy for about a minute before the first test started; beside vitest they use the
 * time its journeys spend waiting on the bot, at a lower priority (nice 10) so the tests' timing is theirs.
 * Vitest's output is shown as it comes; each check's when it ends, under its name. Arguments go to vitest
 * (`npm test -- test/journeys`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

interface Finished {
  readonly name: string;
  readonly code: number;
  readonly seconds: number;
}

const started = Date.now();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const children = new Set<ChildProcess>();
/** Vitest's command line (its `bin`), beside its package.json. */
const vitestBin = fileURLToPath(new URL('vitest.mjs', import.meta.resolve('vitest/package.json')));

function finished(name: string, child: ChildProcess): Promise<Finished> {
  children.add(child);
  return new Promise((resolve) => {
    const done = (code: number) => {
      children.delete(child);
      resolve({ name, code, seconds: Math.round((Date.now() - started) / 1000) });
    };
    child.once('error', (error) => {
      process.stderr.write(`${name} could not start: ${error.message}\n`);
      done(1);
    });
    child.once('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** `npm run <script>` in the background: its output kept and printed in one piece when it ends. */
function check(script: string): Promise<Finished> {
  const child = spawn(npm, ['run', '--silent', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  // Lowered before npm forks the script, so tsc and biome inherit it.
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, 10);
    } catch {
      // Not permitted here: the check runs at the tests' priority, which only costs time.
    }
  }
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return finished(script, child).then((result) => {
    const verdict = result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`;
    process.stdout.write(
      `\n> npm run ${script}: ${verdict} after ${result.seconds} s\n${output.trimEnd()}\n`,
    );
    return result;
  });
}

// Each child leads a process group of its own (`detached`), so a stop reaches everything under it: vitest's
// workers and the bots they started outlived a signal sent to vitest alone (SIGINT and SIGTERM both).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of children) {
      try {
        process.kill(-(child.pid ?? 0), signal);
      } catch {
        child.kill(signal); // no process groups (Windows)
      }
    }
  });
}

const tests = finished(
  'vitest run',
  spawn(process.execPath, [vitestBin, 'run', ...process.argv.slice(2)], {
    stdio: 'inherit',
    detached: true,
  }),
);
const results = await Promise.all([check('typecheck'), check('lint'), tests]);
const failed = results.filter((r) => r.code !== 0);
for (const r of results)
  process.stdout.write(`${r.name}: ${r.code === 0 ? 'passed' : 'FAILED'} (${r.seconds} s)\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
