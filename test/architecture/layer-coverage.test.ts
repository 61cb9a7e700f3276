import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { generatedConfigFile } from '../../architecture/lint-rules.js';

/**
 * Biome lets a later override that sets `noRestrictedImports` replace an earlier one's options, and a folder that
 * no override names gets no boundary at all. So every source file must match exactly one override that sets the
 * rule's options (a LAYER override generated from architecture/layers.ts). A new folder under src/ fails here until
 * it gets its row in the table.
 */

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Override {
  readonly includes: readonly string[];
  readonly linter?: { readonly rules?: { readonly style?: { readonly noRestrictedImports?: unknown } } };
}

/** The layer overrides biome.jsonc extends, as generated from architecture/layers.ts. */
function readConfig(): { overrides: readonly Override[] } {
  return parse(readFileSync(join(repoRoot, generatedConfigFile), 'utf8')) as {
    overrides: readonly Override[];
  };
}

/** The include shapes the LAYER overrides use: `dir/**`, an exact file, and `!dir/**` to carve a folder out. */
function inLayer(includes: readonly string[], file: string): boolean {
  const excluded = includes.some((p) => p.startsWith('!') && matches(p.slice(1), file));
  return !excluded && includes.some((p) => !p.startsWith('!') && matches(p, file));
}

function matches(pattern: string, file: string): boolean {
  if (pattern.endsWith('/**')) return file.startsWith(pattern.slice(0, -2));
  if (pattern.includes('*')) throw new Error(`layer-coverage: unsupported include pattern ${pattern}`);
  return file === pattern;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(repoRoot, path).split('\\').join('/')] : [];
  });
}

describe('biome.jsonc layer overrides', () => {
  const layers = readConfig().overrides.filter((override) => {
    const rule = override.linter?.rules?.style?.noRestrictedImports;
    return typeof rule === 'object' && rule !== null && 'options' in rule;
  });

  it('give every file in src/ exactly one layer', () => {
    const files = sourceFiles(join(repoRoot, 'src'));
    expect(files.length).toBeGreaterThan(100);
    const wrong = files
      .map((file) => ({
        file,
        layers: layers.filter((layer) => inLayer(layer.includes, file)).length,
      }))
      .filter((entry) => entry.layers !== 1);
    expect(wrong, 'each file needs exactly one layer in architecture/layers.ts').toEqual([]);
  });
});
