import {
  adaptersAbout,
  commandsFolder,
  ioPackages,
  type Layer,
  type LayerName,
  layers,
  packageOwners,
} from './layers.js';

/**
 * Turns the layer table (./layers.ts) into Biome `noRestrictedImports` overrides, one per layer. Biome lets a later
 * override that sets the rule REPLACE an earlier one's options, so each layer's override carries everything that
 * layer may not import: other layers, deep paths past a public surface, packages owned by another layer, I/O in a
 * pure layer, the root commands/ folder.
 */

/** Where the generated overrides live; biome.jsonc extends it. */
export const generatedConfigFile = 'architecture/biome-layers.jsonc';

interface Pattern {
  readonly group: readonly string[];
  readonly message: string;
}

export interface LayerOverride {
  readonly comment: string;
  readonly includes: readonly string[];
  readonly patterns: readonly Pattern[];
}

const names = Object.keys(layers) as LayerName[];
const src = (name: LayerName) => `src/${name}`;
const folderOf = (layer: Layer) => (layer.files[0] ?? '').replace(/\/\*\*$/, '');
const depth = (folder: string) => folder.split('/').length - 1;
const inside = (name: LayerName, owner: LayerName) => name === owner || name.startsWith(`${owner}/`);
/** Layers nested in another layer's folder (lib/coordination in lib) are imported as part of it. */
const nestedIn = (name: LayerName) => names.find((other) => other !== name && name.startsWith(`${other}/`));
const targets = names.filter((name) => nestedIn(name) === undefined);

const allowed = (layer: Layer, target: LayerName) => layer.may === '*' || layer.may.includes(target);
const surfaceFor = (layer: Layer, target: LayerName) => layer.through?.[target] ?? layers[target].surface;

function mayText(name: LayerName): string {
  const layer = layers[name];
  const list = targets
    .filter((target) => target !== name && allowed(layer, target))
    .map((target) => {
      const through = surfaceFor(layer, target);
      if (through === undefined) return src(target);
      return through === 'index.js' ? `${src(target)} (through its index.ts)` : `${src(target)}/${through}`;
    });
  if (layer.may === '*') return `${src(name)} may import every layer`;
  const last = list.pop();
  return `${src(name)} may import only ${list.length > 0 ? `${list.join(', ')} and ${last}` : last}`;
}

/** The import specifiers that reach a layer: its folder anywhere, a sibling folder by `../`, its root files. */
function reaching(from: LayerName, target: LayerName): string[] {
  const sibling = target.includes('/') && from.split('/')[0] === target.split('/')[0];
  const folders = layers[target].files.filter((file) => file.endsWith('/**'));
  const rootFiles = layers[target].files.filter((file) => !file.endsWith('/**'));
  return [
    ...(sibling ? [`../${target.split('/').pop()}/**`] : []),
    ...folders.map((folder) => `**/${folder.slice('src/'.length)}`),
    ...rootFiles.map((file) => `**/${file.slice('src/'.length).replace(/\.ts$/, '.js')}`),
  ];
}

function refusedLayers(name: LayerName): Pattern[] {
  const layer = layers[name];
  const reason = `${mayText(name)} (docs/architecture.md, Layers).`;
  const refused = targets.filter((target) => !inside(name, target) && !allowed(layer, target));
  const adapters = targets.filter((target) => target.startsWith('adapters/'));
  const wholeAdapters =
    !name.startsWith('adapters/') && adapters.every((adapter) => refused.includes(adapter));
  const patterns = refused
    .filter((target) => !(wholeAdapters && adapters.includes(target)))
    .map((target) => ({
      group: reaching(name, target),
      message: `${src(name)} must not import ${src(target)}: ${layer.why?.[target] ?? layers[target].about}. ${reason}`,
    }));
  if (wholeAdapters) {
    patterns.push({
      group: ['**/adapters/**'],
      message: `${src(name)} must not import src/adapters: ${adaptersAbout}. ${reason}`,
    });
  }
  return patterns;
}

function surfaces(name: LayerName): Pattern[] {
  const layer = layers[name];
  const up = '../'.repeat(depth(folderOf(layer)));
  return targets
    .filter((target) => target !== name && allowed(layer, target) && surfaceFor(layer, target) !== undefined)
    .map((target) => {
      const through = surfaceFor(layer, target) as string;
      const entry = `'${up}${target}/${through}'`;
      const why = layer.why?.[target];
      return {
        group: [`**/${target}/**`, `!**/${target}/${through}`],
        message: why
          ? `${src(name)} may import ${src(target)} only through ${entry}: ${why}.`
          : `Import ${src(target)} only through its public surface ${entry} (${src(target)}/${through.replace(/\.js$/, '.ts')}): deep imports pin ${src(name)} to ${src(target)}'s file layout. If the name you need is not exported there, add it to that index.`,
      };
    });
}

/** Packages another layer owns, and I/O in a pure layer: one pattern per rule (a bare name matches itself). */
function packages(name: LayerName): Pattern[] {
  const patterns: Pattern[] = packageOwners
    .filter((rule) => !rule.owners.some((owner) => inside(name, owner)))
    .map((rule) => ({
      group: rule.packages.flatMap((pkg) => (pkg.includes('*') ? [pkg] : [pkg, `${pkg}/**`])),
      message: `Only ${rule.owners.map(src).join(' and ')} may import ${rule.packages.join(', ')}: ${rule.why}.`,
    }));
  if (layers[name].pure) {
    patterns.push({
      group: ioPackages,
      message: `${src(name)} is pure (no I/O): events, feed table, text rules, ports and typed errors only. Put I/O behind a port in ${src(name)} and implement it in an outer layer (src/engine, src/ops, src/lib, src/app).`,
    });
  }
  return patterns;
}

export function layerOverride(name: LayerName): LayerOverride {
  const layer = layers[name];
  const carved = names
    .filter((other) => nestedIn(other) === name)
    .map((other) => `!${folderOf(layers[other])}/**`);
  const patterns: Pattern[] = packages(name);
  if (layer.within !== undefined) {
    const up = '../'.repeat(depth(folderOf(layer)) - depth(layer.within) + 1);
    patterns.push({
      group: [`${up}**`],
      message:
        layer.within === folderOf(layer)
          ? `${src(name)} is the innermost layer (${layer.about}): it imports no other fundbot folder. Move the shared piece into ${src(name)}, or this code out of it.`
          : `${src(name)} (${layer.about}) may import ${layer.within}, never another fundbot folder.`,
    });
  } else {
    patterns.push(...refusedLayers(name), {
      group: commandsFolder,
      message: `${src(name)} must not import the root commands/ folder: it holds only the registration scripts, which import src/, never the reverse; command definitions live in src/domain/command-definitions.ts.`,
    });
    patterns.push(...surfaces(name));
  }
  return {
    comment: `// LAYER ${src(name)}: ${layer.within === undefined ? mayText(name) : `imports nothing outside ${layer.within}`}.`,
    includes: [...layer.files, ...carved],
    patterns,
  };
}

/** The generated config (architecture/biome-layers.jsonc): plain JSON.stringify, so Biome's formatter skips it. */
export function renderLayerConfig(): string {
  const indent = (text: string) => text.replace(/^/gm, '    ');
  const overrides = names.map((name) => {
    const { comment, includes, patterns } = layerOverride(name);
    const rule = { level: 'error', options: { patterns } };
    const json = JSON.stringify(
      { includes, linter: { rules: { style: { noRestrictedImports: rule } } } },
      null,
      2,
    );
    return indent(`${comment}\n${json}`);
  });
  return [
    '// GENERATED by `npm run lint:rules` from architecture/layers.ts: edit the table, not this file. biome.jsonc extends',
    '// it. One override per layer, because Biome lets a later override that sets noRestrictedImports REPLACE an earlier',
    "// one's options: each lists everything its layer may not import.",
    '{',
    '  "overrides": [',
    overrides.join(',\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}
