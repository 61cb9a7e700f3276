import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedConfigFile } from '../../../architecture/lint-rules.js';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const biomeBin = join(repoRoot, 'node_modules', '.bin', 'biome');

export interface BiomeDiagnostic {
  readonly category: string;
  readonly message: string;
  readonly location: { readonly path: string };
}

/**
 * Lints planted files with the real Biome and the real config, returning the diagnostics.
 *
 * The files live in a throw-away copy of the repository layout under the OS temp directory, next to byte-for-byte
 * copies of biome.jsonc and the layer overrides it extends: Biome matches overrides by path relative to its config,
 * so `src/engine/probe.ts` there is linted exactly as a file in src/engine would be, while a crash can never leave a
 * probe behind for `tsc` or `biome check .` to trip over. One Biome process lints them all (about a second);
 * `only` names the one rule to run (`style/noRestrictedImports`), skipping the module graph the others need.
 */
export function lintProbes(
  files: readonly { readonly path: string; readonly code: string }[],
  only?: string,
): BiomeDiagnostic[] {
  const workDir = mkdtempSync(join(tmpdir(), 'fundbot-lint-probe-'));
  try {
    for (const file of [
      ...['biome.jsonc', generatedConfigFile].map((path) => ({ path, code: null })),
      ...files,
    ]) {
      mkdirSync(dirname(join(workDir, file.path)), { recursive: true });
      if (file.code === null) copyFileSync(join(repoRoot, file.path), join(workDir, file.path));
      else writeFileSync(join(workDir, file.path), file.code);
    }
    const run = spawnSync(
      biomeBin,
      // The temp directory is no git checkout, so the config's VCS integration (ignore files only) is switched off.
      [
        'lint',
        '--vcs-enabled=false',
        '--reporter=json',
        '--max-diagnostics=none',
        ...(only ? [`--only=${only}`] : []),
        ...files.map((file) => file.path),
      ],
      { cwd: workDir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (run.error) throw run.error;
    try {
      return (JSON.parse(run.stdout) as { diagnostics?: BiomeDiagnostic[] }).diagnostics ?? [];
    } catch {
      throw new Error(
        `Biome did not print a JSON report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`,
      );
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
