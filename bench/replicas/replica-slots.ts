/**
 * The per-slot files a replicas scenario writes before it starts its processes (run.ts, cluster.ts, hosted.ts):
 * each slot gets its own ops and Slack ports, its config file and its log file, and a restarted slot reuses them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../test/support/redis-server.js';

export interface ReplicaSlot {
  readonly name: string;
  readonly configPath: string;
  readonly opsPort: number;
  readonly slackPort: number;
  readonly logPath: string;
}

/** The environment variable a project's key is read from, as an operator would name it. */
export const projectKeyEnv = (project: string): string =>
  `${project.toUpperCase().replaceAll('-', '_')}_API_KEY`;

/** The Slack part of every replica's environment: one app, one signing secret, the fake's Web API. */
export function slackAppEnv(botToken: string, signingSecret: string, apiUrl: string): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: apiUrl,
    LOG_LEVEL: 'info',
  };
}

/** Writes `count` slots named `<prefix>1..n` into `dir`, each config built from its own ports. */
export async function writeReplicaSlots(
  dir: string,
  count: number,
  prefix: string,
  config: (ports: { readonly opsPort: number; readonly slackPort: number }) => object,
): Promise<ReplicaSlot[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const opsPort = await freePort();
      const slackPort = await freePort();
      const name = `${prefix}${i + 1}`;
      const configPath = join(dir, `${name}.json`);
      writeFileSync(configPath, JSON.stringify(config({ opsPort, slackPort })));
      return { name, configPath, opsPort, slackPort, logPath: join(dir, `${name}.log`) };
    }),
  );
}
