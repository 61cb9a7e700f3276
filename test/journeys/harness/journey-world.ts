/**
 * What a journey stands on: a temporary directory (config file, SQLite store, key files), the platform
 * simulator in the test process on 127.0.0.1 with the journey's campaign, and free ports. Everything it opens
 * is closed by {@link JourneyWorld.close}.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimProject, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { freePort } from '../../support/redis-server.js';
import { journeyProject, journeyProjectSeed } from './journey-project.js';

export interface JourneyWorld {
  readonly dir: string;
  readonly sim: Simulator;
  readonly project: SimProject;
  /** The project's key, all seven scopes (fundbot needs five; the journeys check it never reads the other two). */
  readonly apiKey: string;
  /** `sqlite://` URL of the store file in `dir`, kept across restarts. */
  readonly storeUrl: string;
  /** Writes `fundbot.config.json` into `dir` and returns its path. */
  writeConfig(config: Record<string, unknown>): string;
  /** Writes a file into `dir` (e.g. a secret file) and returns its path. */
  writeFile(name: string, content: string): string;
  freePort(): Promise<number>;
  close(): Promise<void>;
}

export async function startJourneyWorld(name: string): Promise<JourneyWorld> {
  const dir = mkdtempSync(join(tmpdir(), `fundbot-journey-${name}-`));
  // Generous limits: the journeys are about what reaches the channel, the budget is the benchmark's business.
  // The engine then polls every feed at its 1 s floor.
  const sim = await startSimulator({
    projects: [journeyProjectSeed(Date.now())],
    limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } },
  });
  const writeFile = (file: string, content: string) => {
    const path = join(dir, file);
    writeFileSync(path, content);
    return path;
  };
  return {
    dir,
    sim,
    project: sim.project(journeyProject),
    apiKey: sim.issueProjectKey(journeyProject),
    storeUrl: `sqlite://${join(dir, 'data', 'fundbot.sqlite')}`,
    writeConfig: (config) => writeFile('fundbot.config.json', JSON.stringify(config, null, 2)),
    writeFile,
    freePort,
    async close() {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A digest time zone whose local clock is far from midnight now (Europe/Berlin, else Asia/Tokyo: their
 * midnights are 7-8 hours apart), so the daily thread's day and the digest's date do not change mid-journey.
 */
export function digestTimeZoneAwayFromMidnight(now = Date.now()): string {
  for (const zone of ['Europe/Berlin', 'Asia/Tokyo']) {
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(now),
    );
    if (hour >= 2 && hour <= 21) return zone;
  }
  return 'UTC';
}

/** `HH:MM` of `epochMs` on the clock of `timeZone`. */
export function localHourMinute(epochMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(epochMs);
}
