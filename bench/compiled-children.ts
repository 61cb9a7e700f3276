import { fileURLToPath } from 'node:url';
import { type CompiledAppDir, compileApp } from '../test/support/compiled-app.js';

/** The bench's processes that serve or answer the measured load: they run compiled, as the image runs the bot. */
const childEntries = ['bench/scale-engine-child.ts', 'bench/scale-sim-child.ts'];

let build: Promise<CompiledAppDir> | undefined;

/** The build of this bench run: the app as the image lays it out (`dist/src/main.js`) and the bench's children. */
function benchBuild(): Promise<CompiledAppDir> {
  build ??= compileApp({ entries: childEntries }).then((app) => {
    process.once('exit', () => app.remove());
    return app;
  });
  return build;
}

/**
 * The module to fork for a bench child (`bench/scale-sim-child.ts`): its compiled JavaScript, to start with
 * plain `node` and no loader, as the Docker image starts `node dist/src/main.js`. Under tsx each process
 * compiled its modules at start, about 1.5 s of CPU each, while the processes started before it were
 * measuring their first polls on the same two cores. Built once per bench run (tsc, 7-8 s here) and
 * removed at exit; a child that is itself compiled forks its sibling from the same build.
 */
export async function benchChild(repoPath: string): Promise<string> {
  if (import.meta.url.endsWith('.js'))
    return fileURLToPath(new URL(`../${repoPath.replace(/\.ts$/, '.js')}`, import.meta.url));
  return (await benchBuild()).compiled(repoPath);
}

/**
 * The compiled app directory of this bench run, laid out as the image's /app (`dist/`, `package.json`,
 * `node_modules`): the real bot starts there with `node dist/src/main.js`, the image's command.
 */
export async function benchAppDir(): Promise<string> {
  if (import.meta.url.endsWith('.js')) return fileURLToPath(new URL('../..', import.meta.url));
  return (await benchBuild()).appDir;
}
