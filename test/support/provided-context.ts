/**
 * What the suite's globalSetup (test-run.ts) provides to every test file, typed for `inject`. In a module of its
 * own so that a build which takes in a user of it (the bench compiles test/support beside the app) sees the type.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's shared directory (read it with `inject('runDir')`). */
    runDir: string;
  }
}

export {};
