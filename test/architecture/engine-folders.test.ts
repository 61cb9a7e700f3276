import { describe, expect, it } from 'vitest';
import {
  engineFolderProblems,
  engineImports,
  folderImports,
  maxFilesPerFolder,
} from '../../architecture/engine-folders.js';

/**
 * src/engine by stage (issue 31): the stage folders import one way, never the top that assembles them, and no
 * folder is a flat room again. The planted graphs show each rule refuses what it should (a check that finds
 * nothing in the real tree must still be able to find something).
 */
describe('src/engine by stage', () => {
  it('has no import circle, no folder pair importing both ways, no arrow back up and no crowded folder', () => {
    expect(engineFolderProblems(engineImports())).toEqual([]);
  });

  it('reads from the stages that know least to the ones that assemble them', () => {
    const folders = folderImports(engineImports());
    // The leaves: the list reader and the shared context know no other stage.
    expect(folders.get('lists')).toEqual([]);
    expect(folders.get('context')).toEqual(['lists']);
    // The record's slices sit below its assembly: none of them imports it.
    for (const stage of ['context', 'lists', 'events', 'lease', 'state', 'schedule']) {
      expect(folders.get(stage) ?? [], stage).not.toContain('project');
    }
  });

  const planted = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

  it('refuses a stage importing the top', () => {
    const problems = engineFolderProblems(
      planted({
        'src/engine/lists/list-order.ts': ['src/engine/engine-options.ts'],
        'src/engine/engine-options.ts': [],
      }),
    );
    expect(problems).toEqual([
      'arrow back up (a stage imports the top, which assembles the stages): src/engine/lists/list-order.ts -> src/engine/engine-options.ts',
    ]);
  });

  it('refuses two folders importing each other, and a circle of files', () => {
    const problems = engineFolderProblems(
      planted({
        'src/engine/state/a.ts': ['src/engine/lease/b.ts'],
        'src/engine/lease/b.ts': ['src/engine/lease/c.ts'],
        'src/engine/lease/c.ts': ['src/engine/state/a.ts'],
      }),
    );
    expect(problems).toContain(
      'import circle: src/engine/state/a.ts -> src/engine/lease/b.ts -> src/engine/lease/c.ts -> src/engine/state/a.ts',
    );
    expect(problems).toContain('folders import each other: state -> lease -> state');
  });

  it('refuses a folder with more than 15 files at its top', () => {
    const files = Array.from({ length: maxFilesPerFolder + 1 }, (_, i) => [`src/engine/lists/f${i}.ts`, []]);
    expect(engineFolderProblems(new Map(files as [string, string[]][]))).toEqual([
      "more than 15 files at a folder's top: lists: 16 files",
    ]);
  });
});
