/**
 * The engine's folder rules (issue 31): src/engine is read by stage, so its imports must read one way.
 * - no import circle between files, and none between folders (a folder pair importing each other both ways);
 * - no arrow back up: a file in a stage folder never imports a file at src/engine's top (engine.ts, its options,
 *   the read-model source): the top assembles the stages, the stages never reach for the assembly;
 * - no folder with more than 15 files at its top.
 * test/architecture/engine-folders.test.ts holds them; `npx tsx architecture/engine-folders.ts` prints the graph.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const engineRoot = 'src/engine';
export const maxFilesPerFolder = 15;

/** Every .ts file under src/engine, repository-relative. */
function engineFiles(dir = engineRoot): string[] {
  return readdirSync(join(repoRoot, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(repoRoot, path)).isDirectory()) return engineFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The engine files each engine file imports (type-only imports count: a reader follows them too). */
export function engineImports(): Map<string, string[]> {
  const files = engineFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    const targets: string[] = [];
    for (const statement of source.statements) {
      if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue;
      const spec = statement.moduleSpecifier;
      if (spec === undefined || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), spec.text)).replace(/\.js$/, '.ts');
      if (known.has(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The stage folder of an engine file ('' for the top). */
export function folderOf(file: string): string {
  const rest = file.slice(engineRoot.length + 1);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : '';
}

/** Import circles, each as the files (or folders) around it; empty when the graph reads one way. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (state.get(node) === undefined) visit(node);
  return found;
}

/** The folder graph: which stage folder imports which (the top, '', excluded: it may import every folder). */
export function folderImports(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (from === '') continue;
    const set = folders.get(from) ?? new Set<string>();
    for (const t of targets) if (folderOf(t) !== from && folderOf(t) !== '') set.add(folderOf(t));
    folders.set(from, set);
  }
  return new Map([...folders].map(([f, s]) => [f, [...s].sort()]));
}

/** Imports from a stage folder up to a file at src/engine's top. */
export function arrowsUp(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return [...graph].flatMap(([file, targets]) =>
    folderOf(file) === '' ? [] : targets.filter((t) => folderOf(t) === '').map((t) => `${file} -> ${t}`),
  );
}

/** Folders (and the top) with more files at their top than the limit. */
export function crowdedFolders(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const counts = new Map<string, number>();
  for (const file of graph.keys()) counts.set(folderOf(file), (counts.get(folderOf(file)) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > maxFilesPerFolder).map(([f, n]) => `${f || '(top)'}: ${n} files`);
}

/** Every broken rule, in words; empty when the engine reads one way. */
export function engineFolderProblems(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return [
    ...circles(graph).map((c) => `import circle: ${c.join(' -> ')}`),
    ...circles(folderImports(graph)).map((c) => `folders import each other: ${c.join(' -> ')}`),
    ...arrowsUp(graph).map(
      (a) => `arrow back up (a stage imports the top, which assembles the stages): ${a}`,
    ),
    ...crowdedFolders(graph).map((c) => `more than ${maxFilesPerFolder} files at a folder's top: ${c}`),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const graph = engineImports();
  const problems = engineFolderProblems(graph);
  if (process.argv.includes('--check')) {
    for (const p of problems) console.error(p);
    if (problems.length > 0) process.exit(1);
    console.log('src/engine reads one way: no circle, no arrow back up, no crowded folder');
  } else {
    for (const [folder, targets] of [...folderImports(graph)].sort())
      console.log(`${folder} -> ${targets.join(', ')}`);
    console.log(problems.length === 0 ? 'no problem' : problems.join('\n'));
  }
}
