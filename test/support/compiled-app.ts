/**
 * fundbot compiled as the Docker image lays it out: `npm run build` (tsc -p tsconfig.build.json) into a
 * temporary /app-like directory holding `dist/`, `package.json` and `node_modules` (a link to the
 * repository's), to start with plain `node`: no tsx, no esbuild. `entries` adds files outside the build's
 * `src` and `commands` (the bench's child processes), compiled with everything they import.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface CompiledAppDir {
  readonly appDir: string;
  /** Where a repository file's compiled JavaScript is (`bench/scale-sim-child.ts` → `…/dist/bench/scale-sim-child.js`). */
  compiled(repoPath: string): string;
  remove(): void;
}

/**
 * Builds once (about 15-30 s on a shared 2-core machine) into `into` (a new directory) or a temporary one; the
 * caller removes it. Tests share one build per run: see shared-compiled-app.ts.
 */
export async function compileApp(
  options: {
    entries?: readonly string[];
    into?: string;
    /**
     * false: emit without type checking (`--noCheck`), for a run that type-checks beside it (`npm test` runs `npm
     * run typecheck`: the same compiler options over these files and more). The emitted files are the same byte
     * for byte (isolatedModules: each file is emitted on its own), for about a third of the CPU (measured: 15.7 s
     * against 39.5 s user+sys).
     */
    typeCheck?: boolean;
  } = {},
): Promise<CompiledAppDir> {
  const appDir = options.into ?? mkdtempSync(join(tmpdir(), 'fundbot-compiled-app-'));
  if (options.into !== undefined) mkdirSync(appDir);
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  // As in the image: the production dependencies in node_modules beside dist/ (and tsc's types for a tsconfig here).
  symlinkSync(join(repoRoot, 'node_modules'), join(appDir, 'node_modules'), 'dir');
  let project = join(repoRoot, 'tsconfig.build.json');
  if (options.entries?.length) {
    // The build's own settings and files, and these entries beside them ("files" adds to the inherited "include").
    project = join(appDir, 'tsconfig.json');
    writeFileSync(
      project,
      JSON.stringify({
        extends: join(repoRoot, 'tsconfig.build.json'),
        files: options.entries.map((entry) => join(repoRoot, entry)),
      }),
    );
  }
  try {
    const noCheck = options.typeCheck === false ? ['--noCheck'] : [];
    await promisify(execFile)(
      process.execPath,
      [tsc, '-p', project, ...noCheck, '--outDir', join(appDir, 'dist')],
      { cwd: repoRoot },
    );
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    rmSync(appDir, { recursive: true, force: true });
    throw new Error(`npm run build failed:\n${stdout}${stderr}`);
  }
  // As in the image: package.json (ESM, the version) beside dist/.
  copyFileSync(join(repoRoot, 'package.json'), join(appDir, 'package.json'));
  return compiledAppAt(appDir);
}

/** The compiled app built at `appDir`; `remove` deletes the directory unless the caller says otherwise. */
export function compiledAppAt(
  appDir: string,
  remove = () => rmSync(appDir, { recursive: true, force: true }),
): CompiledAppDir {
  return { appDir, compiled: (repoPath) => join(appDir, 'dist', repoPath.replace(/\.ts$/, '.js')), remove };
}
