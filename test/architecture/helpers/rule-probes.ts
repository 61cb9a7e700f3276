import type { Probe } from './probe.js';

/** A file of `lines` lines, for the file-length rule (400 at most in src/). */
const longFile = (lines: number) =>
  Array.from({ length: lines }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';

/** The rules beside the layer boundaries: process.env, import cycles and file length. */
export const ruleProbes: readonly Probe[] = [
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
  // The simulator has no exemption any more, and tests and benchmarks are held to the same length.
  { path: 'src/simulator/probe-long.ts', code: longFile(401), rule: 'noExcessiveLinesPerFile' },
  { path: 'test/engine/probe-long.test.ts', code: longFile(401), rule: 'noExcessiveLinesPerFile' },
  { path: 'bench/probe-long.ts', code: longFile(401), rule: 'noExcessiveLinesPerFile' },
];

/** Controls: the allowed edges must stay allowed, or the refused probes could pass for the wrong reason. */
export const allowedProbes: readonly Probe[] = [
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
  { path: 'src/core/probe-short.ts', code: longFile(400), rule: null },
];
