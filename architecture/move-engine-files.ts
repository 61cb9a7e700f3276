/**
 * ONE-OFF codemod (issue 31, item 1): moves src/engine's flat files into the stage folders and their tests into
 * the same folders under test/engine, and rewrites every relative import in the repository that pointed at a moved
 * file (or from a moved file). Kept because engine files are edited on other branches meanwhile: after merging
 * such a branch, run it again and it moves what the merge brought back to the old places.
 *
 *   npx tsx architecture/move-engine-files.ts            # git mv + rewrite imports
 *   npx tsx architecture/move-engine-files.ts --dry-run  # print what it would do
 *
 * A move whose source is gone (done already) is skipped. A file at src/engine's top that the table below does not
 * name (a new file from another branch) is reported and the script exits 1 after moving the rest: give it a folder
 * here, then run again. The table is the layout docs/architecture.md and src/engine/README.md describe.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const dryRun = process.argv.includes('--dry-run');

/** Folder of each file that leaves src/engine's top (the top keeps engine.ts, its options and index.ts). */
// biome-ignore format: one folder to a line
const sourceFolders: Record<string, readonly string[]> = {
  context: ['engine-settings', 'single-flight'],
  project: ['project-runtime', 'engine-context'],
  lists: ['list-order', 'list-state', 'list-seen-keys', 'list-assessment', 'list-fetch', 'list-positions', 'list-backfill', 'list-late-sweep', 'list-late-search', 'list-reader'],
  events: ['feed-events', 'reward-diff', 'drop-events', 'stored-post-privacy'],
  schedule: ['arrival-rhythm', 'budget-plan', 'credential-gate', 'decaying-rate', 'fundings-pace', 'latency-bound', 'signal-interleave', 'key-pause', 'replan', 'runtime-census', 'feed-request', 'public-project-read'],
  lease: ['lease', 'lease-tenure'],
  state: ['project-state', 'project-state-chunks', 'project-state-layout', 'project-state-store', 'project-state-writes', 'project-state-history', 'history', 'baseline', 'project-lease'],
  outbox: ['outbox'],
  health: ['feed-health-watch', 'status-board'],
  'read-model': ['read-model', 'describe-failure'],
  runs: ['scheduler', 'project-runs', 'engine-loop'],
  'user-signal': ['user-signal', 'user-signal-share'],
};

/** Files that stay at src/engine's top. */
const sourceTop = new Set(['engine', 'engine-options', 'index', 'read-model-source']);

/** The tests of one stage go to its folder under test/engine; tests of the whole engine and the harness stay. */
// biome-ignore format: one folder to a line
const testFolders: Record<string, readonly string[]> = {
  lists: ['list-reader.test', 'late-entries.test', 'fake-list'],
  events: ['drop-events.test', 'reward-stock.test'],
  schedule: ['arrival-rhythm.test', 'arrival-rhythm-restart.test', 'engine-budget.test', 'planner-targets.test', 'process-ceiling.test', 'project-reads-in-plan.test', 'public-project-read.test', 'quiet-lists.test', 'recheck-backoff.test', 'runtime-census.test', 'signal-interleave.test', 'key-rejected.test', 'foreign-key.test', 'feed-recheck.test', 'first-poll-scopes.test'],
  state: ['baseline.test', 'one-commit-cycle.test', 'state-chunks.test', 'state-writes.test'],
  lease: ['lease-granted.test', 'replica-lease.test'],
  outbox: ['outbox-crash.test', 'outbox-store-failure.test', 'sink-adoption.test'],
  health: ['feed-health.test', 'status-board.test', 'failure-reasons.test', 'notes-in-channel-language.test'],
  'user-signal': ['user-signal.test', 'user-signal-fleet.test'],
};

function movesOf(from: string, folders: Record<string, readonly string[]>): Map<string, string> {
  const moves = new Map<string, string>();
  for (const [folder, names] of Object.entries(folders)) {
    for (const name of names) moves.set(`${from}/${name}.ts`, `${from}/${folder}/${name}.ts`);
  }
  return moves;
}

const allMoves = new Map([...movesOf('src/engine', sourceFolders), ...movesOf('test/engine', testFolders)]);
const moves = new Map([...allMoves].filter(([from, to]) => existsAt(from) && !existsAt(to)));

function existsAt(path: string): boolean {
  return existsSync(join(repoRoot, path));
}

/** Every TypeScript file git knows (tracked or new), repository-relative with `/`. */
function typeScriptFiles(): string[] {
  const out = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mts'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
    },
  );
  return out.split('\n').filter((f) => f !== '' && existsAt(f));
}

/** Where a file was before the move, for a moved file (its imports may still be written from there). */
const oldPathOf = new Map([...allMoves].map(([from, to]) => [to, from]));

/** The repository file a relative specifier names (`./x.js` → `dir/x.ts`), or undefined when not ours. */
function resolveFrom(fromFile: string, specifier: string): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`];
  const ours = (c: string) => c.endsWith('ts') && (existsAt(c) || allMoves.has(c));
  return candidates.find(ours);
}

/**
 * The file a relative specifier names. After a merge a specifier may still name a file's old place (a line another
 * branch added), or be written from the importing file's old place (a file moved earlier, edited on that branch):
 * both resolve, through the table, to where the file is now.
 */
function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const from = oldPathOf.get(fromFile);
  const found =
    resolveFrom(fromFile, specifier) ?? (from === undefined ? undefined : resolveFrom(from, specifier));
  if (found === undefined) return undefined;
  return existsAt(found) || moves.has(found) ? found : (allMoves.get(found) ?? found);
}

/**
 * Names the slice commits moved from one module to another (after the files moved): an import of one of them from
 * its old module is split, the name going to its new module. Re-exports kept the rest working where they were.
 */
// biome-ignore format: one module to a line
const symbolMoves: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'src/engine/project/project-runtime.ts': { feedOf: 'src/engine/schedule/schedule-slice.ts', FeedRuntime: 'src/engine/schedule/schedule-slice.ts', ProjectPause: 'src/engine/schedule/schedule-slice.ts', ONE_OFF_TAU_MS: 'src/engine/schedule/schedule-slice.ts', noteError: 'src/engine/context/engine-project.ts' },
  'src/engine/context/engine-settings.ts': { engineSettings: 'src/engine/engine-options.ts' },
  'src/core/index.ts': { autoLiveLimit: 'src/delivery/placement.ts', autoBatchIntervalMs: 'src/delivery/placement.ts', quietWindowAt: 'src/delivery/placement.ts' },
  'src/core/settings/pacing-settings.ts': { autoLiveLimit: 'src/delivery/placement.ts', autoBatchIntervalMs: 'src/delivery/placement.ts', quietWindowAt: 'src/delivery/placement.ts' },
};

/** An import declaration rewritten with its moved names split off to their new modules, or undefined. */
function splitMovedNames(
  node: ts.ImportDeclaration,
  source: ts.SourceFile,
  fromFile: string,
  target: string,
  quote: string,
): string | undefined {
  const moved = symbolMoves[target];
  const bindings = node.importClause?.namedBindings;
  if (moved === undefined || bindings === undefined || !ts.isNamedImports(bindings)) return undefined;
  if (node.importClause?.name !== undefined) return undefined;
  const groups = new Map<string, string[]>();
  for (const element of bindings.elements) {
    const name = (element.propertyName ?? element.name).text;
    const to = moved[name] ?? target;
    groups.set(to, [...(groups.get(to) ?? []), element.getText(source)]);
  }
  if (groups.size === 1 && groups.has(target)) return undefined;
  const typeOnly = node.importClause?.isTypeOnly ? 'type ' : '';
  const original = (node.moduleSpecifier as ts.StringLiteral).text;
  return [...groups]
    .map(([to, names]) => {
      const spec = specifierTo(fromFile, to, original);
      return `import ${typeOnly}{ ${names.join(', ')} } from ${quote}${spec}${quote};`;
    })
    .join('\n');
}

/** The specifier from `fromFile` to `target`, keeping the extension style of the original. */
function specifierTo(fromFile: string, target: string, original: string): string {
  let rel = posix.relative(posix.dirname(fromFile), target);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (original.endsWith('.js')) return rel.replace(/\.ts$/, '.js');
  if (original.endsWith('.ts')) return rel;
  return rel.replace(/\.ts$/, '');
}

/** The string literals that name modules: import/export from, import(), import('x').T, vi.mock/importActual. */
function moduleSpecifiers(source: ts.SourceFile): ts.StringLiteralLike[] {
  const found: ts.StringLiteralLike[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteralLike(node.moduleSpecifier)) found.push(node.moduleSpecifier);
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const callee = node.expression.getText(source);
      const namesModule =
        node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        ['vi.mock', 'vi.importActual', 'vi.doMock'].includes(callee);
      if (namesModule && first !== undefined && ts.isStringLiteralLike(first)) found.push(first);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteralLike(arg.literal)) found.push(arg.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file's text with every specifier pointing where its target now lives (from where the file now lives). */
function rewritten(file: string): string | undefined {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const newFile = moves.get(file) ?? file;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const literal of moduleSpecifiers(source)) {
    const target = resolveSpecifier(file, literal.text);
    if (target === undefined) continue;
    const newTarget = moves.get(target) ?? target;
    const quote = text[literal.getStart(source)] ?? "'";
    const declaration = literal.parent;
    if (ts.isImportDeclaration(declaration)) {
      const split = splitMovedNames(declaration, source, newFile, newTarget, quote);
      if (split !== undefined) {
        edits.push({ start: declaration.getStart(source), end: declaration.getEnd(), text: split });
        continue;
      }
    }
    const next = specifierTo(newFile, newTarget, literal.text);
    if (next === literal.text) continue;
    edits.push({ start: literal.getStart(source), end: literal.getEnd(), text: `${quote}${next}${quote}` });
  }
  if (edits.length === 0) return undefined;
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

const rewrites = new Map<string, string>();
for (const file of typeScriptFiles()) {
  const text = rewritten(file);
  if (text !== undefined) rewrites.set(file, text);
}

for (const [from, to] of moves) {
  console.log(`move ${from} -> ${to}`);
  if (dryRun) continue;
  mkdirSync(join(repoRoot, dirname(to)), { recursive: true });
  execFileSync('git', ['mv', from, to], { cwd: repoRoot, stdio: 'inherit' });
}
for (const [file, text] of rewrites) {
  const at = moves.get(file) ?? file;
  console.log(`imports ${at}`);
  if (!dryRun) writeFileSync(join(repoRoot, at), text);
}

// The new paths change import order and line lengths: let Biome sort and wrap what was touched.
const touched = [...new Set([...moves.values(), ...[...rewrites.keys()].map((f) => moves.get(f) ?? f)])];
if (!dryRun && touched.length > 0) {
  execFileSync('npx', ['biome', 'check', '--write', ...touched], { cwd: repoRoot, stdio: 'inherit' });
}

const unplaced = readdirSync(join(repoRoot, 'src/engine'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((name) => !sourceTop.has(name) && !allMoves.has(`src/engine/${name}.ts`));
if (unplaced.length > 0) {
  console.error(
    `src/engine files with no folder in architecture/move-engine-files.ts: ${unplaced.join(', ')}`,
  );
  process.exit(1);
}
console.log(
  `${moves.size} files moved, ${rewrites.size} files' imports rewritten${dryRun ? ' (dry run)' : ''}`,
);
