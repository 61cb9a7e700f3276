import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configFileSchema, parseConfig } from '../../src/config/index.js';
import { validFile } from './config-builders.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${repoRoot}${path}`, 'utf8');

describe('the documentation agrees with the schema', () => {
  it('the README names the reserve default the schema applies', () => {
    const reservePct = configFileSchema.shape.engine.parse({}).reservePct;
    const readme = read('README.md');
    const stated = /`engine\.reservePct`, default (\d+)%/.exec(readme)?.[1];
    expect(Number(stated)).toBe(reservePct);
  });

  it('projects[].defaultLocale, which nothing applied, is gone from the schema, the docs and the example', () => {
    const env = {
      SOLAR_KIOSK_API_KEY: 'x',
      RIVER_CLEANUP_API_KEY: 'y',
      DISCORD_TOKEN: 'd',
      SLACK_BOT_TOKEN: 'b',
    };
    const file = validFile();
    const projects = file.projects as Record<string, unknown>[];
    const withLocale = { ...file, projects: [{ ...projects[0], defaultLocale: 'de' }] };
    const result = parseConfig(JSON.stringify(withLocale), { env, source: 'test.json' });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems).toContainEqual(
        expect.objectContaining({ code: 'unknown_key', path: 'projects[0].defaultLocale' }),
      );
    expect(read('docs/configuration.md')).not.toContain('defaultLocale');
    expect(read('fundbot.config.example.json')).not.toContain('defaultLocale');
  });
});
