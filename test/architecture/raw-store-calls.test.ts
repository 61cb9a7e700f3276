import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { isStoreModule, rawStoreCalls, refusedRawCalls } from '../../architecture/raw-store-calls.js';

/**
 * Store access through ports (issue 31): a raw store call outside a store module is refused. The planted files
 * live only in memory beside the real store port, so the checker's own type resolution decides what is a raw call.
 */
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

function programWith(planted: Record<string, string>): ts.Program {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const inMemory = new Map(Object.entries(planted).map(([file, text]) => [join(repoRoot, file), text]));
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => inMemory.has(name) || fileExists.call(host, name);
  host.readFile = (name) => inMemory.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, version, ...rest) => {
    const text = inMemory.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, version, ...rest)
      : ts.createSourceFile(name, text, version);
  };
  return ts.createProgram([...inMemory.keys()], options, host);
}

const rawCall = `import type { KeyValueStore } from '../lib/store-port.js';
export async function lastSeen(store: KeyValueStore): Promise<unknown> {
  return store.get('planted:last-seen');
}
`;

describe('raw store calls', () => {
  it('refuses a raw call planted in a file that is not a store module, and lets a store module make it', () => {
    const calls = rawStoreCalls(
      programWith({
        'src/engine/planted-logic.ts': rawCall,
        'src/engine/planted-store.ts': rawCall,
        'src/engine/planted-port-user.ts': `import { lastSeen } from './planted-store.js';
import type { KeyValueStore } from '../lib/store-port.js';
export const read = (store: KeyValueStore) => lastSeen(store);
export const local = new Map<string, number>().get('not the store');
`,
      }),
    );
    expect(calls).toEqual(
      new Map([
        ['src/engine/planted-logic.ts', 1],
        ['src/engine/planted-store.ts', 1],
      ]),
    );
    expect(refusedRawCalls(calls)).toEqual([
      'src/engine/planted-logic.ts: 1 raw store call(s); move them into a store module (*-store.ts)',
    ]);
  });

  it('counts a call through a context or a picked port as raw', () => {
    const calls = rawStoreCalls(
      programWith({
        'src/delivery/planted-context.ts': `import type { KeyValueStore } from '../lib/store-port.js';
export async function mark(ctx: { store: Pick<KeyValueStore, 'set' | 'delete'> }): Promise<void> {
  await ctx.store.set('planted:mark', 1);
  await ctx.store.delete('planted:mark');
}
`,
      }),
    );
    expect(calls.get('src/delivery/planted-context.ts')).toBe(2);
    expect(refusedRawCalls(calls)).toHaveLength(1);
  });

  it('knows the store modules by name and by the short list with reasons', () => {
    expect(isStoreModule('src/core/subscription-store.ts')).toBe(true);
    expect(isStoreModule('src/ops/store-watch.ts')).toBe(true);
    expect(isStoreModule('src/delivery/lane.ts')).toBe(false);
  });
});
