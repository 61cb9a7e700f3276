import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedConfigFile, renderLayerConfig } from './lint-rules.js';

/**
 * `npm run lint:rules` writes the layer overrides (architecture/biome-layers.jsonc) from architecture/layers.ts;
 * with `--check` it only says whether they drifted (exit 1), as `npm run lint` does.
 */
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const path = join(repoRoot, generatedConfigFile);
const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
const generated = renderLayerConfig();

if (generated === current) {
  console.log(`${generatedConfigFile} matches architecture/layers.ts`);
} else if (process.argv.includes('--check')) {
  console.error(
    `${generatedConfigFile} and architecture/layers.ts drifted: run \`npm run lint:rules\` and commit both.`,
  );
  process.exit(1);
} else {
  writeFileSync(path, generated);
  console.log(`${generatedConfigFile} written from architecture/layers.ts`);
}
