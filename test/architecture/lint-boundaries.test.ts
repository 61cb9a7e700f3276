import { beforeAll, describe, expect, it } from 'vitest';
import { layerProbes } from './helpers/layer-probes.js';
import { type BiomeDiagnostic, lintProbes } from './helpers/lint-probes.js';
import type { Probe } from './helpers/probe.js';
import { allowedProbes, ruleProbes } from './helpers/rule-probes.js';
import { tableProbes } from './helpers/table-probes.js';

/**
 * Plants one violation of every boundary rule and runs the real Biome on them (./helpers/lint-probes.ts), so a config
 * or table edit that switches a rule off (or lets a later override replace its options) fails here instead of
 * passing silently.
 */

// The probes are listed by kind in ./helpers: the layer edges, the table's additions, the other rules, the controls.
const probes: readonly Probe[] = [...layerProbes, ...tableProbes, ...ruleProbes, ...allowedProbes];

let diagnostics: readonly BiomeDiagnostic[] = [];

beforeAll(() => {
  diagnostics = lintProbes(probes);
}, 30_000);

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
