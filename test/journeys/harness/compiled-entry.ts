/**
 * The compiled entry point as the Docker image lays it out: `npm run build` (tsc -p tsconfig.build.json) into a
 * temporary /app-like directory holding `dist/`, `package.json` and `node_modules` (a link to the repository's),
 * started with plain `node dist/src/main.js`: no tsx, no esbuild.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Entry, repoRoot } from './bot-process.js';

export interface CompiledApp {
  readonly entry: Entry;
  readonly appDir: string;
  remove(): void;
}

/** Builds once (about 15-30 s on a shared 2-core machine); the caller removes it in afterAll. */
export async function buildCompiledApp(): Promise<CompiledApp> {
  const appDir = mkdtempSync(join(tmpdir(), 'fundbot-journey-app-'));
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  try {
    await promisify(execFile)(
      process.execPath,
      [tsc, '-p', join(repoRoot, 'tsconfig.build.json'), '--outDir', join(appDir, 'dist')],
      { cwd: repoRoot },
    );
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    rmSync(appDir, { recursive: true, force: true });
    throw new Error(`npm run build failed:\n${stdout}${stderr}`);
  }
  // As in the image: package.json (ESM, the version) beside dist/, the production dependencies in node_modules.
  copyFileSync(join(repoRoot, 'package.json'), join(appDir, 'package.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(appDir, 'node_modules'), 'dir');
  return {
    entry: { kind: 'compiled', appDir },
    appDir,
    remove: () => rmSync(appDir, { recursive: true, force: true }),
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
