/**
 * The config file of a real-bot bench section (src/main.ts as its own process): the one project `launch` read
 * with the key in LAUNCH_API_KEY, the default store (a SQLite file in `dir`), Slack in HTTP mode, no digest and
 * the ops server (its "fundbot is running" line and /metrics). A section adds its own sections on top.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LaunchBotConfig {
  readonly dir: string;
  readonly simUrl: string;
  readonly slackPort: number;
  readonly opsPort: number;
  /** Top-level sections beside (or instead of) the common ones, e.g. `discord` or `engine`. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Writes `fundbot.config.json` into `dir`; returns its path (for FUNDBOT_CONFIG). */
export function writeLaunchBotConfig(config: LaunchBotConfig): string {
  const path = join(config.dir, 'fundbot.config.json');
  writeFileSync(
    path,
    JSON.stringify({
      api: { baseUrl: config.simUrl },
      store: { url: `sqlite://${join(config.dir, 'fundbot.sqlite')}` },
      projects: [{ linkCaption: 'launch', apiKeyEnv: 'LAUNCH_API_KEY' }],
      slack: { enabled: true, mode: 'http', port: config.slackPort },
      digest: { enabled: false },
      http: { enabled: true, port: config.opsPort },
      ...config.extra,
    }),
  );
  return path;
}
