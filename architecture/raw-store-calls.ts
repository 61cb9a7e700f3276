/**
 * Who calls the raw store (issue 31, "store access through ports"): every call of a `KeyValueStore` method
 * (get, getMany, set, delete, setIfAbsent, deleteIfValue, deletePrefix, sweepExpired) outside src/lib, found by the type
 * checker (the method resolves to the port's declaration in src/lib/store-port.ts), so a store reached through a
 * context (`ctx.store.get`), a `Pick<KeyValueStore, …>` or a namespaced view counts, and a port's own `get` does not.
 * `npx tsx architecture/raw-store-calls.ts` prints the files and folders; docs/architecture.md (Store) gives the
 * figures. The store modules are the files whose one job is to keep something in the store under its own keys.
 * `--check` (run by `npm run lint`) refuses a raw call in any file that is not a store module: a file named
 * `*-store.ts`, or one on the short list below with its reason. test/architecture/raw-store-calls.test.ts plants one.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const portFile = 'src/lib/store-port.ts';
const methods = new Set([
  'get',
  'getMany',
  'set',
  'delete',
  'setIfAbsent',
  'deleteIfValue',
  'deletePrefix',
  'sweepExpired',
]);

/**
 * The files allowed to call the raw store although their name does not end in `-store.ts`, each with its reason.
 * Everything else reaches the store through one of these modules' functions.
 */
export const storeModules: Readonly<Record<string, string>> = {
  'src/ops/store-watch.ts': "the store's health probe: it tests the store itself",
  'src/ops/store-marker.ts': "the store's identity marker probe: it tests the store itself",
  'src/adapters/slack/slack-replay-guard.ts': 'keeps the Slack request replay marks and nothing else',
  'src/app/hosted/hosted-registry.ts': "keeps the hosted projects' registry records and nothing else",
  'src/core/settings/campaign-settings.ts': "keeps one channel's campaign settings record",
  'src/core/settings/channel-access-states.ts': "keeps the channels' access states",
  'src/core/settings/channel-settings-keys.ts': "the channel settings' keys and their scan",
  'src/core/settings/daily-thread-settings.ts': "keeps one channel's daily-thread setting",
  'src/core/settings/low-stock-settings.ts': "keeps one channel's low-stock setting",
  'src/core/settings/notice-rules-settings.ts': "keeps one channel's notice rules",
  'src/core/settings/pacing-settings.ts': "keeps one channel's pacing setting",
  'src/delivery/delivery-ledger.ts': 'keeps the delivery ledger (one mark per delivered notice)',
  'src/delivery/look-budget.ts': "keeps the doubt looks' budget counters and nothing else",
  'src/delivery/look-queue.ts': 'keeps the queue of deliveries in doubt waiting for a look',
  'src/delivery/pacing/recent-messages.ts': 'keeps the recently posted messages per channel',
  'src/digest/roll-call-journal.ts': "keeps the digest roll call's journal",
  'src/engine/lease/lease.ts':
    'the in-process Lease port: its fenced commit writes the planned chunks, as the Redis lease in src/lib does',
  'src/engine/user-signal/user-signal-share.ts': "keeps the replicas' shared user-signal record",
};

/** Whether a file may call the raw store: a store module by name or by the list above. */
export function isStoreModule(file: string): boolean {
  return file.endsWith('-store.ts') || file in storeModules;
}

/** The files (with their call counts) that call the raw store without being a store module. */
export function refusedRawCalls(calls: ReadonlyMap<string, number>): string[] {
  return [...calls.keys()]
    .filter((file) => !isStoreModule(file))
    .sort()
    .map(
      (file) => `${file}: ${calls.get(file)} raw store call(s); move them into a store module (*-store.ts)`,
    );
}

/** The repository's program as tsconfig.json describes it (src only). */
export function repoProgram(): ts.Program {
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
  return ts.createProgram(rootNames, parsed.options);
}

/** Per file outside src/lib: how many raw store calls it makes. */
export function rawStoreCalls(program: ts.Program = repoProgram()): Map<string, number> {
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
  const checking = process.argv.includes('--check');
  if (!checking) for (const file of files) console.log(`${String(calls.get(file)).padStart(4)}  ${file}`);
  console.log(`${files.length} files in ${folders.size} folders call the raw store outside src/lib`);
  if (checking) {
    const refused = refusedRawCalls(calls);
    const stale = Object.keys(storeModules).filter((file) => !calls.has(file));
    for (const line of refused) console.error(`refused: ${line}`);
    for (const file of stale)
      console.error(
        `stale: ${file} is listed in architecture/raw-store-calls.ts but makes no raw call; remove it`,
      );
    if (refused.length > 0 || stale.length > 0) process.exit(1);
  }
}
