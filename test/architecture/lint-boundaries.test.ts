import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layerProbes } from './helpers/layer-probes.js';
import type { Probe } from './helpers/probe.js';
import { allowedProbes, ruleProbes } from './helpers/rule-probes.js';

/**
 * Plants one violation of every boundary rule in biome.jsonc and runs the real Biome on them, so a config edit
 * that switches a rule off (or lets a later override replace its options) fails here instead of passing silently.
 *
 * The probes live in a throw-away copy of the repository layout under the OS temp directory, next to a byte-for-byte
 * copy of biome.jsonc: Biome matches overrides by path relative to its config, so `src/engine/probe.ts` there is
 * linted exactly as a file in src/engine would be, while a crash can never leave a probe behind for `tsc` or
 * `biome check .` to trip over. One Biome process lints every probe (about a second).
 */

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const biomeBin = join(repoRoot, 'node_modules', '.bin', 'biome');

// The probes are listed by kind in ./helpers: the layer edges, the other rules, and the allowed controls.
const probes: readonly Probe[] = [...layerProbes, ...ruleProbes, ...allowedProbes];

interface BiomeDiagnostic {
  readonly category: string;
  readonly message: string;
  readonly location: { readonly path: string };
}

let workDir = '';
let diagnostics: readonly BiomeDiagnostic[] = [];

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'fundbot-lint-probe-'));
  copyFileSync(join(repoRoot, 'biome.jsonc'), join(workDir, 'biome.jsonc'));
  for (const probe of probes) {
    mkdirSync(dirname(join(workDir, probe.path)), { recursive: true });
    writeFileSync(join(workDir, probe.path), probe.code);
  }
  const run = spawnSync(
    biomeBin,
    // The temp directory is no git checkout, so the config's VCS integration (ignore files only) is switched off.
    [
      'lint',
      '--vcs-enabled=false',
      '--reporter=json',
      '--max-diagnostics=none',
      ...probes.map((probe) => probe.path),
    ],
    { cwd: workDir, encoding: 'utf8' },
  );
  if (run.error) throw run.error;
  let report: { diagnostics?: BiomeDiagnostic[] };
  try {
    report = JSON.parse(run.stdout) as { diagnostics?: BiomeDiagnostic[] };
  } catch {
    throw new Error(`Biome did not print a JSON report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  }
  diagnostics = report.diagnostics ?? [];
}, 30_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const found = (path: string) => diagnostics.filter((diagnostic) => diagnostic.location.path === path);

describe('biome.jsonc refuses every planted boundary violation', () => {
  it.each(probes.filter((probe) => probe.rule !== null).map((probe) => [probe.path, probe] as const))(
    '%s',
    (_path, probe) => {
      const refusals = found(probe.path).filter(
        (diagnostic) =>
          diagnostic.category === `lint/style/${probe.rule}` ||
          diagnostic.category === `lint/suspicious/${probe.rule}`,
      );
      expect(
        refusals,
        `${probe.path} should be refused by ${probe.rule}; Biome said: ${JSON.stringify(found(probe.path))}`,
      ).not.toHaveLength(0);
      if (probe.says) expect(refusals.map((refusal) => refusal.message).join('\n')).toContain(probe.says);
    },
  );

  it.each(probes.filter((probe) => probe.rule === null).map((probe) => [probe.path] as const))(
    'lets the allowed file %s through',
    (path) => {
      expect(found(path)).toEqual([]);
    },
  );
});
