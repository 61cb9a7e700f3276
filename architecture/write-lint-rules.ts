import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderBiomeConfig } from './lint-rules.js';

/**
 * `npm run lint:rules` writes biome.jsonc's layer overrides from architecture/layers.ts;
 * `npm run lint:rules -- --check` only says whether they drifted (exit 1), as `npm run lint` does.
 */
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const configPath = join(repoRoot, 'biome.jsonc');
const current = readFileSync(configPath, 'utf8');
const generated = renderBiomeConfig(current, repoRoot);

if (process.argv.includes('--check')) {
  if (generated !== current) {
    console.error(
      'biome.jsonc and architecture/layers.ts drifted: run `npm run lint:rules` and commit the result.',
    );
    process.exit(1);
  }
} else if (generated !== current) {
  writeFileSync(configPath, generated);
  console.log('biome.jsonc: layer overrides written from architecture/layers.ts');
} else {
  console.log('biome.jsonc: layer overrides already match architecture/layers.ts');
}
