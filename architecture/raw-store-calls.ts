/**
 * Who calls the raw store (issue 31, "store access through ports"): every call of a `KeyValueStore` method
 * (get, set, delete, setIfAbsent, deleteIfValue, deletePrefix, sweepExpired) outside src/lib, found by the type
 * checker (the method resolves to the port's declaration in src/lib/store-port.ts), so a store reached through a
 * context (`ctx.store.get`), a `Pick<KeyValueStore, …>` or a namespaced view counts, and a port's own `get` does not.
 * `npx tsx architecture/raw-store-calls.ts` prints the files and folders; docs/architecture.md (Store) gives the
 * figures. The store modules are the files whose one job is to keep something in the store under its own keys.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const portFile = 'src/lib/store-port.ts';
const methods = new Set([
  'get',
  'set',
  'delete',
  'setIfAbsent',
  'deleteIfValue',
  'deletePrefix',
  'sweepExpired',
]);

/** Per file outside src/lib: how many raw store calls it makes. */
export function rawStoreCalls(): Map<string, number> {
  const configPath = join(repoRoot, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  const rootNames = parsed.fileNames.filter((f) => relative(repoRoot, f).startsWith('src/'));
  const program = ts.createProgram(rootNames, parsed.options);
  const checker = program.getTypeChecker();
  const calls = new Map<string, number>();
  for (const source of program.getSourceFiles()) {
    const file = relative(repoRoot, source.fileName);
    if (!file.startsWith('src/') || file.startsWith('src/lib/')) continue;
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        methods.has(node.expression.name.text) &&
        declaredByPort(checker.getSymbolAtLocation(node.expression.name))
      ) {
        calls.set(file, (calls.get(file) ?? 0) + 1);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return calls;
}

function declaredByPort(symbol: ts.Symbol | undefined): boolean {
  return (symbol?.declarations ?? []).some(
    (d) => relative(repoRoot, d.getSourceFile().fileName) === portFile,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const calls = rawStoreCalls();
  const files = [...calls.keys()].sort();
  const folders = new Set(files.map((f) => dirname(f)));
  for (const file of files) console.log(`${String(calls.get(file)).padStart(4)}  ${file}`);
  console.log(`${files.length} files in ${folders.size} folders call the raw store outside src/lib`);
}
