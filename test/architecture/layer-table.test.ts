import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { type LayerName, layers, packageOwners } from '../../architecture/layers.js';
import { generatedConfigFile, renderLayerConfig } from '../../architecture/lint-rules.js';
import { type BiomeDiagnostic, lintProbes, repoRoot } from './helpers/lint-probes.js';

/**
 * The layer table (architecture/layers.ts) is the one place the boundaries are written: the Biome overrides are
 * generated from it, and this test fails when the two drift, when biome.jsonc grows an import rule of its own, and
 * when the generated config lets through an import the table refuses (or refuses one it allows). The matrix reads
 * the table directly, so a generator bug cannot agree with itself: from a file in every layer it plants an import of
 * every other layer's index and of its internals, and of every owned package.
 */

const names = Object.keys(layers) as LayerName[];
const inside = (name: LayerName, owner: LayerName) => name === owner || name.startsWith(`${owner}/`);
/** Layers nested in another's folder (lib/coordination) are imported as part of it. */
const targets = names.filter(
  (name) => !names.some((other) => other !== name && name.startsWith(`${other}/`)),
);
const folder = (name: LayerName) => (layers[name].files[0] ?? '').replace(/\/\*\*$/, '');

interface Planted {
  readonly path: string;
  readonly code: string;
  readonly refused: boolean;
  readonly what: string;
}

function planted(): Planted[] {
  const files: Planted[] = [];
  for (const name of names) {
    const layer = layers[name];
    const dir = folder(name);
    const up = '../'.repeat(dir.split('/').length - 1);
    const plant = (what: string, specifier: string, refused: boolean) =>
      files.push({
        path: `${dir}/probe-${files.length}.ts`,
        code: `import '${specifier}';\n`,
        refused,
        what,
      });
    for (const target of targets.filter((target) => !inside(name, target))) {
      const allowed = layer.may === '*' || layer.may.includes(target);
      const surface = layer.through?.[target] ?? layers[target].surface;
      plant(`${name} -> ${target} (its surface)`, `${up}${target}/${surface ?? 'index.js'}`, !allowed);
      plant(
        `${name} -> ${target} (internals)`,
        `${up}${target}/probe-internal.js`,
        !allowed || surface !== undefined,
      );
    }
    for (const rule of packageOwners) {
      const specifiers = rule.packages.flatMap((pkg) => (pkg.includes('*') ? [pkg] : [pkg, `${pkg}/probe`]));
      for (const pkg of specifiers.map((glob) => glob.replace('**', 'probe'))) {
        plant(`${name} -> ${pkg}`, pkg, !rule.owners.some((owner) => inside(name, owner)));
      }
    }
  }
  return files;
}

describe('the layer table (architecture/layers.ts)', () => {
  it(`generated ${generatedConfigFile}; run \`npm run lint:rules\` after editing the table`, () => {
    expect(readFileSync(join(repoRoot, generatedConfigFile), 'utf8')).toBe(renderLayerConfig());
  });

  it('is the only source of import rules: biome.jsonc extends the generated overrides and sets none itself', () => {
    const config = parse(readFileSync(join(repoRoot, 'biome.jsonc'), 'utf8')) as { extends?: string[] };
    expect(config.extends).toContain(`./${generatedConfigFile}`);
    // A noRestrictedImports override here would replace a generated layer's options for the files it matches.
    expect(JSON.stringify(config)).not.toContain('noRestrictedImports');
  });

  describe('planted imports from every layer to every other layer and owned package', () => {
    const files = planted();
    let diagnostics: readonly BiomeDiagnostic[] = [];
    beforeAll(() => {
      diagnostics = lintProbes(files, 'style/noRestrictedImports');
    }, 60_000);

    it('refuses exactly what the table refuses', () => {
      expect(files.filter((file) => file.refused).length).toBeGreaterThan(200);
      const refusedPaths = new Set(
        diagnostics
          .filter((diagnostic) => diagnostic.category === 'lint/style/noRestrictedImports')
          .map((diagnostic) => diagnostic.location.path),
      );
      const wrong = files
        .filter((file) => refusedPaths.has(file.path) !== file.refused)
        .map((file) => `${file.refused ? 'let through' : 'refused'}: ${file.what}`);
      expect(wrong).toEqual([]);
    });
  });
});
