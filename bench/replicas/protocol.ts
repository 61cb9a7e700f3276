/** What a replica process (replica.ts) tells the orchestrator (run.ts). */

/** One line on stdout per poll. */
export interface PollLine {
  readonly replica: string;
  readonly project: string;
  readonly token: number;
  /** Epoch ms when the poll answered. */
  readonly polledAt: number;
  /** Epoch ms when the fenced commit was acknowledged (or refused/failed). */
  readonly committedAt: number;
  readonly commit: 'written' | 'refused' | 'failed';
}

/** The stand-in state a replica commits per project: what run.ts reads back after the Redis restart. */
export const stateKey = (project: string) => `bench:state:${project}`;
