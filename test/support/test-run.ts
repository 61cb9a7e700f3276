/**
 * The suite's globalSetup (vitest.config.ts): one directory per `vitest run` for what test files share across
 * workers (the compiled app, built once: shared-compiled-app.ts), removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's shared directory (read it with `inject('runDir')`). */
    runDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const runDir = mkdtempSync(join(tmpdir(), 'fundbot-test-run-'));
  project.provide('runDir', runDir);
  return () => rmSync(runDir, { recursive: true, force: true });
}
