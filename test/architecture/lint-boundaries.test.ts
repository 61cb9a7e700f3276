import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

/** A planted file and the rule that must refuse it (`rule: null`: a control that must lint clean). */
interface Probe {
  readonly path: string;
  readonly code: string;
  readonly rule: 'noRestrictedImports' | 'noImportCycles' | 'noProcessEnv' | 'noExcessiveLinesPerFile' | null;
  /** A fragment of the diagnostic's message, proving the refusal comes from the intended layer's entry. */
  readonly says?: string;
}

const longFile = (lines: number) =>
  Array.from({ length: lines }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';

const probes: readonly Probe[] = [
  // src/lib: innermost, imports no other fundbot folder and no platform SDK.
  {
    path: 'src/lib/probe-folder.ts',
    code: "import '../domain/events.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/lib is the innermost layer',
  },
  {
    path: 'src/lib/probe-discord.ts',
    code: "import 'discord.js';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  // src/api: the override that once let discord.js and @slack/bolt through.
  {
    path: 'src/api/probe-discord.ts',
    code: "import type { Client } from 'discord.js';\nexport type Probe = Client;\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  {
    path: 'src/api/probe-slack.ts',
    code: "import '@slack/bolt';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/slack',
  },
  {
    path: 'src/api/probe-engine.ts',
    code: "import '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/api must not import src/engine',
  },
  {
    path: 'src/api/schemas/probe-domain.ts',
    code: "import '../../domain/events.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/api must not import src/domain',
  },
  // src/domain: pure, only api (through its index) and lib.
  {
    path: 'src/domain/probe-fs.ts',
    code: "import 'node:fs';\n",
    rule: 'noRestrictedImports',
    says: 'src/domain is pure',
  },
  {
    path: 'src/domain/probe-undici.ts',
    code: "import 'undici';\n",
    rule: 'noRestrictedImports',
    says: 'src/domain is pure',
  },
  {
    path: 'src/domain/probe-engine.ts',
    code: "import '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/domain must not import src/engine',
  },
  {
    path: 'src/domain/probe-deep-api.ts',
    code: "import '../api/schemas/index.js';\n",
    rule: 'noRestrictedImports',
    says: "'../api/index.js'",
  },
  // src/engine and src/core never import each other.
  {
    path: 'src/engine/probe-core.ts',
    code: "import '../core/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/engine must not import src/core',
  },
  {
    path: 'src/engine/probe-digest.ts',
    code: "import '../digest/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/engine must not import src/digest',
  },
  {
    path: 'src/engine/probe-deep-api.ts',
    code: "import '../api/http-transport.js';\n",
    rule: 'noRestrictedImports',
    says: "'../api/index.js'",
  },
  {
    path: 'src/core/probe-engine.ts',
    code: "import '../engine/engine.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/core must not import src/engine',
  },
  {
    path: 'src/core/commands/probe-engine.ts',
    code: "import '../../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/core must not import src/engine',
  },
  {
    path: 'src/core/probe-deep-api.ts',
    code: "import '../api/http-transport.js';\n",
    rule: 'noRestrictedImports',
    says: "'../api/index.js'",
  },
  {
    path: 'src/core/probe-slack.ts',
    code: "import '@slack/web-api';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/slack',
  },
  {
    path: 'src/core/probe-commands.ts',
    code: "import '../../commands/register-discord.js';\n",
    rule: 'noRestrictedImports',
    says: 'root commands/ folder',
  },
  // Dynamic imports and re-exports are edges too.
  {
    path: 'src/core/probe-dynamic-import.ts',
    code: "export const load = () => import('discord.js');\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  {
    path: 'src/core/probe-reexport.ts',
    code: "export * from '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/core must not import src/engine',
  },
  // src/digest: core and api through their index, never the engine or an adapter.
  {
    path: 'src/digest/probe-engine.ts',
    code: "import '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/digest must not import src/engine',
  },
  {
    path: 'src/digest/probe-deep-core.ts',
    code: "import '../core/message.js';\n",
    rule: 'noRestrictedImports',
    says: "'../core/index.js'",
  },
  {
    path: 'src/digest/probe-adapter.ts',
    code: "import '../adapters/discord/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/digest must not import src/adapters',
  },
  // Adapters: only the core (through its index); never another platform or adapter.
  {
    path: 'src/adapters/discord/probe-slack.ts',
    code: "import '@slack/bolt';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/slack',
  },
  {
    path: 'src/adapters/discord/probe-other-adapter.ts',
    code: "import '../slack/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'must not import src/adapters/slack',
  },
  {
    path: 'src/adapters/discord/probe-engine.ts',
    code: "import '../../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/adapters/discord must not import src/engine',
  },
  {
    path: 'src/adapters/discord/probe-deep-core.ts',
    code: "import '../../core/message.js';\n",
    rule: 'noRestrictedImports',
    says: "'../core/index.js'",
  },
  {
    path: 'src/adapters/slack/probe-discord.ts',
    code: "import 'discord.js';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  {
    path: 'src/adapters/slack/probe-ops.ts',
    code: "import '../../ops/logger.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/adapters/slack must not import src/ops',
  },
  {
    path: 'src/adapters/console/probe-discord.ts',
    code: "import 'discord.js';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  {
    path: 'src/adapters/console/probe-slack.ts',
    code: "import '@slack/bolt';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/slack',
  },
  // The simulator shares the wire schemas only; config and ops stay out of the inner layers they do not need.
  {
    path: 'src/simulator/probe-client.ts',
    code: "import '../api/api-client.js';\n",
    rule: 'noRestrictedImports',
    says: 'never the client',
  },
  {
    path: 'src/simulator/probe-core.ts',
    code: "import '../core/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/simulator must not import src/core',
  },
  {
    path: 'src/config/probe-engine.ts',
    code: "import '../engine/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/config must not import src/engine',
  },
  {
    path: 'src/config/probe-deep-core.ts',
    code: "import '../core/command-core.js';\n",
    rule: 'noRestrictedImports',
    says: "'../core/index.js'",
  },
  {
    path: 'src/ops/probe-core.ts',
    code: "import '../core/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/ops must not import src/core',
  },
  {
    path: 'src/ops/probe-api.ts',
    code: "import '../api/index.js';\n",
    rule: 'noRestrictedImports',
    says: 'src/ops must not import src/api',
  },
  {
    path: 'src/app/probe-discord.ts',
    code: "import 'discord.js';\n",
    rule: 'noRestrictedImports',
    says: 'Only src/adapters/discord',
  },
  {
    path: 'src/app/probe-deep-api.ts',
    code: "import '../api/http-transport.js';\n",
    rule: 'noRestrictedImports',
    says: "'../api/index.js'",
  },
  // process.env only in the composition root.
  { path: 'src/core/probe-env.ts', code: 'export const probe = process.env.PROBE;\n', rule: 'noProcessEnv' },
  {
    path: 'src/adapters/slack/probe-env.ts',
    code: 'export const probe = process.env.PROBE;\n',
    rule: 'noProcessEnv',
  },
  {
    path: 'src/simulator/probe-env.ts',
    code: 'export const probe = process.env.PROBE;\n',
    rule: 'noProcessEnv',
  },
  // Import cycles and file length.
  {
    path: 'src/lib/probe-cycle-a.ts',
    code: "import { b } from './probe-cycle-b.js';\nexport const a = () => b;\n",
    rule: 'noImportCycles',
  },
  {
    path: 'src/lib/probe-cycle-b.ts',
    code: "import { a } from './probe-cycle-a.js';\nexport const b = () => a;\n",
    rule: 'noImportCycles',
  },
  { path: 'src/core/probe-long.ts', code: longFile(401), rule: 'noExcessiveLinesPerFile' },

  // Controls: the allowed edges must stay allowed, or the probes above would pass for the wrong reason.
  {
    path: 'src/engine/probe-allowed.ts',
    code: "import '../api/index.js';\nimport '../domain/events.js';\nimport '../lib/clock.js';\n",
    rule: null,
  },
  {
    path: 'src/core/probe-allowed.ts',
    code: "import '../api/index.js';\nimport '../domain/events.js';\nimport '../lib/clock.js';\n",
    rule: null,
  },
  {
    path: 'src/digest/probe-allowed.ts',
    code: "import '../core/index.js';\nimport '../api/index.js';\nimport 'node-cron';\n",
    rule: null,
  },
  {
    path: 'src/adapters/discord/probe-allowed.ts',
    code: "import 'discord.js';\nimport '../../core/index.js';\nimport '../../domain/text.js';\n",
    rule: null,
  },
  {
    path: 'src/adapters/slack/probe-allowed.ts',
    code: "import '@slack/bolt';\nimport '../../core/index.js';\n",
    rule: null,
  },
  {
    path: 'src/simulator/probe-allowed.ts',
    code: "import '../api/schemas/index.js';\nimport '../lib/random.js';\n",
    rule: null,
  },
  {
    path: 'src/app/probe-allowed.ts',
    code: "import '../engine/index.js';\nexport const probe = process.env.PROBE;\n",
    rule: null,
  },
  { path: 'src/simulator/sim-project.ts', code: longFile(500), rule: null },
  { path: 'src/core/probe-short.ts', code: longFile(400), rule: null },
];

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
